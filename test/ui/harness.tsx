// Renders the real client tree against the real embedded server, in a terminal of a
// chosen size, with keys written as the bytes a terminal sends. Frames are read back
// through @xterm/headless, so what is asserted is what a person would see on screen.

import { EventEmitter } from "node:events";
import type { QueryClient } from "@tanstack/react-query";
import type xterm from "@xterm/headless";
import { afterEach } from "vitest";
import { createExternalEditor } from "../../src/client/external-editor.ts";
import { handOverTerminal } from "../../src/client/hand-over.ts";
import { localFiles } from "../../src/client/local-files.ts";
import { type MountedClient, mountClient } from "../../src/client/mount.tsx";
import { localOpener, type OpenUrl } from "../../src/client/opener.ts";
import { createClientSession } from "../../src/client/session.ts";
import { type RunningServer, type StartOptions, startServer } from "../../src/server/index.ts";
import type { ThemeSetting } from "../../src/ui/look/theme.ts";
import type { PollPace, Session } from "../../src/ui/screen/session.ts";
import { headlessTerminal, screenText } from "../virtual-terminal.ts";
import { pause, until } from "../wait.ts";

class FakeStdout extends EventEmitter {
  isTTY = true;
  columns: number;
  rows: number;
  written = "";
  bytes = 0;
  private readonly term: xterm.Terminal;
  constructor(columns: number, rows: number, term: xterm.Terminal) {
    super();
    this.columns = columns;
    this.rows = rows;
    this.term = term;
  }
  // The callback as a stream calls it once written (Ink waits on it after a hand-over).
  write = (data: string, ...rest: unknown[]) => {
    this.bytes += Buffer.byteLength(data);
    this.written += data;
    this.term.write(data);
    const done = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
    if (done) queueMicrotask(done);
    return true;
  };
}

class FakeStdin extends EventEmitter {
  isTTY = true;
  private chunks: string[] = [];
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => this.chunks.shift() ?? null;
  write(data: string) {
    this.chunks.push(data);
    this.emit("readable");
  }
}

export const KEYS = {
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  enter: "\r",
  escape: "\x1b",
  tab: "\t",
  shiftTab: "\x1b[Z",
  backspace: "\x7f",
  ctrlC: "\x03",
  ctrlL: "\x0c",
  ctrlR: "\x12",
  pageUp: "\x1b[5~",
  pageDown: "\x1b[6~",
} as const;

/** How long Ink waits for more bytes after an Esc (its pendingInputFlushDelayMilliseconds). */
const INK_ESCAPE_MS = 20;

export type Harness = {
  server: RunningServer;
  session: Session;
  queryClient: QueryClient;
  /** Bytes written to the terminal so far. */
  bytes(): number;
  /** Everything written to the terminal so far. */
  written(): string;
  screen(): string;
  /** What `bytes` alone draw on a blank terminal of this size. */
  screenOf(bytes: string): Promise<string>;
  press(...keys: string[]): Promise<void>;
  type(text: string): Promise<void>;
  paste(text: string): Promise<void>;
  waitFor(
    predicate: (screen: string) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<string>;
  resize(columns: number, rows: number): Promise<void>;
  /**
   * How the first cell of each place `needle` shows on screen (top to bottom): its
   * foreground as `#rrggbb`, `palette N` or `default`, and whether it is bold or inverse.
   */
  looks(needle: string): { fg: string; bold: boolean; inverse: boolean; row: number }[];
  clipboard: string[];
  /** Where in `written()` each hand-over of the terminal to the editor began. */
  handOvers: number[];
  /** What the client wrote to the terminal outside of frames: OSC 52, bells, notifications. */
  sequences: string[];
  /** How many times Ink has rendered the tree, written frame or not. */
  renders(): number;
  close(): Promise<void>;
};

/**
 * A test file's harnesses: `start` one in a test, and it is closed after that test; then
 * whatever the test gave `afterTest` (servers, folders) goes too, the last given first.
 */
export function harnessEachTest(): {
  start: typeof startHarness;
  afterTest(cleanup: () => unknown): void;
  /** A demo server (port 0, no demo replies) for this test alone: closed after it. */
  server(options?: StartOptions): Promise<RunningServer>;
} {
  const started: Harness[] = [];
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const harness of started.splice(0).reverse()) await harness.close();
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return {
    async start(...args) {
      const harness = await startHarness(...args);
      started.push(harness);
      return harness;
    },
    afterTest: (cleanup) => cleanups.push(cleanup),
    async server(options = {}) {
      const server = await startServer({ port: 0, demo: true, demoReplies: false, ...options });
      cleanups.push(() => server.close());
      return server;
    },
  };
}

