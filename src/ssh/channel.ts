// What a signed-in connection may ask for: one interactive shell on a terminal, sized by
// its pty and window changes, with NO_COLOR as the only environment taken. Commands,
// subsystems (sftp), forwarding (ports, X11, the agent) and signals are refused, and a
// shell without a usable terminal is told why.
import type ssh2 from "ssh2";
import type { Connection, PseudoTtyInfo, ServerChannel } from "ssh2";
import { logEscape, logQuote } from "../log-escape.ts";

/**
 * Only what changes how the client looks (no colour; how many colours the terminal shows;
 * the theme): everything else a client sends is refused.
 */
const ENV_ALLOWED = new Set(["NO_COLOR", "COLORTERM", "PARLEY_THEME"]);
const ENV_VALUE_MAX = 64;

/** What a session without a terminal (ssh -T, a command, a pipe) is told. */
export const NEEDS_PTY =
  "parley: this is a full-screen app and needs a terminal; connect with ssh -t and no command.";

/** The largest terminal a session may have; a pty or window change above is taken as this. */
export const MAX_COLUMNS = 1000;
export const MAX_ROWS = 500;

/**
 * A size a client asked for, made one a terminal can be: 1 to `max`, the default for 0
 * or anything that is not a number. (A 100000x100000 pty made Ink build a frame string
 * longer than V8 allows, which took down every session on its worker.)
 */
export function clampSize(value: number, fallback: number, max: number): number {
  if (!Number.isFinite(value) || value < 1) return fallback;
  return Math.min(Math.floor(value), max);
}

export function dumbTermMessage(term: string): string {
  return `parley: TERM=${logEscape(term, 64) || "(unset)"} cannot move the cursor or switch screens, which a full-screen app needs. Try TERM=xterm-256color.`;
}

/** Says why, on the client's stderr (it shows in their terminal), and closes with 1. */
export function refuse(channel: ServerChannel, message: string): void {
  channel.stderr.write(`${message}\r\n`);
  channel.exit(1);
  channel.end();
}

/** A client running on a shell channel, as far as the channel needs to know. */
export type OnChannel = {
  resize(columns: number, rows: number): void;
  done: Promise<void>;
};

/** A shell on a usable terminal: its channel, size and environment (TERM included). */
export type ShellRequest = {
  channel: ServerChannel;
  columns: number;
  rows: number;
  env: Record<string, string>;
};

/** Ports and other global requests are not offered. */
export function refuseForwarding(connection: Connection): void {
  connection.on("request", (_accept, reject) => reject?.());
  connection.on("tcpip", (_accept, reject) => reject());
}

/**
 * Applies the policy to one session channel. A shell that passes is handed to `start`,
 * which runs a client on it (or refuses it for reasons of its own, returning nothing).
 */
export function handleSessionChannel(
  session: ssh2.Session,
  start: (request: ShellRequest) => OnChannel | undefined,
  /** Told why a request was turned away, for the log (values already escaped). */
  refused: (why: string) => void = () => {},
): void {
  let pty: PseudoTtyInfo | undefined;
  let current: OnChannel | undefined;
  const env: Record<string, string> = {};
  const columnsOf = (info: { cols: number }) => clampSize(info.cols, 80, MAX_COLUMNS);
  const rowsOf = (info: { rows: number }) => clampSize(info.rows, 24, MAX_ROWS);
  session.on("pty", (accept, _reject, info) => {
    pty = info;
    accept?.();
  });
  session.on("window-change", (accept, _reject, info) => {
    if (pty) {
      pty.cols = info.cols;
      pty.rows = info.rows;
    }
    current?.resize(columnsOf(info), rowsOf(info));
    accept?.();
  });
  session.on("env", (accept, reject, info) => {
    if (ENV_ALLOWED.has(info.key) && info.val.length <= ENV_VALUE_MAX) {
      env[info.key] = info.val;
      accept?.();
    } else {
      reject?.();
    }
  });
  session.on("exec", (accept, _reject, info) => {
    refused(`a command, ${logQuote(info.command)}`);
    refuse(
      accept(),
      "parley: this server runs the chat client only, not commands; connect without one.",
    );
  });
  for (const name of ["x11", "auth-agent", "signal", "subsystem", "sftp"]) {
    session.on(name, (_accept: unknown, reject?: () => void) => reject?.());
  }
  session.once("shell", (accept) => {
    const channel = accept();
    if (!pty) {
      refused("no terminal (ssh -T or a pipe)");
      return refuse(channel, NEEDS_PTY);
    }
    const term = pty.term ?? "";
    if (term === "" || term === "dumb") {
      refused(`a terminal that cannot draw, TERM ${logQuote(term, 64)}`);
      return refuse(channel, dumbTermMessage(term));
    }
    const shellEnv: Record<string, string> = { ...env, TERM: term };
    // Notifications need tmux's passthrough when the client's terminal is tmux.
    if (term.startsWith("tmux")) shellEnv.TMUX = "1";
    const entry = start({
      channel,
      columns: columnsOf(pty),
      rows: rowsOf(pty),
      env: shellEnv,
    });
    if (!entry) return;
    current = entry;
    void entry.done.then(() => {
      current = undefined;
    });
  });
}
