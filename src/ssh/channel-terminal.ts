// An SSH shell's channel as the terminal of a session (src/ssh/sessions.ts), which does not
// know what carries its bytes: `parley web` gives it a WebSocket instead (src/web/socket.ts).
import type { ShellRequest } from "./channel.ts";
import type { SessionTerminal } from "./sessions.ts";

/** A shell's channel as a session's terminal: notes go to its stderr, the end is its exit code. */
export function channelTerminal(request: ShellRequest): SessionTerminal {
  const { channel } = request;
  return {
    columns: request.columns,
    rows: request.rows,
    env: request.env,
    write: (data) => channel.write(data),
    end(code, notes) {
      for (const note of notes) channel.stderr.write(`${note}\r\n`);
      channel.exit(code);
      channel.end();
    },
    listen(on) {
      channel.on("data", on.data);
      channel.once("close", on.close);
      channel.on("error", on.error);
      return () => {
        channel.off("data", on.data);
        channel.off("close", on.close);
      };
    },
  };
}
