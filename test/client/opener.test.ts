// The platform's opener: an argument vector, never a shell; detached; its failure told;
// none over SSH.
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import {
  localOpener,
  openerCommand,
  platformOpener,
  spawnOpener,
} from "../../src/client/opener.ts";

type Call = { command: string; args: string[]; options: Record<string, unknown> };

function fakeLaunch(outcome: (child: EventEmitter) => void) {
  const calls: Call[] = [];
  const launch = (command: string, args: string[], options: object) => {
    calls.push({ command, args, options: options as Record<string, unknown> });
    const child = Object.assign(new EventEmitter(), { unref() {} });
    setImmediate(() => outcome(child));
    return child as never;
  };
  return { calls, launch };
}

describe("the opener", () => {
  it("runs the command with the URL as its one argument, detached, without a shell", async () => {
    const { calls, launch } = fakeLaunch((child) => child.emit("exit", 0, null));
    await spawnOpener("xdg-open", launch)("https://example.com/a?b=1&c=$(rm%20-rf%20~);`id`");
    expect(calls).toEqual([
      {
        command: "xdg-open",
        args: ["https://example.com/a?b=1&c=$(rm%20-rf%20~);`id`"],
        options: { detached: true, stdio: "ignore", shell: false },
      },
    ]);
  });

  it("fails with a reason when the command is missing or fails", async () => {
    const missing = fakeLaunch((child) =>
      child.emit("error", Object.assign(new Error("spawn xdg-open ENOENT"), { code: "ENOENT" })),
    );
    await expect(spawnOpener("xdg-open", missing.launch)("https://x.example/")).rejects.toThrow(
      "xdg-open is not installed",
    );
    const failing = fakeLaunch((child) => child.emit("exit", 4, null));
    await expect(spawnOpener("xdg-open", failing.launch)("https://x.example/")).rejects.toThrow(
      "the program xdg-open started failed",
    );
    const other = fakeLaunch((child) => child.emit("exit", 1, null));
    await expect(spawnOpener("open", other.launch)("https://x.example/")).rejects.toThrow(
      "open exited with 1",
    );
  });

  it("refuses anything but an http, https or mailto address", async () => {
    const { calls, launch } = fakeLaunch(() => {});
    for (const bad of [
      "javascript:alert(1)",
      "-e https://x",
      "https://x.example/\x1b",
      "file:///",
    ]) {
      await expect(spawnOpener("open", launch)(bad)).rejects.toThrow();
    }
    expect(calls).toEqual([]);
  });

  it("is the platform's own, and none over SSH", () => {
    expect(openerCommand("linux")).toBe("xdg-open");
    expect(openerCommand("darwin")).toBe("open");
    expect(openerCommand("aix")).toBeUndefined();
    expect(platformOpener({}, "linux")).toBeTypeOf("function");
    expect(platformOpener({ SSH_CONNECTION: "1.2.3.4 5 6.7.8.9 22" }, "linux")).toBeUndefined();
    const open = async () => {};
    expect(localOpener({}, open)).toBe(open);
    expect(localOpener({ SSH_CLIENT: "1.2.3.4 5 22" }, open)).toBeUndefined();
  });
});
