// Where `parley ssh` sessions' clients run: each one an Ink instance on streams that stand
// in for the session's channel. A host lives in a worker thread (src/ssh/worker.ts), so
// the sessions' rendering is spread over the machine's cores while the SSH connections
// and the API server stay on the main thread; or in the main thread itself. Either way
// it only speaks in messages: bytes in, bytes out, a size, an end.
import type { Instance } from "ink";
import { queryBackground } from "../client/background.ts";
import { mountClient } from "../client/mount.tsx";
import { keepCarriedOver } from "../client/offline.ts";
import { createClientSession } from "../client/session.ts";
import type { StatusLine } from "../ui/screen/status-line.ts";
import { terminalOut } from "../ui/screen/terminal-out.ts";
import { colourDepth, themeSetting, toDepth } from "./colours.ts";
import { sessionDrafts } from "./drafts.ts";
import { limitedFetch } from "./fetch-limit.ts";
import { KEYS_BURST, PASTE_BURST_BYTES } from "./input-limit.ts";
import { ChannelInput, ChannelOutput, sink } from "./streams.ts";

/** What the SSH server tells a host. */
export type ToHost =
  | {
      type: "open";
      id: number;
      username: string;
      token: string;
      apiUrl: string;
      /** Where this user's drafts and unsent changes are kept between sessions. */
      keepDir?: string;
      /** This session's name for its drafts file, and those of the user's live sessions. */
      keepTag?: string;
      liveTags?: string[];
      columns: number;
      rows: number;
      env: Record<string, string>;
      /** What the client's title says it is served by; default "parley ssh". */
      serverLabel?: string;
    }
  | { type: "input"; id: number; data: Uint8Array }
  /** Input past the session's bound was dropped (src/ssh/input-limit.ts): say so. */
  | { type: "cut"; id: number }
  | { type: "resize"; id: number; columns: number; rows: number }
  /** The client is not reading: skip frames. */
  | { type: "hold"; id: number }
  /** It reads again: draw the whole screen. */
  | { type: "resume"; id: number }
  /** End the client and give the terminal back (the server is stopping). */
  | { type: "stop"; id: number }
  /** The channel is gone: end without writing anything more. */
  | { type: "drop"; id: number };

/** What a host tells the SSH server. */
export type FromHost =
  | { type: "output"; id: number; data: string }
  /** The client ended; everything it wrote came before this. `crash`: why it failed. */
  | { type: "done"; id: number; crash?: { message: string; detail: string } };

type Running = {
  input: ChannelInput;
  output: ChannelOutput;
  /** The client, once mounted (after its terminal said what its background is). */
  instance(): Instance | undefined;
  /** Ends this session only, with `error` as its reason. */
  fail(error: unknown): void;
  /** Ends a session whose client is not mounted yet. */
  end(): void;
  /** Says in the status line that input was cut. */
  cut(): void;
};

/**
 * How long a terminal that answers neither OSC 11 nor the device-attributes query is
 * waited for (every terminal answers the latter, at once; ssh adds a round trip).
 */
const BACKGROUND_TIMEOUT_MS = 500;

const INPUT_CUT = `more than ${KEYS_BURST} keys or ${PASTE_BURST_BYTES / 1024} KiB of paste came in at once; the rest was dropped`;

function crashOf(error: unknown): { message: string; detail: string } {
  return {
    message: error instanceof Error ? error.message : String(error),
    detail: error instanceof Error ? (error.stack ?? error.message) : String(error),
  };
}

