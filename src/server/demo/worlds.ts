// Demo worlds for `parley web --demo` and `parley ssh --demo`: by default each visitor's
// session gets a world of its own (an API server on this machine with a fresh demo seed in
// memory, its bots answering that visitor alone), which ends with the session; `shared`
// puts everyone in one. Worlds are capped: past `maxWorlds` a visitor is told to come back.
import { logEscape } from "../../log-escape.ts";
import type { SessionApi } from "../../ssh/sessions.ts";
import type { RunningServer, StartOptions } from "../index.ts";
import { DEMO_USERNAMES } from "./users.ts";

export type DemoMode = "own" | "shared";

/** Default: as many worlds as sessions (src/ssh/server.ts: 64). */
export const DEFAULT_MAX_WORLDS = 64;

export class WorldsFullError extends Error {}

export type DemoWorlds = {
  /** A new world with `username` signed in, or WorldsFullError past the cap. */
  enter(username: string): Promise<SessionApi>;
  /** Worlds running now. */
  size(): number;
  /** Ends every world. */
  close(): Promise<void>;
};

export function demoWorlds(options: {
  start: (opts: StartOptions) => Promise<RunningServer>;
  maxWorlds?: number;
  /** How long a bot takes to answer (tests); default the demo's. */
  replyDelayMs?: [number, number];
  log: (line: string) => void;
}): DemoWorlds {
  const max = options.maxWorlds ?? DEFAULT_MAX_WORLDS;
  const running = new Set<RunningServer>();
  let starting = 0;
  let closing = false;
  return {
    async enter(username) {
      if (closing || running.size + starting >= max) {
        throw new WorldsFullError(`all ${max} demo worlds are taken; try again in a while.`);
      }
      if (!(DEMO_USERNAMES as readonly string[]).includes(username)) {
        throw new Error(`no demo user ${logEscape(username, 64)}`);
      }
      starting++;
      let world: RunningServer;
      try {
        world = await options.start({
          db: ":memory:",
          demo: true,
          demoReplies: true,
          ...(options.replyDelayMs ? { demoReplyDelayMs: options.replyDelayMs } : {}),
          // A world's own lines (its listening address, each bot's answer) are not news.
          log: (line) => {
            if (!line.startsWith("parley server listening")) options.log(`demo world: ${line}`);
          },
        });
      } finally {
        starting--;
      }
      running.add(world);
      const user = world.demoUsers.find((u) => u.username === username)!;
      let left = false;
      return {
        url: world.url,
        token: user.token,
        leave: () => {
          if (left) return;
          left = true;
          running.delete(world);
          void world.close();
        },
      };
    },
    size: () => running.size + starting,
    async close() {
      closing = true;
      const all = [...running];
      running.clear();
      await Promise.all(all.map((world) => world.close()));
    },
  };
}
