// `parley web` as it faces the internet, spoken to by a WebSocket client as a hostile page
// or script would: another site's origin, a first message that is not a hello, a message
// past the bound, too many visitors from one address, a wrong token, an idle visitor.
// The server and its sessions run in this process (src/web/server.ts, from source).
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoWorlds } from "../../src/server/demo/worlds.ts";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { MAX_MESSAGE_BYTES, startWebServer, type WebServer } from "../../src/web/server.ts";
import { until } from "../wait.ts";
import { hello, openVisit } from "./visit.ts";

const PAGE = new URL("../../src/web/page/", import.meta.url);

describe("parley web, to a hostile visitor", () => {
  let api: RunningServer;
  let web: WebServer;
  let tokenWeb: WebServer;
  const log: string[] = [];

  beforeAll(async () => {
    api = await startServer({ demo: true, demoReplies: false });
    web = await startWebServer({
      assets: PAGE,
      access: { kind: "demo", url: api.url, users: api.demoUsers },
      maxSessionsPerAddress: 2,
      log: (line) => log.push(line),
    });
    tokenWeb = await startWebServer({
      assets: PAGE,
      access: { kind: "token", url: api.url },
      log: (line) => log.push(line),
    });
  }, 30_000);

  afterAll(async () => {
    await web?.close();
    await tokenWeb?.close();
    await api?.close();
  });

  /** A web server on which each visitor gets a demo world of their own. */
  const withWorlds = async (options: { idleMs?: number } = {}) => {
    const worlds = demoWorlds({ start: startServer, log: (line) => log.push(line) });
    const own = await startWebServer({
      assets: PAGE,
      access: { kind: "demo", url: api.url, users: api.demoUsers, world: worlds.enter },
      ...options,
    });
    const close = async () => {
      await own.close();
      await worlds.close();
    };
    return { worlds, web: own, close };
  };
  /** Two visitors, each with a first frame drawn. */
  const twoDrawn = async (on: WebServer) => {
    const visits = [openVisit(on), openVisit(on)];
    for (const visit of visits) await hello(visit);
    await until(() => visits.every((v) => v.bytes() > 0), "two first frames");
    return visits;
  };

  it("serves its page with a strict policy, and nothing but its files", async () => {
    const page = await fetch(`http://127.0.0.1:${web.port}/`);
    expect(page.headers.get("content-security-policy")).toMatch(
      /default-src 'none'.*frame-ancestors 'none'/,
    );
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await page.text();
    expect(html).toContain('data-mode="demo"');
    expect(html).not.toMatch(/https?:\/\/(?!127)/);
    for (const file of ["page.js", "xterm.mjs", "xterm.css", "addon-fit.mjs"]) {
      expect((await fetch(`http://127.0.0.1:${web.port}/${file}`)).status, file).toBe(200);
    }
    for (const path of ["/../package.json", "/%2e%2e/package.json", "/server.ts", "/web/main.ts"]) {
      expect((await fetch(`http://127.0.0.1:${web.port}${path}`)).status, path).toBe(404);
    }
    expect((await fetch(`http://127.0.0.1:${web.port}/`, { method: "POST" })).status).toBe(405);
    const form = await (await fetch(`http://127.0.0.1:${tokenWeb.port}/`)).text();
    expect(form).toContain('data-mode="token"');
  });

  it("refuses a WebSocket from another site's page, or from none", async () => {
    for (const origin of ["https://evil.example", "null"]) {
      const visit = openVisit(web, origin);
      const [error] = (await once(visit.socket, "unexpected-response").then(
        ([, response]) => [response.statusCode],
        () => [0],
      )) as [number];
      expect(error, origin).toBe(403);
      visit.socket.terminate();
    }
    await until(
      () => log.some((l) => l.includes("origin https://evil.example is not this page's")),
      "logged",
    );
  });

  it("ends a session whose first message is not a hello, and one past the size bound", async () => {
    const wrong = openVisit(web);
    await once(wrong.socket, "open");
    wrong.socket.send("\x1b]0;owned\x07 not json");
    expect(await wrong.closed).toBe(1002);
    expect(wrong.said[0]).toMatchObject({ type: "end" });

    const big = openVisit(web);
    await hello(big);
    await until(() => big.bytes() > 0, "the first frame");
    big.socket.send(Buffer.alloc(MAX_MESSAGE_BYTES + 1, 0x61));
    expect(await big.closed).toBe(1009);
    // Nothing the visitor sent reaches the log as it was.
    expect(log.join("\n")).not.toContain("\x1b");
  }, 30_000);

  it("lets 2 visitors in from one address, and tells the third politely", async () => {
    const visits = await twoDrawn(web);
    const third = openVisit(web);
    await hello(third);
    expect(await third.closed).toBe(1013);
    expect(third.said[0]).toEqual({
      type: "end",
      notes: ["parley: 2 sessions from your address are open already; close one first."],
    });
    for (const visit of visits) visit.socket.close();
    await Promise.all(visits.map((v) => v.closed));
    await until(() => web.liveSessions() === 0, "the sessions gone");
  }, 30_000);

  it("gives each visitor a world that ends with them", async () => {
    const { worlds, web: own, close } = await withWorlds();
    const visits = await twoDrawn(own);
    expect(worlds.size()).toBe(2);
    visits[0]!.socket.close();
    await until(() => worlds.size() === 1, "the world of the one who left gone");
    visits[1]!.socket.close();
    await until(() => worlds.size() === 0, "the other world gone");
    await close();
  }, 30_000);

  it("ends a session nobody types in, and its world, saying why", async () => {
    const { worlds, web: idle, close } = await withWorlds({ idleMs: 1500 });
    const visit = openVisit(idle);
    await hello(visit);
    expect(await visit.closed).toBe(1000);
    expect(visit.said.at(-1)).toMatchObject({
      type: "end",
      notes: [expect.stringContaining("nothing was typed for 2 s")],
    });
    await until(() => worlds.size() === 0, "the idle visitor's world gone");
    await close();
  }, 30_000);

  it("signs in with a token sent in the first message, and says so when it does not", async () => {
    const wrong = openVisit(tokenWeb);
    await hello(wrong, { token: "not-a-token-of-anyone" });
    expect(await wrong.closed).toBe(1008);
    expect(wrong.said).toEqual([{ type: "signin", message: "That token does not sign in here." }]);

    const bob = api.demoUsers.find((u) => u.username === "bob")!;
    const right = openVisit(tokenWeb);
    await hello(right, { token: bob.token });
    await until(() => right.bytes() > 0, "bob's first frame");
    await until(
      () => log.some((l) => /parley web: bob \(.*\) signed in with a token/.test(l)),
      "bob signed in",
    );
    // The token itself is in no log line.
    expect(log.join("\n")).not.toContain(bob.token);
    right.socket.close();
    await right.closed;
  }, 30_000);
});
