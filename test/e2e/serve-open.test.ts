// The built `parley serve` in the open, as an operator runs it: its connection caps from
// the command line, and wrong tokens in its log (stderr), one line each with the address.
// The caps, timeouts and slow-down in detail: test/server/open.test.ts.
import { type ChildProcess, spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { until } from "../wait.ts";
import { CLI } from "./tmux.ts";

const stderr: string[] = [];
let url = "";
let port = 0;
let child: ChildProcess;

beforeAll(async () => {
  child = spawn(
    process.execPath,
    [CLI, "serve", "--demo", "--no-demo-replies", "--port", "0", "--db", ":memory:"].concat([
      "--max-connections-per-address",
      "2",
    ]),
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  createInterface({ input: child.stderr! }).on("line", (line) => stderr.push(line));
  for await (const line of createInterface({ input: child.stdout! })) {
    const match = /^export PARLEY_BASE_URL=(\S+:(\d+))$/.exec(line);
    if (match) {
      url = match[1]!;
      port = Number(match[2]);
      break;
    }
  }
  expect(port).toBeGreaterThan(0);
});

afterAll(async () => {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
});

function open(): Promise<{ socket: Socket; closed: () => boolean }> {
  return new Promise((resolve) => {
    let closed = false;
    const socket = connect({ host: "127.0.0.1", port }, () =>
      resolve({ socket, closed: () => closed }),
    );
    socket.on("error", () => {});
    socket.on("close", () => {
      closed = true;
    });
  });
}

describe("parley serve in the open", () => {
  it("closes a third connection from one address with --max-connections-per-address 2", async () => {
    const held = [await open(), await open()];
    const third = await open();
    await until(() => third.closed(), "the third connection closed", {
      detail: () => stderr.join("\n"),
    });
    // Each log line starts with its time and level.
    expect(stderr).toContainEqual(
      expect.stringMatching(
        /^\S+Z +\w+ parley serve: refused a connection from 127\.0\.0\.1: 2 connections from this address$/,
      ),
    );
    expect(held.some((h) => h.closed())).toBe(false);
    for (const h of held) h.socket.destroy();
    await until(() => held.every((h) => h.closed()), "the two closed");
  });

  it("logs a wrong token with the address it came from", async () => {
    const reply = await until(async () => {
      try {
        return await fetch(`${url}/v1/conversations`, {
          headers: { authorization: "Bearer prly_guessed", connection: "close" },
        });
      } catch {
        return undefined;
      }
    }, "an answer once the closed connections are counted out");
    expect(reply.status).toBe(401);
    await until(
      () =>
        stderr.some((line) =>
          line.endsWith("parley serve: authentication failed from 127.0.0.1: unknown token"),
        ),
      "the failure in the log",
      { detail: () => stderr.join("\n") },
    );
  });
});
