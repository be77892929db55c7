// A hostile event stream against the real, built client in a real terminal (issue 39,
// point 3): a relay in front of the real server (test/api/foreign-server.ts) passes every
// request on but GET /v1/events, which it answers with one of the shapes below, as fast as
// the client takes it. What the client costs is read from outside: its resident memory
// (ps), the requests it makes (the relay counts them), whether it answers a key.
import { execFileSync } from "node:child_process";
import type { ServerResponse } from "node:http";
import { createApi } from "../../src/api/client.ts";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { MAX_WAITING } from "../../src/ui/queries/event-batches.ts";
import { type ForeignServer, message, startForeignServer } from "../api/foreign-server.ts";
import { until } from "../wait.ts";
import { beat, CLI, type Pane, startPane } from "./tmux.ts";

/** Resident memory the client may reach under any shape, in MiB (it starts near 120). */
export const RSS_BOUND_MIB = 300;

/** Writes what `next` gives while the client takes it, until it gives nothing or the client goes. */
export async function pour(res: ServerResponse, next: () => string | undefined): Promise<void> {
  for (;;) {
    if (res.destroyed || res.writableEnded) return;
    const chunk = next();
    if (chunk === undefined) return;
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off("drain", done);
          res.off("close", done);
          resolve();
        };
        res.on("drain", done);
        res.on("close", done);
      });
    }
  }
}

export type Shape = (res: ServerResponse) => Promise<void>;

const KiB64 = "x".repeat(64 * 1024);

/** `data:` lines of 64 KiB, a comment between each two: an event that never ends. */
export const commentedDataLines: Shape = (res) => pour(res, () => `data: ${KiB64}\n: more\n`);

/** One line that never ends. */
export const endlessLine: Shape = async (res) => {
  res.write("data: ");
  await pour(res, () => KiB64);
};

/** How far a flood has gone: events written, and when the one past MAX_WAITING was. */
export type FloodProgress = { events: number; pastMaxWaitingAt?: number };

/** `count` valid message.created events for `conversationId`, then an open, quiet stream. */
export function messageFlood(
  conversationId: string,
  count: number,
  sent: FloodProgress = { events: 0 },
): Shape {
  return async (res) => {
    const at = Math.floor(Date.now() / 1000);
    let n = 0;
    await pour(res, () => {
      if (n >= count) return undefined;
      n++;
      sent.events++;
      if (n === MAX_WAITING + 1) sent.pastMaxWaitingAt = Date.now();
      const data = message(`msg_flood_${n}`, {
        conversation_id: conversationId,
        contact: { id: "ct_bob", username: "bob" },
        message: `flood ${n}`,
        created_at: at,
      });
      return `id: ${n}\nevent: message.created\ndata: ${JSON.stringify(data)}\n\n`;
    });
  };
}

/** `count` resets, evenly over `ms`, then an open, quiet stream. */
export function resets(count: number, ms: number): Shape {
  return async (res) => {
    const every = ms / count;
    for (let i = 0; i < count && !res.destroyed; i++) {
      res.write("event: reset\ndata: {}\n\n");
      await new Promise((resolve) => setTimeout(resolve, every));
    }
  };
}

export type Hostile = {
  real: RunningServer;
  relay: ForeignServer;
  pane: Pane;
  /** The conversation with bob, open on the client's screen once `openBob` has run. */
  bob: string;
  /** Streams the relay has answered so far. */
  streams(): number;
  /** The client's resident memory now, in MiB. */
  rssMiB(): number;
  /** The client's pid (node under the pane's shell). */
  pid: number;
  openBob(): Promise<void>;
  /** Opens the help and closes it again: the client answers keys. */
  answersKeys(what: string): Promise<void>;
  /**
   * `shape` answers GET /v1/events from now on (until then: an open, quiet stream); the
   * stream open now is cut, so the client's next one meets it.
   */
  stream(shape: Shape): void;
  close(): Promise<void>;
};

/** The real server, the relay, and the built client signed in as alice through the relay. */
export async function startHostile(): Promise<Hostile> {
  const real = await startServer({ port: 0, demo: true, demoReplies: false });
  const alice = real.demoUsers[0]!;
  const bob = (
    await createApi({ baseUrl: real.url, token: alice.token }).conversations.create({
      contact_id: "ct_bob",
    })
  ).id;
  let shape: Shape = async () => {};
  let streams = 0;
  const open = new Set<ServerResponse>();
  const relay = await startForeignServer((req, res) => {
    if (req.url.startsWith("/v1/events")) {
      streams++;
      open.add(res);
      res.once("close", () => open.delete(res));
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.flushHeaders();
      void shape(res).catch(() => res.destroy());
      return;
    }
    void (async () => {
      const reply = await fetch(real.url + req.url, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: req.method === "GET" || req.method === "HEAD" ? undefined : req.body,
      });
      const body = await reply.text();
      const headers: Record<string, string> = {};
      for (const name of ["content-type", "etag", "parley-server-id"]) {
        const value = reply.headers.get(name);
        if (value) headers[name] = value;
      }
      res.writeHead(reply.status, headers);
      res.end(body);
    })().catch(() => res.destroy());
  });
  const pane = startPane({
    command: `node ${JSON.stringify(CLI)}`,
    columns: 120,
    rows: 36,
    env: { PARLEY_BASE_URL: relay.url, PARLEY_TOKEN: alice.token },
  });
  await pane.waitFor((s) => s.includes("bob") && s.includes("│▸"), "the list", 30_000);
  const pid = await until(() => pane.nodePid(), "the client's pid");
  const selected = (screen: string) => screen.split("\n").find((l) => /^[│║]▸/.test(l)) ?? "";
  return {
    real,
    relay,
    pane,
    bob,
    pid,
    streams: () => streams,
    rssMiB: () =>
      Number(execFileSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" })) / 1024,
    async openBob() {
      for (let i = 0; i < 20 && !selected(pane.screen()).includes("bob"); i++) {
        const before = selected(pane.screen());
        pane.send("j");
        await pane.waitFor((s) => selected(s) !== before, "the cursor to move");
      }
      pane.send("Enter");
      await pane.waitFor((s) => s.includes("Message bob"), "the conversation with bob");
    },
    async answersKeys(what) {
      // Out of the composer first (an open conversation's), where `?` would be text.
      pane.send("Escape");
      await beat();
      pane.send("?");
      await pane.waitFor((s) => s.includes("parley keys"), `the help, ${what}`, 30_000);
      pane.send("Escape");
      await pane.waitFor((s) => !s.includes("parley keys"), `the help closed, ${what}`, 30_000);
    },
    stream(next) {
      shape = next;
      // The stream open now is cut: the client's next one meets the new shape.
      for (const res of open) res.destroy();
    },
    async close() {
      pane.kill();
      await relay.close();
      await real.close();
    },
  };
}

/** The most of `sample()` over `ms`, looked at every 250 ms. */
export async function peakOver(ms: number, sample: () => number): Promise<number> {
  let peak = sample();
  const end = Date.now() + ms;
  while (Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    try {
      peak = Math.max(peak, sample());
    } catch {
      // the process is gone: the peak so far stands
    }
  }
  return peak;
}
