// A long session of the real built client in tmux (120x40), as a person leaves it open:
// alice reads a conversation and types now and then, bob and carol write into their 1:1s
// with her and three groups at irregular intervals, and the link to the server goes away
// twice. Every message from them must reach the sidebar (preview, and an unread count
// unless it is the open conversation) within two list periods, and the open conversation
// within two of its periods; what is sent during an outage, within 10 s of the return.
// Every line alice typed reaches the server exactly once, in order. See session.ts for
// the script and its rules.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createApi } from "../../src/api/client.ts";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { pause } from "../wait.ts";
import { startForeignRelay } from "./foreign-relay.ts";
import { type CutMode, startProxy } from "./proxy.ts";
import { openConversation, sidebarRow } from "./screen.ts";
import {
  ALLOWANCE_MS,
  conversationWith,
  type Link,
  messagesOf,
  openByName,
  type Person,
  type Plan,
  runSession,
  type SessionLog,
  stats,
  Watcher,
} from "./session.ts";
import { CLI, hasTmux, needsBuild, type Pane, startPane } from "./tmux.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) {
    try {
      await fn();
    } catch {
      // keep cleaning
    }
  }
});

needsBuild();

/** Where bob and carol write, by the names alice's sidebar shows. */
const WRITES: Record<"bob" | "carol", string[]> = {
  bob: ["bob", "#design", "#launch", "#team"],
  carol: ["carol", "#design", "#launch", "#team"],
};

/** Bob and carol over HTTP, straight to the server (their link is not the one cut). */
async function people(server: RunningServer): Promise<Person[]> {
  const result: Person[] = [];
  for (const name of ["bob", "carol"] as const) {
    const user = server.demoUsers.find((u) => u.username === name)!;
    const api = createApi({ baseUrl: server.url, token: user.token });
    const conversations = new Map<string, string>();
    for (const shown of WRITES[name]) {
      // alice's row "bob" is bob's conversation with alice.
      const c = await conversationWith(api, shown === name ? "alice" : shown);
      conversations.set(shown, c.id);
    }
    result.push({ name, api, conversations });
  }
  return result;
}

