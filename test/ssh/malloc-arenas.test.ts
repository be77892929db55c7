// `parley ssh` asks glibc for few malloc arenas (src/ssh/malloc-arenas.ts): it starts
// itself again, in place, with MALLOC_ARENA_MAX set, unless it is set already.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MALLOC_ARENAS, withFewMallocArenas } from "../../src/ssh/malloc-arenas.ts";
import { built, startBuiltSsh } from "./built.ts";

const environOf = (pid: number) =>
  Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, "latin1")
      .split("\0")
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );

describe.skipIf(process.platform !== "linux")("parley ssh's malloc arenas", () => {
  it("starts again with MALLOC_ARENA_MAX, the same arguments and the rest of the environment", () => {
    const calls: [string, string[], NodeJS.ProcessEnv][] = [];
    withFewMallocArenas({ HOME: "/home/someone" }, (file, args, env) => {
      calls.push([file, args, env]);
    });
    expect(calls).toHaveLength(1);
    const [file, args, env] = calls[0]!;
    expect(file).toBe(process.execPath);
    expect(args).toEqual([process.execPath, ...process.execArgv, ...process.argv.slice(1)]);
    expect(env).toEqual({ HOME: "/home/someone", MALLOC_ARENA_MAX: MALLOC_ARENAS });
  });

  it("leaves a MALLOC_ARENA_MAX someone set alone", () => {
    let called = false;
    withFewMallocArenas({ MALLOC_ARENA_MAX: "8" }, () => {
      called = true;
    });
    expect(called).toBe(false);
  });

  it.skipIf(!built)("is set in the built server, which keeps its process id", async () => {
    const { MALLOC_ARENA_MAX: _, ...env } = process.env;
    const ssh = await startBuiltSsh(["--demo"], env);
    try {
      expect(environOf(ssh.child.pid!).MALLOC_ARENA_MAX).toBe(MALLOC_ARENAS);
    } finally {
      expect(await ssh.stop()).toBe(0);
    }
  });
});
