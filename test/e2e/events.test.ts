// The event stream end to end: the built `parley serve` in a child process and two built
// clients in tmux, alice and bob. A message from bob shows on alice's screen while her
// client says "news: live" (polls paced at a minute then, so the stream brought it); the
// server restarted mid-session (same port, same database file) and the stream comes back,
// with nothing sent meanwhile missing. The foreign-server shapes (no events) poll as before:
// test/e2e/session.test.ts and test/ui/events.test.tsx.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApi } from "../../src/api/client.ts";
import { moveTo } from "../list-cursor.ts";
import { until } from "../wait.ts";
import { beat, CLI, e2eEachTest, hasTmux, type Pane, startPane } from "./tmux.ts";

type Serve = { child: ChildProcess; url: string; tokens: Record<string, string> };

const cleanups = e2eEachTest();

/** `parley serve` on `port` (0: a free one) over the database file `db`. */
async function serve(db: string, port = 0): Promise<Serve> {
  const child = spawn(
    process.execPath,
    [CLI, "serve", "--demo", "--no-demo-replies", "--port", String(port), "--db", db],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  cleanups.push(stop);
  let out = "";
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`parley serve exited (${code}): ${out}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const url = /export PARLEY_BASE_URL=(\S+)/.exec(out)?.[1];
      const tokens: Record<string, string> = {};
      for (const m of out.matchAll(/export PARLEY_TOKEN=(\S+)\s+# (\w+)/g)) tokens[m[2]!] = m[1]!;
      if (url && tokens.alice && tokens.bob) resolve({ child, url, tokens });
    });
  });
}

function client(server: Serve, user: string): Pane {
  const pane = startPane({
    command: `node ${JSON.stringify(CLI)}`,
    columns: 120,
    rows: 36,
    env: { PARLEY_BASE_URL: server.url, PARLEY_TOKEN: server.tokens[user]! },
  });
  cleanups.push(() => pane.kill());
  return pane;
}

async function open(p: Pane, name: string) {
  await p.waitFor((s) => s.includes(name) && s.includes("│▸"), `${name} in the list`, 30_000);
  await moveTo({ screen: p.screen, down: () => p.send("j"), waitFor: p.waitFor }, name);
  p.send("Enter");
  await p.waitFor((s) => s.includes(`Message ${name}`), `the conversation with ${name}`);
}

/** Opens the help, which shows the mode as it opens, until it says `news: <words>`. */
async function helpSays(p: Pane, words: string, timeoutMs = 15_000) {
  await until(
    async () => {
      p.send("Escape");
      await beat();
      p.send("?");
      const screen = await p.waitFor((s) => s.includes("parley keys"), "the help");
      p.send("q");
      await p.waitFor((s) => !s.includes("parley keys"), "the help closed");
      return screen.includes(`news: ${words}`);
    },
    `the help saying "news: ${words}"`,
    { timeoutMs, intervalMs: 300, detail: () => p.screen() },
  );
}

describe.skipIf(!hasTmux())("events end to end", () => {
  it("brings bob's message to alice live, and comes back after a server restart", async () => {
    const home = mkdtempSync(join(tmpdir(), "parley-events-e2e-"));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const db = join(home, "server.db");
    const first = await serve(db);
    const alice = client(first, "alice");
    const bob = client(first, "bob");
    await open(alice, "bob");
    await helpSays(alice, "live");
    await open(bob, "alice");
    bob.type("hello alice, live");
    bob.send("Enter");
    await alice.waitFor((s) => s.includes("hello alice, live"), "bob's message on alice's screen");

    // The server goes away and comes back on the same port with the same database.
    const port = Number(new URL(first.url).port);
    const stopped = new Promise((resolve) => first.child.once("exit", resolve));
    first.child.kill("SIGTERM");
    await stopped;
    await alice.waitFor((s) => !s.includes("● online"), "alice's client seeing the server gone");
    const second = await serve(db, port);
    // Sent at once, while alice's stream is still down (it reopens after its back-off).
    await createApi({ baseUrl: second.url, token: second.tokens.bob! }).messages.send({
      conversation_id: await conversationId(second, "bob", "alice"),
      message: "sent while the stream was down",
    });
    await alice.waitFor(
      (s) => s.includes("sent while the stream was down"),
      "the message sent while the stream was down",
      30_000,
    );
    await helpSays(alice, "live", 30_000);
    bob.type("and live again");
    bob.send("Enter");
    await alice.waitFor((s) => s.includes("and live again"), "the next message, live again");
    expect(alice.screen()).toContain("hello alice, live");
  }, 120_000);
});

describe.skipIf(!hasTmux())("a burst end to end", () => {
  it("keeps answering keys while 300 messages come, and catches up, listed and open", async () => {
    const home = mkdtempSync(join(tmpdir(), "parley-burst-e2e-"));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const server = await serve(join(home, "server.db"));
    const alice = client(server, "alice");
    const bob = createApi({ baseUrl: server.url, token: server.tokens.bob! });
    const withAlice = await conversationId(server, "bob", "alice");
    // Fifty at a time, which the server may take in any order; the 300th alone after them,
    // so it is the newest (in CI, "listed 250" was, and the pane never showed 299 at G).
    const burst = async (tag: string) => {
      for (let i = 0; i < 299; i += 50) {
        const sends = [];
        for (let n = i; n < Math.min(i + 50, 299); n++) {
          sends.push(bob.messages.send({ conversation_id: withAlice, message: `${tag} ${n}` }));
        }
        await Promise.all(sends);
      }
      await bob.messages.send({ conversation_id: withAlice, message: `${tag} 299` });
    };
    await alice.waitFor((s) => s.includes("bob") && s.includes("│▸"), "alice's list", 30_000);
    await helpSays(alice, "live");

    // The list shown: the help opens and closes while the burst comes; bob's row catches up.
    const listed = burst("listed");
    await alice.waitFor((s) => s.includes("listed "), "the burst begun in bob's row");
    alice.send("?");
    await alice.waitFor((s) => s.includes("parley keys"), "the help, during the burst");
    alice.send("q");
    await alice.waitFor((s) => !s.includes("parley keys"), "the help closed");
    await listed;
    await alice.waitFor((s) => s.includes("listed 299"), "bob's row caught up");

    // Bob's conversation open: the pane catches up, and what alice types shows. It opens
    // at the first of the 300 unread, and a pane left there stays there as news comes (the
    // reader is reading): G takes it to the newest, which it then follows.
    await open(alice, "bob");
    const inPane = (s: string, text: string) =>
      s.split("\n").some((line) => line.split("││")[1]?.includes(text));
    const statusBar = (s: string) => s.trimEnd().split("\n").at(-1) ?? "";
    await alice.waitFor((s) => inPane(s, "─ new ─"), "the pane at the first unread");
    // Each key once the last is taken: Esc and G in one read are Alt+G.
    alice.send("Escape");
    await alice.waitFor((s) => statusBar(s).includes("↑↓ select"), "the messages' keys");
    alice.send("G");
    await alice.waitFor((s) => inPane(s, "listed 299"), "the pane at its newest");
    alice.send("Tab");
    await alice.waitFor((s) => statusBar(s).includes("Enter send"), "the composer's keys");
    const opened = burst("opened");
    await alice.waitFor((s) => s.includes("opened "), "the burst begun in the pane");
    alice.type("typed during the burst");
    await alice.waitFor((s) => s.includes("typed during the burst"), "alice's keys");
    await opened;
    await alice.waitFor((s) => inPane(s, "opened 299"), "the pane caught up");
    // Still live: one more message comes as it is sent.
    await bob.messages.send({ conversation_id: withAlice, message: "after the burst" });
    await alice.waitFor((s) => inPane(s, "after the burst"), "the next message");
  }, 120_000);
});

async function conversationId(server: Serve, user: string, other: string): Promise<string> {
  const api = createApi({ baseUrl: server.url, token: server.tokens[user]! });
  return (await api.conversations.create({ contact_id: `ct_${other}` })).id;
}