/** The client in tmux on `baseUrl` as alice, with fresh XDG folders; `open` opened. */
async function startClient(baseUrl: string, token: string, open: string) {
  const home = mkdtempSync(join(tmpdir(), "parley-session-"));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const pane: Pane = startPane({
    command: `node ${JSON.stringify(CLI)}; printf 'CODE=%s\\n' $?`,
    columns: 120,
    rows: 40,
    home,
    env: {
      PARLEY_BASE_URL: baseUrl,
      PARLEY_TOKEN: token,
      XDG_CACHE_HOME: join(home, "cache"),
    },
  });
  cleanups.push(() => pane.kill());
  const watcher = new Watcher(pane);
  watcher.start();
  cleanups.push(() => watcher.stop());
  await watcher.waitFor(
    (s) => s.includes("● online") && sidebarRow(s, open) !== undefined && s.includes("Enter open"),
    "the conversation list",
    30_000,
  );
  await openByName(pane, watcher, open);
  return { pane, watcher };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Asserts the session's outcome and prints its numbers: every expectation met; every line
 * alice typed on the server exactly once, in order, the queued ones soon after the return;
 * nothing left pending or failed on her screen.
 */
async function verify(watcher: Watcher, log: SessionLog, alice: ReturnType<typeof createApi>) {
  const at = (t: number) => `+${seconds(t - log.startedAt)}`;
  // What she sent must leave the pane's pending state once the server is back.
  await watcher
    .waitFor(
      (s) => !openConversation(s).lines.some((l) => l.includes("sending…")),
      "no line of alice's left sending",
      30_000,
    )
    .catch(() => {});
  await watcher.settled();

  const misses = watcher.expectations
    .filter((e) => e.seenAt === undefined)
    .map(
      (e) =>
        `${e.kind === "list" ? "sidebar" : "open pane"}: ${e.text} in ${e.conversation} sent ${at(e.sentAt)}` +
        `${e.duringOutage ? " during an outage" : ""}${e.open ? " (open)" : ""}, due ${at(watcher.deadline(e))}; ` +
        `row then: ${JSON.stringify(e.rowAtDeadline)}\n${e.missed}`,
    );

  // Exactly once each, in the order typed, and the queued ones out within the recovery time.
  const problems = [...log.problems];
  /** How long after the return each queued line was on the server (created_at, whole seconds). */
  const queuedOut: string[] = [];
  const conversations = [...new Set(log.sends.map((s) => s.conversation))];
  for (const name of conversations) {
    const conversation = await conversationWith(alice, name);
    const onServer = await messagesOf(alice, conversation.id);
    const mine = log.sends.filter((s) => s.conversation === name);
    for (const send of mine) {
      const copies = onServer.filter((m) => m.message === send.text);
      if (copies.length !== 1)
        problems.push(
          `${send.text} (sent ${at(send.sentAt)}) is on the server ${copies.length} times`,
        );
      const outage = watcher.cutAt(send.sentAt);
      const created = copies[0]?.created_at;
      if (outage?.end !== undefined && created !== undefined) {
        const late = created * 1000 - outage.end;
        // created_at is whole seconds: a second's grace.
        queuedOut.push(`${send.text} ${seconds(late)}`);
        if (late > 10_000 + ALLOWANCE_MS + 1_000)
          problems.push(
            `${send.text}, queued in an outage, reached the server ${seconds(late)} after the return`,
          );
      }
    }
    const order = onServer.map((m) => m.message).filter((t) => mine.some((s) => s.text === t));
    const typed = mine.map((s) => s.text).filter((t) => order.includes(t));
    if (order.join() !== typed.join())
      problems.push(`in ${name}, on the server ${order} but typed ${typed}`);
  }
  const screen = watcher.screen;
  if (screen.includes("not sent")) problems.push(`a send failed on screen:\n${screen}`);
  if (openConversation(screen).lines.some((l) => l.includes("sending…")))
    problems.push(`still sending at the end:\n${screen}`);

  // The report: latencies per kind, from the send (or from the return, for outage ones).
  const latency = (kind: string, afterReturn: boolean) =>
    stats(
      watcher.expectations
        .filter(
          (e) =>
            e.seenAt !== undefined &&
            e.kind === kind &&
            (watcher.baseline(e) !== e.sentAt) === afterReturn,
        )
        .map((e) => e.seenAt! - watcher.baseline(e)),
    );
  const queued = log.sends.filter((s) => s.duringOutage).map((s) => s.text);
  console.log(
    [
      `session: ${seconds(Date.now() - log.startedAt)}, ${watcher.expectations.filter((e) => e.kind === "list").length} messages from others, ${log.sends.length} from alice (queued in outages: ${queued.join(" ") || "none"})`,
      `outages: ${watcher.outages.map((o) => `${at(o.start)}–${at(o.end ?? Number.NaN)}`).join(", ")}`,
      `connection seen: ${watcher.connection.map((c) => `${at(c.at)} ${c.state}`).join(", ")}`,
      `sidebar, server up:      ${JSON.stringify(latency("list", false))}`,
      `sidebar, after a return: ${JSON.stringify(latency("list", true))}`,
      `open pane, server up:    ${JSON.stringify(latency("open", false))}`,
      `open pane, after return: ${JSON.stringify(latency("open", true))}`,
      `alice's queued lines on the server after the return: ${queuedOut.join(", ")}`,
      `captures that failed: ${watcher.failedCaptures}`,
    ].join("\n"),
  );
  expect(misses).toEqual([]);
  expect(problems).toEqual([]);
  // The script really did what it says: messages in and out of outages, sends queued.
  expect(watcher.expectations.filter((e) => e.duringOutage).length).toBeGreaterThan(0);
  expect(queued.length).toBeGreaterThanOrEqual(watcher.outages.length);
}

describe.skipIf(!hasTmux())("a long session in a real terminal", () => {
  it("keeps every conversation live through two outages and sends each line once", async () => {
    const server = await startServer({ port: 0, demo: true, demoReplies: false });
    cleanups.push(() => server.close());
    const proxy = await startProxy({ target: server.url });
    cleanups.push(() => proxy.close());
    const alice = server.demoUsers.find((u) => u.username === "alice")!;
    const others = await people(server);
    const { pane, watcher } = await startClient(proxy.url, alice.token, "bob");
    // The first outage refuses connections (the server is down), the second swallows
    // every byte (a dead link: requests time out).
    const modes: CutMode[] = ["refuse", "hang"];
    let cuts = 0;
    const link: Link = {
      cut: () => proxy.cut(modes[cuts++ % modes.length]),
      restore: () => proxy.restore(),
    };
    const plan: Plan = {
      durationMs: 200_000,
      cuts: [
        { at: 40_000, forMs: 18_000 },
        { at: 125_000, forMs: 18_000 },
      ],
      // About every 20 s: two in the first outage (queued, in order), one in the second.
      aliceSends: [
        9_000, 29_000, 45_000, 53_000, 72_000, 93_000, 112_000, 128_000, 150_000, 170_000, 191_000,
      ],
      // The second one in the outage, after her queued line there: what bob writes into
      // the conversation she opens then must show in its pane soon after the return.
      switches: [
        { at: 80_000, to: "#design" },
        { at: 133_000, to: "bob" },
        { at: 160_000, to: "carol" },
      ],
      intervalMs: [3_000, 10_000],
    };
    const log = await runSession({ pane, watcher, link, people: others, plan, open: "bob" });
    await verify(watcher, log, createApi({ baseUrl: server.url, token: alice.token }));
  }, 360_000);

  it("stays live through the outage of a foreign server, and its lost answer to a send", async () => {
    // The same client on the same real server, seen through a relay with another server's
    // legal choices (foreign-relay.ts): millisecond timestamps, its own unordered ids,
    // unknown fields, a gateway's HTML 502s while the server is gone, and then a send
    // carried out whose answer the gateway loses (504).
    const server = await startServer({ port: 0, demo: true, demoReplies: false });
    cleanups.push(() => server.close());
    const relay = await startForeignRelay(server.url);
    cleanups.push(() => relay.close());
    const alice = server.demoUsers.find((u) => u.username === "alice")!;
    const others = await people(server);
    const { pane, watcher } = await startClient(relay.url, alice.token, "bob");
    const link: Link = {
      cut: async () => {
        relay.down = true;
      },
      restore: async () => {
        relay.loseNextSendAnswer = true;
        relay.down = false;
      },
    };
    const plan: Plan = {
      durationMs: 70_000,
      cuts: [{ at: 25_000, forMs: 18_000 }],
      // Two lines queued in the outage, then carol's conversation opened from what the
      // client kept: what carol writes there meanwhile must show soon after the return.
      aliceSends: [8_000, 20_000, 29_000, 33_000, 55_000, 66_000],
      switches: [{ at: 36_000, to: "carol" }],
      intervalMs: [3_000, 10_000],
    };
    const log = await runSession({ pane, watcher, link, people: others, plan, open: "bob" });
    await verify(watcher, log, createApi({ baseUrl: server.url, token: alice.token }));
    // The lost answer was to one of the queued sends, and the client asked again with its key.
    const lost = relay.sends.findIndex((s) => s.lost);
    expect(lost).toBeGreaterThanOrEqual(0);
    expect(relay.sends.slice(lost + 1).map((s) => s.key)).toContain(relay.sends[lost]!.key);
  }, 240_000);

  // A bug this file found: a row's preview was fetched again only when the conversation's
  // last_active_at changed, which counts whole seconds, so a second message in the same
  // second as one the row showed never reached the row (nor its unread count). The
  // preview's key now also holds the newest message the inbox saw there. A second that
  // cannot be hit (five tries) ends the test without an error.
  it("shows a message that came in the same second as the one the row shows", async () => {
    const server = await startServer({ port: 0, demo: true, demoReplies: false });
    cleanups.push(() => server.close());
    const alice = server.demoUsers.find((u) => u.username === "alice")!;
    const [bob] = await people(server);
    const { pane, watcher } = await startClient(server.url, alice.token, "carol");
    const design = bob!.conversations.get("#design")!;
    for (let attempt = 1; ; attempt++) {
      // At the start of a second: the first message, and Ctrl+R so that the row shows it
      // at once, then the second one while the server's clock is still in that second.
      await pause(1000 - (Date.now() % 1000) + 20);
      const first = await bob!.api.messages.send({
        conversation_id: design,
        message: `first-${attempt}`,
      });
      pane.send("C-r");
      const shown = await watcher
        .waitFor(
          (s) => sidebarRow(s, "#design")?.preview === `bob: first-${attempt}`,
          "the first",
          900,
        )
        .then(
          () => true,
          () => false,
        );
      const text = `second-${attempt}`;
      const sentAt = Date.now();
      const second = shown
        ? await bob!.api.messages.send({ conversation_id: design, message: text })
        : undefined;
      if (second?.created_at !== first.created_at) {
        if (attempt >= 5) {
          console.log("could not send two messages within one second: nothing tested");
          return;
        }
        await pause(1000);
        continue;
      }
      watcher.expect({
        kind: "list",
        text,
        sender: "bob",
        conversation: "#design",
        open: false,
        sentAt,
      });
      await watcher.settled();
      const [e] = watcher.expectations;
      expect(
        e?.seenAt,
        `the row at the deadline: ${JSON.stringify(e?.rowAtDeadline)}`,
      ).toBeDefined();
      return;
    }
  }, 90_000);
});
