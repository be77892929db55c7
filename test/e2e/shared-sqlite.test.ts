// `parley serve` and `parley ssh` on one SQLite file, as docs/team.md allows: a message sent
// through the one reaches a client on the other through its event stream, not a poll a
// minute later. Built CLIs, an ssh2 client for bob, plain HTTP for alice.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { CLI } from "../built.ts";
import { built, connect, shell, startBuiltSsh } from "../ssh/built.ts";
import { until } from "../wait.ts";

const dir = mkdtempSync(join(tmpdir(), "parley-shared-"));
const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  rmSync(dir, { recursive: true, force: true });
});

async function serve(db: string) {
  const child = spawn(
    process.execPath,
    [CLI, "serve", "--demo", "--no-demo-replies", "--port", "0", "--db", db],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  stops.push(
    () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
      }),
  );
  const tokens: Record<string, string> = {};
  let url = "";
  for await (const line of createInterface({ input: child.stdout! })) {
    url ||= /^export PARLEY_BASE_URL=(\S+)/.exec(line)?.[1] ?? "";
    const token = /^export PARLEY_TOKEN=(\S+)\s+# (\w+)/.exec(line);
    if (token) tokens[token[2]!] = token[1]!;
    if (tokens.alice && tokens.bob) break;
  }
  return { url, tokens };
}

describe.skipIf(!built)("parley serve and parley ssh on one SQLite file", () => {
  it("bring a message sent through serve to a client on ssh at once", async () => {
    const db = join(dir, "team.db");
    const http = await serve(db);
    const ssh = await startBuiltSsh(["--demo", "shared", "--db", db]);
    stops.push(() => ssh.stop());
    const bob = await shell(await connect(ssh.port, "bob"));
    await bob.waitFor("online", "bob's list");
    // Live: polls are a minute apart once the stream is up, so only the stream is in time.
    await until(
      async () => {
        bob.channel.write("?");
        await until(() => bob.screen().includes("parley keys"), "the help");
        const live = bob.screen().includes("news: live");
        bob.channel.write("q");
        await until(() => !bob.screen().includes("parley keys"), "the help closed");
        return live;
      },
      "bob's client to say news: live",
      { intervalMs: 300 },
    );
    const headers = {
      authorization: `Bearer ${http.tokens.alice}`,
      "content-type": "application/json",
    };
    const withBob = (await (
      await fetch(`${http.url}/v1/conversations`, {
        method: "POST",
        headers,
        body: JSON.stringify({ contact_id: "ct_bob" }),
      })
    ).json()) as { id: string };
    const sent = await fetch(`${http.url}/v1/messages`, {
      method: "POST",
      headers,
      body: JSON.stringify({ conversation_id: withBob.id, message: "through serve, to ssh" }),
    });
    expect(sent.status).toBe(200);
    await until(
      () => bob.screen().includes("through serve, to ssh"),
      "the message on bob's screen",
      {
        timeoutMs: 10_000,
        detail: () => bob.screen(),
      },
    );
    bob.channel.close();
  }, 60_000);
});
