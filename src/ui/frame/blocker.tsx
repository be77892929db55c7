// Shown instead of the messages while nothing can be loaded: what is wrong, and what to do.

import { useStore } from "../screen/observable.ts";
import { CenteredNote } from "../screen/panel.tsx";
import { useSession } from "../screen/session-context.tsx";
import { screenText } from "../text/sanitize.ts";

export function Blocker({ width, height }: { width: number; height: number }) {
  const session = useSession();
  const connection = useStore(session.status.connection);
  const hint = session.offlineHint ?? {
    serve: "parley serve --demo",
    baseUrlFrom: "PARLEY_BASE_URL",
  };
  const lines =
    connection.state === "unauthorized"
      ? [
          "The server rejected the token (401).",
          'Set a valid one in PARLEY_TOKEN, in the config file\'s "token",',
          "or with --token-file PATH, then start parley again.",
        ]
      : [
          `Cannot reach ${session.baseUrl}`,
          // The reason without the address the line above already names.
          connection.state === "offline"
            ? screenText(connection.reason.replace(`Cannot reach ${session.baseUrl}`, "").trim())
            : "",
          "Retrying with back-off (Ctrl+R: now); this goes away when the server answers.",
          `Start one with \`${hint.serve}\`, or point ${hint.baseUrlFrom} elsewhere. q quits.`,
        ];
  return <CenteredNote width={width} height={height} lines={lines} alert />;
}
