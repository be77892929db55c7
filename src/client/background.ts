// Asks the terminal for its background colour (OSC 11) before the UI is mounted, so the
// `auto` theme can pick light or dark. The query is followed by a Primary Device
// Attributes request (DA1), which every terminal answers, in order: a DA1 answer with no
// OSC 11 answer before it means the terminal does not say, and parley need not wait out
// the timeout. The answers are read here, in raw mode, and never reach the UI.
import { contrast, type Rgb } from "../ui/contrast.ts";

export type Background = "dark" | "light";

const OSC11 =
  /\x1b\]11;rgba?:([\da-f]{1,4})\/([\da-f]{1,4})\/([\da-f]{1,4})(?:\/[\da-f]{1,4})?(?:\x07|\x1b\\)/i;
const DA1 = /\x1b\[\?[\d;]*c/;

/** The colour in a terminal's OSC 11 answer (`rgb:ffff/ffff/ffff`, 1 to 4 hex digits each). */
export function parseBackgroundReply(reply: string): Rgb | undefined {
  const m = OSC11.exec(reply);
  if (!m) return undefined;
  const channel = (hex: string) =>
    Math.round((Number.parseInt(hex, 16) / (16 ** hex.length - 1)) * 255);
  return [channel(m[1]!), channel(m[2]!), channel(m[3]!)];
}

/** Light when dark text reads better on it than light text does. */
export function backgroundKind(rgb: Rgb): Background {
  return contrast(rgb, [0, 0, 0]) > contrast(rgb, [255, 255, 255]) ? "light" : "dark";
}

type Tty = NodeJS.ReadStream & { setRawMode?: (on: boolean) => unknown; isRaw?: boolean };

/**
 * The terminal's background, or undefined when it does not answer within `timeoutMs`.
 * Inside tmux the query goes to tmux, which answers with its own pane's colours.
 */
export function queryBackground(
  stdin: Tty,
  stdout: NodeJS.WritableStream,
  timeoutMs = 200,
): Promise<Background | undefined> {
  if (!stdin.isTTY || typeof stdin.setRawMode !== "function") return Promise.resolve(undefined);
  const wasRaw = stdin.isRaw === true;
  return new Promise((resolve) => {
    let got = "";
    const done = (result: Background | undefined) => {
      clearTimeout(timer);
      stdin.off("data", onData);
      if (!wasRaw) stdin.setRawMode?.(false);
      stdin.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer | string) => {
      got += chunk.toString();
      const rgb = parseBackgroundReply(got);
      if (rgb) done(backgroundKind(rgb));
      else if (DA1.test(got)) done(undefined);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    stdin.setRawMode?.(true);
    stdin.on("data", onData);
    stdin.resume();
    stdout.write("\x1b]11;?\x07\x1b[c");
  });
}
