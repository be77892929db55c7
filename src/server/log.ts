// What the server logs about a failure: everything in it may hold request-derived text
// (an error's message can quote a parameter), so each line is escaped for the terminal.
import { escapeForLog } from "../log-escape.ts";

/** The error's message on the first line, its stack frames (each escaped) after it. */
export function errorForLog(error: unknown): string {
  const head = String(error);
  const stack = error instanceof Error ? (error.stack ?? "") : "";
  const frames = stack.startsWith(head) ? stack.slice(head.length).split("\n").slice(1) : [];
  return [escapeForLog(head), ...frames.map(escapeForLog)].join("\n");
}
