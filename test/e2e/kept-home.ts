// For the e2e tests of what the client keeps from one run to the next (offline.test.ts,
// offline.soak.test.ts): a folder for the server's database, a home that every run of the
// client shares, and the built client started in that home.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { CLI, type Cleanups, type Pane, startPane } from "./tmux.ts";

export type { Cleanups } from "./tmux.ts";

/** The server's folder and the client's home, both removed after the test. */
export function keptFolders(cleanups: Cleanups, prefix: string): { dir: string; home: string } {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const home = mkdtempSync(join(tmpdir(), `${prefix}-home-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() =>
    rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }),
  );
  return { dir, home };
}

/** The demo server, without its replies, on a database in `dir`; closed after the test. */
export async function demoServerIn(dir: string, cleanups: Cleanups): Promise<RunningServer> {
  const server = await startServer({
    port: 0,
    db: join(dir, "server.db"),
    demo: true,
    demoReplies: false,
  });
  cleanups.push(() => server.close());
  return server;
}

/**
 * The built client in tmux, signed in with `token` to `url`, its files in `home`. It is
 * ended after the test, and has written its kept files, before `home` is removed.
 */
export function clientIn(home: string, url: string, token: string, cleanups: Cleanups): Pane {
  const pane = startPane({
    command: `node ${JSON.stringify(CLI)}`,
    home,
    env: { PARLEY_BASE_URL: url, PARLEY_TOKEN: token, XDG_CACHE_HOME: join(home, "cache") },
  });
  cleanups.push(() => pane.kill());
  return pane;
}