export async function startHarness(
  options: {
    columns?: number;
    rows?: number;
    server?: RunningServer;
    user?: number;
    token?: string;
    baseUrl?: string;
    env?: NodeJS.ProcessEnv;
    username?: string | null;
    /**
     * Per request. The server answers in this same process, which a loaded CI machine can
     * hold up for seconds; a poll that times out backs off past a test's wait.
     */
    timeoutMs?: number;
    /**
     * How often the open conversation and the list are polled. Default 400 ms and 800 ms,
     * five times the real pace (2 s and 5 s), so tests of what polling brings do not wait
     * out real seconds; a test of the pace itself passes its own.
     */
    pollPace?: PollPace;
    /**
     * Stands in for the platform's opener (xdg-open, open). Given to the client as the
     * local client gives its own: only when `env` does not say it runs over SSH.
     */
    openUrl?: OpenUrl;
    /**
     * The environment the $VISUAL / $EDITOR hand-over reads (Ctrl+G): the client's own
     * implementation, run with this harness's terminal handed over. Without it the session
     * has no editor, as in parley ssh.
     */
    editorEnv?: NodeJS.ProcessEnv;
    /** The config file's `theme` and the terminal's background (OSC 11) when it said. */
    theme?: ThemeSetting;
    background?: "dark" | "light";
    mouse?: boolean;
    /**
     * The person's home folder, for `/attach PATH` (the local client's own file access,
     * with `~` there). Without it the session has no files, as in parley ssh.
     */
    home?: string;
  } = {},
): Promise<Harness> {
  const columns = options.columns ?? 120;
  const rows = options.rows ?? 40;
  const server = options.server ?? (await startServer({ port: 0, demo: true, demoReplies: false }));
  const user = server.demoUsers[options.user ?? 0]!;
  const term = headlessTerminal(columns, rows);
  const stdout = new FakeStdout(columns, rows, term);
  const stdin = new FakeStdin();
  const baseUrl = options.baseUrl ?? server.url;
  const clipboard: string[] = [];
  const sequences: string[] = [];
  const { session, queryClient } = createClientSession({
    api: {
      baseUrl,
      token: options.token ?? user.token,
      retries: 0,
      timeoutMs: options.timeoutMs ?? 10_000,
    },
    username: options.username === null ? undefined : (options.username ?? user.username),
    notify: { bell: true, desktop: true },
    terminal: {
      insideTmux: false,
      write: (data) => {
        const osc52 = /\x1b\]52;c;([^\x07]*)\x07/.exec(data);
        if (osc52) clipboard.push(Buffer.from(osc52[1]!, "base64").toString("utf8"));
        sequences.push(data);
        stdout.write(data);
      },
    },
    pollPace: options.pollPace ?? { openMs: 400, listMs: 800 },
    openUrl: localOpener(options.env ?? {}, options.openUrl),
    files: options.home === undefined ? undefined : localFiles(options.home),
    editText:
      options.editorEnv &&
      createExternalEditor({
        env: options.editorEnv,
        handOver: async (away) => {
          if (!mounted) return false;
          handOvers.push(stdout.written.length);
          await handOverTerminal(
            { suspendTerminal: mounted.suspendTerminal, redraw: () => stdout.emit("resize") },
            away,
          );
          return true;
        },
      }),
  });
  // As the real client mounts: the same render options, and a resize (or Ctrl+L) starts
  // from a clean screen and a full frame.
  let mounted: MountedClient | undefined;
  const handOvers: number[] = [];
  let renders = 0;
  mounted = mountClient({
    session,
    queryClient,
    env: options.env ?? {},
    theme: options.theme,
    background: options.background,
    mouse: options.mouse,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stderr: new EventEmitter() as unknown as NodeJS.WriteStream,
    onRender: () => {
      renders++;
    },
  });
  const { instance } = mounted;

  const screen = () => screenText(term);
  const flush = () => new Promise<void>((resolve) => term.write("", resolve));
  // Until the key has been acted on and its frame is written: Ink runs the pending effects,
  // flushes its throttled render, and the terminal emulator takes in the bytes.
  const settle = async () => {
    await instance.waitUntilRenderFlush();
    await flush();
  };
  let closed = false;
  const harness: Harness = {
    server,
    session,
    queryClient,
    clipboard,
    handOvers,
    sequences,
    bytes: () => stdout.bytes,
    written: () => stdout.written,
    renders: () => renders,
    screen,
    async screenOf(bytes) {
      const blank = headlessTerminal(term.cols, term.rows);
      await new Promise<void>((resolve) => blank.write(bytes, resolve));
      const text = screenText(blank);
      blank.dispose();
      return text;
    },
    async press(...keys) {
      for (const key of keys) {
        stdin.write(key);
        // Ink holds a lone Esc for 20 ms in case the rest of a sequence follows. A timer of
        // the same length set after Ink's fires after it, however late both run: then the
        // Esc has gone through, and the next key cannot join it.
        if (key === KEYS.escape) await pause(INK_ESCAPE_MS);
        await settle();
      }
    },
    async type(text) {
      // Key by key, each in a read of its own, as a person types: a turn of the event loop
      // apart, in which Ink reads the key and React renders what it did.
      for (const ch of text) {
        stdin.write(ch);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await settle();
    },
    async paste(text) {
      stdin.write(`\x1b[200~${text}\x1b[201~`);
      await settle();
    },
    async waitFor(predicate, what, timeoutMs = 15_000) {
      return until(
        async () => {
          await flush();
          const current = screen();
          return predicate(current) ? current : undefined;
        },
        what,
        { timeoutMs, detail: () => `Screen:\n${screen()}` },
      );
    },
    looks(needle) {
      const buffer = term.buffer.active;
      const found: ReturnType<Harness["looks"]> = [];
      for (let y = 0; y < term.rows; y++) {
        const line = buffer.getLine(buffer.viewportY + y);
        const text = line?.translateToString(false) ?? "";
        for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
          // translateToString pads wide cells: string index and column agree here only
          // left of any wide character, so find the column by walking the cells.
          let col = 0;
          let seen = 0;
          while (line && col < term.cols) {
            const chars = line.getCell(col)?.getChars() ?? "";
            if (seen >= at) break;
            // The second cell of a wide character is not in the string.
            seen += line.getCell(col)?.getWidth() === 0 ? 0 : Math.max(1, chars.length);
            col++;
          }
          const cell = line?.getCell(col);
          if (!cell) continue;
          const fg = cell.isFgRGB()
            ? `#${cell.getFgColor().toString(16).padStart(6, "0")}`
            : cell.isFgPalette()
              ? `palette ${cell.getFgColor()}`
              : "default";
          found.push({ fg, bold: cell.isBold() !== 0, inverse: cell.isInverse() !== 0, row: y });
        }
      }
      return found;
    },
    async resize(newColumns, newRows) {
      stdout.columns = newColumns;
      stdout.rows = newRows;
      term.resize(newColumns, newRows);
      stdout.emit("resize");
      await settle();
      await flush();
    },
    async close() {
      if (closed) return;
      closed = true;
      instance.unmount();
      instance.cleanup();
      queryClient.clear();
      if (!options.server) await server.close();
    },
  };
  return harness;
}
