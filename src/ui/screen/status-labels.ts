// What the status line's right side says of the connection, as plain text: for the status
// bar, and for the start screen drawn before Ink loads (src/client/start-screen.ts), so
// nothing here may import more than text formatting.
import { clockTime } from "../text/format.ts";
import type { Connection } from "./status-line.ts";

export function connectionLabel(connection: Connection): string {
  switch (connection.state) {
    case "connecting":
      return "connecting…";
    case "online":
      return "● online";
    case "offline":
      return "○ offline, retrying";
    case "unreadable":
      return connection.noApi ? "✗ no API" : "○ answers unreadable, retrying";
    case "unauthorized":
      return "✗ token rejected";
  }
}

/** "last synced 14:05": how old the screen is, while it is not the server's word. */
export function syncedLabel(connection: Connection, lastSynced: number | undefined): string {
  // A base URL beside the API: what to do goes first, in the room there is (60 columns).
  if (connection.state === "online" || lastSynced === undefined) return "";
  if (connection.state === "unreadable" && connection.noApi) return "";
  return ` · last synced ${clockTime(Math.floor(lastSynced / 1000))}`;
}
