// The width mode the terminal's answer (src/client/graphemes.ts) calls for, set for the
// whole process once the UI's modules (string-width among them) are loaded.
import { setWidthMode } from "../ui/ink/string-width.ts";
import type { GraphemeClusters } from "./graphemes.ts";

const CLUSTERS_ON = "\x1b[?2027h";
const CLUSTERS_OFF = "\x1b[?2027l";

/**
 * Measures as the terminal draws, turning clustering on when the terminal offers it.
 * Returns what gives the terminal back its own setting, for the way out.
 */
export function applyGraphemeClusters(
  answer: GraphemeClusters | undefined,
  stdout: NodeJS.WritableStream,
): () => void {
  if (answer !== "on" && answer !== "available") {
    setWidthMode("code-points");
    return () => {};
  }
  setWidthMode("clusters");
  if (answer === "on") return () => {};
  stdout.write(CLUSTERS_ON);
  return () => {
    stdout.write(CLUSTERS_OFF);
  };
}
