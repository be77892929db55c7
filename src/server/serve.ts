// The server as a process of its own (`parley serve`, `node src/server/main.ts`): start,
// close cleanly on a signal, and print the banner before anything else.
import { printServeBanner } from "./banner.ts";
import { type RunningServer, type StartOptions, startServer } from "./index.ts";

export async function serveUntilSignal(
  options: Omit<StartOptions, "log"> & { demo: boolean },
): Promise<RunningServer> {
  // The banner comes first (people copy it); what the server says before it waits.
  let held: string[] | null = [];
  const server = await startServer({
    ...options,
    log: (line) => (held ? held.push(line) : process.stderr.write(`${line}\n`)),
  });
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // Before the banner: whoever reads it may signal at once.
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  process.once("SIGHUP", stop);
  printServeBanner(server, { demo: options.demo });
  for (const line of held ?? []) process.stderr.write(`${line}\n`);
  held = null;
  if (!options.demo && (await server.people()).length === 0) {
    process.stderr.write(
      "parley serve: nobody can sign in yet: add people with parley users add NAME (same --db)\n",
    );
  }
  return server;
}
