// What a browser and `parley web` say over the WebSocket. The page speaks first, one hello
// (its terminal's size, its light or dark preference, a token unless it is the demo) as
// JSON text; then binary messages are what is typed, and text ones resizes. The server
// sends the screen as binary messages, and before it closes one JSON text saying why:
// {type: "end", notes} or {type: "signin", message} (the token did not sign in).
import type { WebSocket } from "ws";
import { clampSize, MAX_COLUMNS, MAX_ROWS } from "../ssh/channel.ts";
import type { SessionTerminal } from "../ssh/sessions.ts";

export type Hello = {
  columns: number;
  rows: number;
  theme: "dark" | "light";
  token?: string;
};

/** A token as `parley users token` prints it, at most; anything longer is not one. */
const TOKEN_MAX = 256;

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The page's first message, or why it is not one (for the log: no value of the visitor's). */
export function parseHello(text: string): Hello | string {
  const value = parse(text);
  if (value?.type !== "hello") return "the first message was not a hello";
  const token = value.token;
  if (token !== undefined && (typeof token !== "string" || !/^[\x21-\x7e]{1,256}$/.test(token))) {
    return `a token that is not one (1 to ${TOKEN_MAX} printable characters)`;
  }
  return {
    columns: clampSize(Number(value.columns), 80, MAX_COLUMNS),
    rows: clampSize(Number(value.rows), 24, MAX_ROWS),
    theme: value.theme === "light" ? "light" : "dark",
    ...(typeof token === "string" ? { token } : {}),
  };
}

/** A resize the page asked for, clamped; undefined for anything else. */
export function parseResize(text: string): { columns: number; rows: number } | undefined {
  const value = parse(text);
  if (value?.type !== "resize") return undefined;
  return {
    columns: clampSize(Number(value.columns), 80, MAX_COLUMNS),
    rows: clampSize(Number(value.rows), 24, MAX_ROWS),
  };
}

/** Says why, then closes: what the page shows on its end panel. */
export function endSocket(socket: WebSocket, notes: string[], code = 1000): void {
  if (socket.readyState !== socket.OPEN) return;
  socket.send(JSON.stringify({ type: "end", notes }));
  socket.close(code);
}

/**
 * A browser's WebSocket as a session's terminal: xterm.js, which answers what the client
 * asks (xterm-256color, true colour), with the colours the visitor's system prefers.
 * `onResize` gets the page's resizes.
 */
export function socketTerminal(
  socket: WebSocket,
  hello: Hello,
  onResize: (columns: number, rows: number) => void,
): SessionTerminal {
  return {
    columns: hello.columns,
    rows: hello.rows,
    env: { TERM: "xterm-256color", COLORTERM: "truecolor", PARLEY_THEME: hello.theme },
    write(data) {
      if (socket.readyState === socket.OPEN) socket.send(Buffer.from(data, "utf8"));
    },
    end(code, notes) {
      endSocket(socket, notes, code === 0 ? 1000 : 1011);
    },
    listen(on) {
      const message = (data: Buffer | ArrayBuffer | Buffer[], binary: boolean) => {
        const bytes = Buffer.isBuffer(data)
          ? data
          : Array.isArray(data)
            ? Buffer.concat(data)
            : Buffer.from(data);
        if (binary) on.data(bytes);
        else {
          const size = parseResize(bytes.toString("utf8"));
          if (size) onResize(size.columns, size.rows);
        }
      };
      const close = () => on.close();
      socket.on("message", message);
      socket.once("close", close);
      socket.on("error", on.error);
      return () => {
        socket.off("message", message);
        socket.off("close", close);
      };
    },
  };
}
