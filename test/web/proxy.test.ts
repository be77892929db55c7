// `parley web` behind a reverse proxy (--trust-proxy): over real WebSocket connections from
// this machine (127.0.0.1, the "proxy"), each naming a visitor in X-Forwarded-For. The
// per-address cap and the log follow the forwarded address only when the connection
// comes from a trusted proxy, and only its right-most untrusted entry.
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { startWebServer, type WebServer } from "../../src/web/server.ts";
import { until } from "../wait.ts";
import { hello, openVisit, type Visit } from "./visit.ts";

const PAGE = new URL("../../src/web/page/", import.meta.url);
const CLI = new URL("../../src/cli.ts", import.meta.url).pathname;

/** A session through the "proxy" for `forwardedFor`; resolves once it is drawn or ended. */
async function visit(web: WebServer, forwardedFor: string): Promise<Visit> {
  const v = openVisit(web, undefined, { "x-forwarded-for": forwardedFor });
  await hello(v);
  await until(
    () => v.bytes() > 0 || v.socket.readyState === WebSocket.CLOSED,
    "a frame or the end",
  );
  return v;
}

async function leave(web: WebServer, visits: Visit[]): Promise<void> {
  for (const v of visits) v.socket.close();
  await until(() => web.liveSessions() === 0, "everyone gone");
}

describe("parley web behind a reverse proxy", () => {
  let api: RunningServer;
  const log: string[] = [];
  const servers: WebServer[] = [];
  const start = async (trustProxy?: string[]) => {
    const web = await startWebServer({
      assets: PAGE,
      access: { kind: "demo", url: api.url, users: api.demoUsers },
      maxSessionsPerAddress: 1,
      maxConnectionsPerAddress: 2,
      log: (line) => log.push(line),
      ...(trustProxy ? { trustProxy } : {}),
    });
    servers.push(web);
    return web;
  };

  beforeAll(async () => {
    api = await startServer({ demo: true, demoReplies: false });
  }, 30_000);

  afterAll(async () => {
    for (const web of servers) await web.close();
    await api?.close();
  });

  it("counts each forwarded visitor on their own, and logs their address", async () => {
    const web = await start(["127.0.0.1", "10.0.0.0/8"]);
    // Three visitors through the proxy: past its 2 connections per address, and each
    // within their own cap of 1 session.
    const first = await visit(web, "203.0.113.7");
    const second = await visit(web, "203.0.113.8");
    const third = await visit(web, "198.51.100.1, 203.0.113.9, 10.0.0.5");
    expect([first, second, third].map((v) => v.bytes() > 0)).toEqual([true, true, true]);
    expect(log.join("\n")).toMatch(/: \w+ \(203\.0\.113\.9 via 127\.0\.0\.1\) signed in/);
    // The first visitor again, whatever they put in front of their address: refused.
    const again = await visit(web, "192.0.2.1, 203.0.113.7");
    expect(again.said.at(-1)).toEqual({
      type: "end",
      notes: ["parley: 1 sessions from your address are open already; close one first."],
    });
    expect(log.join("\n")).toMatch(/refused 203\.0\.113\.7 via 127\.0\.0\.1/);
    await leave(web, [first, second, third]);
  }, 60_000);

  it("reads no X-Forwarded-For from a connection that is not a trusted proxy's", async () => {
    for (const trust of [undefined, ["10.0.0.1"]]) {
      const web = await start(trust);
      const first = await visit(web, "203.0.113.7");
      expect(first.bytes()).toBeGreaterThan(0);
      // Another forwarded address from the same untrusted peer is still that peer.
      const second = await visit(web, "203.0.113.8");
      expect(second.said.at(-1)).toEqual({
        type: "end",
        notes: ["parley: 1 sessions from your address are open already; close one first."],
      });
      await leave(web, [first]);
    }
  }, 60_000);

  it("takes addresses and ranges on the command line, and says which one is not", () => {
    const run = spawnSync(
      process.execPath,
      [
        CLI,
        "web",
        "--port",
        "0",
        "--trust-proxy",
        "127.0.0.1,10.0.0.0/8",
        "--trust-proxy",
        "proxy.local",
      ],
      { encoding: "utf8", timeout: 20_000 },
    );
    expect({ status: run.status, stderr: run.stderr }).toEqual({
      status: 2,
      stderr:
        'parley: --trust-proxy takes IP addresses or ranges (127.0.0.1, 10.0.0.0/8, ::1), not "proxy.local".\nTry "parley web --help".\n',
    });
  });
});
