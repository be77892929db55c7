// `parley ssh` asks glibc for few malloc arenas and a fixed trim threshold
// (src/ssh/malloc-arenas.ts): it starts itself again, in place, with both set, unless
// either is set already.
import { describe, expect, it } from "vitest";
import {
  MALLOC_SETTINGS,
  ownCommandLine,
  withMallocSettings,
} from "../../src/ssh/malloc-arenas.ts";
import { environment } from "../processes.ts";
import { built, startBuiltSsh } from "./built.ts";

describe.skipIf(process.platform !== "linux")("parley ssh's malloc settings", () => {
  it("starts again with them, the same arguments and the rest of the environment", () => {
    const calls: [string, string[], NodeJS.ProcessEnv][] = [];
    withMallocSettings({ HOME: "/home/someone" }, (file, args, env) => {
      calls.push([file, args, env]);
    });
    expect(calls).toHaveLength(1);
    const [file, args, env] = calls[0]!;
    expect(file).toBe(process.execPath);
    expect(args).toEqual([process.execPath, ...process.execArgv, ...process.argv.slice(1)]);
    expect(env).toEqual({
      HOME: "/home/someone",
      MALLOC_ARENA_MAX: "2",
      MALLOC_TRIM_THRESHOLD_: "131072",
    });
  });

  it("runs node with its options and the script again, a single executable without them", () => {
    const [node, ...rest] = ownCommandLine(false);
    expect(node).toBe(process.execPath);
    expect(rest).toEqual([...process.execArgv, ...process.argv.slice(1)]);
    // A single executable's argv is [itself, itself, ...arguments]; its command line was
    // [itself, ...arguments], and its Node options come from within it.
    expect(ownCommandLine(true)).toEqual([process.execPath, ...process.argv.slice(2)]);
  });

  it.each([{ MALLOC_ARENA_MAX: "8" }, { MALLOC_TRIM_THRESHOLD_: "0" }])(
    "leaves them alone when someone set one: %o",
    (set) => {
      let called = false;
      withMallocSettings(set, () => {
        called = true;
      });
      expect(called).toBe(false);
    },
  );

  it.skipIf(!built)("is set in the built server, which keeps its process id", async () => {
    const { MALLOC_ARENA_MAX: _, MALLOC_TRIM_THRESHOLD_: __, ...env } = process.env;
    const ssh = await startBuiltSsh(["--demo"], { env });
    try {
      const environ = environment(ssh.child.pid!);
      for (const [name, value] of Object.entries(MALLOC_SETTINGS)) {
        expect(environ.filter((entry) => entry.startsWith(`${name}=`))).toEqual([
          `${name}=${value}`,
        ]);
      }
    } finally {
      expect(await ssh.stop()).toBe(0);
    }
  });
});
