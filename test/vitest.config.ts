import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { inkPlugin } from "../scripts/ink-plugin.ts";
import { postgresBin } from "./postgres/cluster.ts";

// The server's rules and the client's API tests run once more on PostgreSQL, on a
// throwaway cluster (test/postgres/); without PostgreSQL on the machine, a skipped test
// says so (CI sets PARLEY_REQUIRE_POSTGRES and installs it: it never skips them).
// Files of long sessions and soaks (minutes each): their own project, the "soak" one.
const SOAK = "test/**/*.soak.test.{ts,tsx}";
// The built `parley` as a program, with the programs around it: in tmux and GNU screen,
// over OpenSSH, in Chromium, behind nginx. `npm run test:e2e`, beside `npm test`: on two
// cores these take three times as long as all the rest together.
const E2E = [
  "test/e2e/**/*.test.ts",
  "test/web/browser.test.ts",
  "test/web/nginx.test.ts",
  "test/ssh/public.test.ts",
  "test/server/nginx.test.ts",
];
const ON_POSTGRES = ["test/server/*.test.ts", "test/api/client.test.ts"];
/** The server's soaks (load, crashes) run on PostgreSQL too, with the other soaks. */
const SOAK_ON_POSTGRES = ["test/server/*.soak.test.ts"];
const CLIENT_CLASSES = [
  "test/api/client.test.ts",
  "test/api/client.foreign.test.ts",
  "test/api/events.test.ts",
  "test/api/transport.test.ts",
];
if (!postgresBin() && process.env.PARLEY_REQUIRE_POSTGRES) {
  throw new Error("PARLEY_REQUIRE_POSTGRES is set, but PostgreSQL is not installed.");
}
const onPostgres = (include: string[], exclude: string[]) =>
  postgresBin()
    ? {
        include,
        exclude,
        globalSetup: ["test/postgres/setup.ts"],
        // parley's data folder is where a PostgreSQL demo keeps its tokens: a temporary one.
        env: {
          PARLEY_TEST_STORE: "postgres",
          XDG_DATA_HOME: join(tmpdir(), "parley-postgres-tests"),
        },
      }
    : { include: ["test/postgres/missing.test.ts"] };

export default defineConfig({
  // The same Ink as the bundle's: parley's faster Output in place of Ink's.
  plugins: [inkPlugin()],
  test: {
    // The repository, not this folder: paths below are relative to it.
    root: fileURLToPath(new URL("..", import.meta.url)),
    projects: [
      {
        extends: true,
        test: {
          name: "sqlite",
          include: ["test/**/*.test.{ts,tsx}"],
          // Files share a worker: a file puts back what it changes (docs/development.md).
          isolate: false,
          setupFiles: ["test/node-classes.ts", "test/ink-size.ts"],
          exclude: ["test/bench/**", "test/postgres/**", SOAK, ...E2E, "node_modules/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          isolate: false,
          setupFiles: ["test/node-classes.ts"],
          ...onPostgres(ON_POSTGRES, ["test/server/units.test.ts", SOAK, ...E2E]),
        },
      },
      // The API client once more, with the Headers, Request and Response the client's
      // process has (src/api/fetch-classes.ts), not Node's: against the real server and
      // against foreign and hostile ones (an endless body, a stall, a huge length).
      {
        extends: true,
        test: {
          name: "client-classes",
          include: CLIENT_CLASSES,
          setupFiles: ["test/api/install-fetch-classes.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: E2E,
          exclude: [SOAK],
          isolate: false,
          setupFiles: ["test/node-classes.ts"],
        },
      },
      // nginx in front of two instances on one PostgreSQL database.
      {
        extends: true,
        test: {
          name: "e2e-postgres",
          setupFiles: ["test/node-classes.ts"],
          ...onPostgres(["test/server/nginx.test.ts"], []),
        },
      },
      // Long sessions and soaks (minutes each): `npm run test:soak`, not `npm test`.
      {
        extends: true,
        test: {
          name: "soak",
          include: [SOAK],
          setupFiles: ["test/ink-size.ts"],
          testTimeout: 600_000,
        },
      },
      {
        extends: true,
        test: {
          name: "soak-postgres",
          testTimeout: 600_000,
          setupFiles: ["test/node-classes.ts"],
          ...onPostgres(SOAK_ON_POSTGRES, []),
        },
      },
    ],
    // Most tests wait on a server, a poll or a terminal rather than compute: on a 2-core
    // machine four files at a time finish sooner than Vitest's default of one per core
    // but one (`npm test` used 68% of the two cores with three: medians of 108 s in six runs
    // with four, 100 to 126, against 117 s in four with three, 111 to 119).
    maxWorkers: 4,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    server: {
      deps: {
        // Through Vite, so the plugin can swap Ink's modules; everything that imports Ink
        // goes the same way, or it would get a second, unswapped copy of Ink.
        inline: [/\/node_modules\/ink\//, /\/node_modules\/ink-testing-library\//],
      },
    },
  },
});
