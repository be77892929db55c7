// Asks the terminal for its background colour (OSC 11) before the UI is mounted, so the
// `auto` theme can pick light or dark. The query is followed by a Primary Device
// Attributes request (DA1), which every terminal answers, in order: a DA1 answer with no
// OSC 11 answer before it means the terminal does not say, and parley need not wait out
// the timeout. Whether the terminal clusters graphemes (src/client/graphemes.ts) is asked
// in between, the same way. The answers are read here, in raw mode, and never reach the
// UI; keys typed meanwhile do.
import {
  backgroundReply,
  hasDeviceAttributes,
  withoutTerminalReplies,
} from "../ui/keys/terminal-replies.ts";
import { contrast, type Rgb } from "../ui/look/contrast.ts";
import {
  ASK_GRAPHEME_CLUSTERS,
  type GraphemeClusters,
  graphemeClustersReply,
} from "./graphemes.ts";

export type Background = "dark" | "light";

/** The colour in a terminal's OSC 11 answer (`rgb:ffff/ffff/ffff`, 1 to 4 hex digits each). */
export function parseBackgroundReply(reply: string): Rgb | undefined {
  const channels = backgroundReply(reply);
  if (!channels) return undefined;
  const channel = (hex: string) =>
    Math.round((Number.parseInt(hex, 16) / (16 ** hex.length - 1)) * 255);
  return [channel(channels[0]), channel(channels[1]), channel(channels[2])];
}

/** Light when dark text reads better on it than light text does. */
export function backgroundKind(rgb: Rgb): Background {
  return contrast(rgb, [0, 0, 0]) > contrast(rgb, [255, 255, 255]) ? "light" : "dark";
}

type Tty = NodeJS.ReadStream & { setRawMode?: (on: boolean) => unknown; isRaw?: boolean };

export type BackgroundQueryOptions = {
  /** How long a terminal that answers neither question is waited for. Default 200 ms. */
  timeoutMs?: number;
  /** Stops waiting (the config turned out not to want the answer); a late answer is not a key. */
  signal?: AbortSignal;
  /**
   * Leaves the terminal in raw mode when done, for the UI about to take it: in between,
   * cooked mode would echo keys typed early onto the screen the first frame is drawn on.
   * The caller turns raw mode off if the UI never comes.
   */
  stayRaw?: boolean;
  /** Asks whether the terminal clusters graphemes too, and is given its answer if it gave one. */
  onGraphemeClusters?: (answer: GraphemeClusters) => void;
};

/**
 * The terminal's background, or undefined when it does not answer within the timeout.
 * Inside tmux the query goes to tmux, which answers with its own pane's colours. Sent as
 * early as possible, so the answer travels (over SSH, a round trip) while parley loads.
 * Anything else read meanwhile (keys typed early) is handed back to stdin for the UI.
 */
export function queryBackground(
  stdin: Tty,
  stdout: NodeJS.WritableStream,
  { timeoutMs = 200, signal, stayRaw = false, onGraphemeClusters }: BackgroundQueryOptions = {},
): Promise<Background | undefined> {
  if (!stdin.isTTY || typeof stdin.setRawMode !== "function" || signal?.aborted) {
    return Promise.resolve(undefined);
  }
  const wasRaw = stdin.isRaw === true;
  return new Promise((resolve) => {
    // latin1: one character per byte, so what is handed back is the bytes that came.
    let got = "";
    const done = (result: Background | undefined) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", abort);
      stdin.off("data", onData);
      if (!wasRaw && !stayRaw) stdin.setRawMode?.(false);
      stdin.pause();
      const typed = withoutTerminalReplies(got);
      if (typed !== "") stdin.unshift(Buffer.from(typed, "latin1"));
      resolve(result);
    };
    const onData = (chunk: Buffer | string) => {
      got += typeof chunk === "string" ? chunk : chunk.toString("latin1");
      // DA1 comes last: by then every answer this terminal gives is in.
      if (hasDeviceAttributes(got)) answered();
    };
    // What came, when DA1 did or when waiting stopped.
    const answered = () => {
      const clusters = graphemeClustersReply(got);
      if (clusters) onGraphemeClusters?.(clusters);
      const rgb = parseBackgroundReply(got);
      done(rgb ? backgroundKind(rgb) : undefined);
    };
    const abort = answered;
    const timer = setTimeout(abort, timeoutMs);
    signal?.addEventListener("abort", abort);
    stdin.setRawMode?.(true);
    stdin.on("data", onData);
    stdin.resume();
    // Clustering only when the answer is used (not over parley ssh: src/client/graphemes.ts).
    const clusters = onGraphemeClusters ? ASK_GRAPHEME_CLUSTERS : "";
    stdout.write(`\x1b]11;?\x07${clusters}\x1b[c`);
  });
}
