// The platform's opener: an argument vector, never a shell; detached; its failure told;
// none over SSH.
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import {
  browserCommands,
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

  it("tries $BROWSER's commands first, in order, then the platform's opener", async () => {
    // firefox is missing, the next one fails, xdg-open opens it.
    const { calls, launch } = fakeLaunch((child) => {
      const command = calls.at(-1)!.command;
      if (command === "firefox")
        child.emit("error", Object.assign(new Error("ENOENT"), { code: "ENOENT" }));
      else child.emit("exit", command === "xdg-open" ? 0 : 1, null);
    });
    const env = { BROWSER: "firefox --new-window:my-browser --url=%s --x 'a b'" };
    const open = platformOpener(env, "linux", launch)!;
    await open("https://example.com/a?b=$(id)");
    expect(calls.map((c) => [c.command, ...c.args])).toEqual([
      ["firefox", "--new-window", "https://example.com/a?b=$(id)"],
      ["my-browser", "--url=https://example.com/a?b=$(id)", "--x", "a b"],
      ["xdg-open", "https://example.com/a?b=$(id)"],
    ]);
    for (const call of calls) expect(call.options).toMatchObject({ shell: false, detached: true });
  });

  it("stops at the first that opens, and fails with every reason when none does", async () => {
    const opened = fakeLaunch((child) => child.emit("exit", 0, null));
    await platformOpener({ BROWSER: "w3m-ish" }, "linux", opened.launch)!("https://x.example/");
    expect(opened.calls.map((c) => c.command)).toEqual(["w3m-ish"]);

    const none = fakeLaunch((child) =>
      child.emit("error", Object.assign(new Error("ENOENT"), { code: "ENOENT" })),
    );
    await expect(
      platformOpener({ BROWSER: "firefox" }, "linux", none.launch)!("https://x.example/"),
    ).rejects.toThrow("firefox is not installed; xdg-open is not installed");
    // Where the platform has no opener, $BROWSER alone is one.
    expect(platformOpener({}, "aix")).toBeUndefined();
    expect(platformOpener({ BROWSER: "firefox" }, "aix")).toBeTypeOf("function");
  });

  it("reads $BROWSER as a list of commands split as a shell would, nothing else", () => {
    expect(browserCommands({})).toEqual([]);
    expect(browserCommands({ BROWSER: "" })).toEqual([]);
    expect(browserCommands({ BROWSER: 'a:: b  c :\'unterminated:"d e" $HOME' })).toEqual([
      ["a"],
      ["b", "c"],
      ["d e", "$HOME"],
    ]);
  });

  it("is the platform's own, and none over SSH", () => {
    expect(openerCommand("linux")).toBe("xdg-open");
    expect(openerCommand("darwin")).toBe("open");
    expect(openerCommand("aix")).toBeUndefined();
    expect(platformOpener({}, "linux")).toBeTypeOf("function");
    expect(platformOpener({ SSH_CONNECTION: "1.2.3.4 5 6.7.8.9 22" }, "linux")).toBeUndefined();
    expect(
      platformOpener({ SSH_CONNECTION: "1.2.3.4 5 6.7.8.9 22", BROWSER: "firefox" }, "linux"),
    ).toBeUndefined();
    const open = async () => {};
    expect(localOpener({}, open)).toBe(open);
    expect(localOpener({ SSH_CLIENT: "1.2.3.4 5 22" }, open)).toBeUndefined();
  });
});