export function createSessionHost(
  post: (message: FromHost) => void,
  /** Called when the last running session has ended (the worker can give memory back). */
  onIdle?: () => void,
): {
  handle(message: ToHost): void;
  /** Sessions open now (started and not ended). */
  size(): number;
} {
  const running = new Map<number, Running>();

  function open(message: Extract<ToHost, { type: "open" }>): void {
    const { id } = message;
    const input = new ChannelInput();
    const depth = colourDepth(message.env);
    const output = new ChannelOutput({
      columns: message.columns,
      rows: message.rows,
      send: (data) => post({ type: "output", id, data: toDepth(data, depth) }),
    });
    let crash: unknown;
    let instance: Instance | undefined;
    /** Ended (stopped, dropped, failed) before the client was mounted. */
    let ended = false;
    let told = false;
    let status: StatusLine | undefined;
    const tell = () => {
      if (told) return;
      told = true;
      running.delete(id);
      post({ type: "done", id, ...(crash === undefined ? {} : { crash: crashOf(crash) }) });
      if (running.size === 0) onIdle?.();
    };
    const fail = (error: unknown) => {
      crash ??= error;
      ended = true;
      // Whatever broke may break again while giving the terminal back: nothing more is sent.
      output.detach();
      input.destroy();
      try {
        instance?.unmount();
      } catch {
        // Ink could not even unmount: the session is over all the same.
      }
      tell();
    };
    const session: Running = {
      input,
      output,
      instance: () => instance,
      fail,
      end: () => {
        ended = true;
        if (!instance) tell();
      },
      cut: () => status?.error("Input cut", new Error(INPUT_CUT)),
    };
    running.set(id, session);

    const mount = (background: "dark" | "light" | undefined) => {
      if (ended) return;
      const drafts = message.keepDir
        ? sessionDrafts(
            message.keepDir,
            // By name: the token is this process's own, new at every start.
            { username: message.username, token: message.token },
            message.keepTag ?? String(id),
            message.liveTags ?? [],
          )
        : undefined;
      const client = createClientSession({
        api: { baseUrl: message.apiUrl, token: message.token, fetch: limitedFetch() },
        username: message.username,
        serverLabel: message.serverLabel ?? "parley ssh",
        notify: { bell: true, desktop: true },
        terminal: terminalOut(output, message.env),
        carried: drafts?.carried,
      });
      status = client.session.status;
      const unsent = drafts ? keepCarriedOver(client.session, drafts.files) : undefined;
      const mounted = mountClient({
        ...client,
        env: message.env,
        stdin: input,
        stdout: output,
        stderr: sink(),
        theme,
        background,
        onRenderError: (error) => {
          crash ??= error;
        },
        onExit: () => {
          unsent?.stop();
          drafts?.release();
        },
      }).instance;
      instance = mounted;
      const finish = async () => {
        try {
          await mounted.waitUntilExit();
        } catch (error) {
          crash ??= error;
        }
        // Ink's last writes (the terminal given back) go out before the end is told.
        output.flush();
        output.detach();
        input.destroy();
        tell();
      };
      void finish();
    };

    // The theme: PARLEY_THEME, or (auto) the terminal's background, asked through the
    // channel as the local client asks its terminal; what is typed meanwhile is kept.
    const theme = themeSetting(message.env);
    if (theme !== "auto") {
      mount(undefined);
      return;
    }
    queryBackground(input as unknown as NodeJS.ReadStream, output, {
      timeoutMs: BACKGROUND_TIMEOUT_MS,
      stayRaw: true,
    }).then(
      (background) => {
        try {
          mount(background);
        } catch (error) {
          fail(error);
        }
      },
      (error: unknown) => fail(error),
    );
  }

  function apply(session: Running, message: Exclude<ToHost, { type: "open" }>): void {
    switch (message.type) {
      case "input":
        session.input.feed(Buffer.from(message.data));
        break;
      case "cut":
        session.cut();
        break;
      case "resize":
        session.output.resize(message.columns, message.rows);
        break;
      case "hold":
        session.output.hold();
        break;
      case "resume":
        session.output.release();
        break;
      case "stop":
        if (session.instance()) session.instance()!.unmount();
        else session.end();
        break;
      case "drop":
        // Nothing more can reach the client: Ink's goodbye writes go nowhere.
        session.output.detach();
        if (session.instance()) session.instance()!.unmount();
        else session.end();
        break;
    }
  }

  return {
    size: () => running.size,
    // Whatever one session's client throws ends that session only, never its neighbours
    // on this thread (nor, with --threads 0, the whole server).
    handle(message) {
      if (message.type === "open") {
        try {
          open(message);
        } catch (error) {
          const session = running.get(message.id);
          if (session) session.fail(error);
          else post({ type: "done", id: message.id, crash: crashOf(error) });
        }
        return;
      }
      const session = running.get(message.id);
      if (!session) return;
      try {
        apply(session, message);
      } catch (error) {
        session.fail(error);
      }
    },
  };
}
