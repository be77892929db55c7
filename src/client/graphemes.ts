// Whether the terminal clusters graphemes: asked at start (DECRQM for mode 2027, next to
// the background question in src/client/background.ts, before the DA1 every terminal
// answers), and used for the whole client. A terminal that clusters draws an emoji ZWJ
// sequence (👨‍👩‍👧) as one 2-column character; parley turns the mode on when it is off,
// measures by grapheme, and turns it back off at exit. Any other terminal (tmux 3.3a, most
// today) is drawn text in a form whose width is certain (src/ui/text/width.ts). The width
// mode is one for the whole process (Ink and string-width have no notion of a session), so
// `parley ssh`, whose sessions share a process, does not ask and always draws that form.
// Set by grapheme-mode.ts, with the UI's modules: this file is loaded before them.
import { modeReport } from "../ui/keys/terminal-replies.ts";

/** DECRQM: "is mode 2027 (grapheme clustering) set?" */
export const ASK_GRAPHEME_CLUSTERS = "\x1b[?2027$p";

/** What the terminal said: on, off but available, or not there (or no answer). */
export type GraphemeClusters = "on" | "available" | "unsupported";

/** The answer to ASK_GRAPHEME_CLUSTERS in `text`, if it holds one (`CSI ? 2027 ; Ps $ y`). */
export function graphemeClustersReply(text: string): GraphemeClusters | undefined {
  const state = modeReport(text, 2027);
  if (state === undefined) return undefined;
  // 1 set, 3 permanently set; 2 reset (may be set); 0 unknown mode, 4 permanently reset.
  if (state === 1 || state === 3) return "on";
  return state === 2 ? "available" : "unsupported";
}
