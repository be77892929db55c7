// Issue 40, trip 12, online: a filter whose own list the server refuses shows its rows from
// the lists the client holds (Muted is part of All), not the failure over rows the person
// can see under All.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { harnessEachTest } from "./harness.tsx";
import { sidebarNames } from "./helpers.ts";

const each = harnessEachTest();

/** Forwards to `target`, but answers 500 to the muted and archived lists (404 to events). */
async function refusingMuted(target: string): Promise<{ url: string; close: () => void }> {
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", target);
    const refused =
      url.searchParams.get("muted") === "true" || url.searchParams.get("archived") === "true";
    if (refused || url.pathname.endsWith("/events")) {
      const status = url.pathname.endsWith("/events") ? 404 : 500;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { type: "api_error", message: "refused here" } }));
      return;
    }
    try {
      await forward(req, res, url);
    } catch {
      // The server gone (the test over, polls still coming): what a gateway says then.
      if (!res.headersSent) res.writeHead(502);
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as import("node:net").AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

async function forward(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const answer = await fetch(url, {
    method: req.method,
    headers: Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => k !== "host" && k !== "connection"),
    ) as Record<string, string>,
    body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
  });
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, key) => {
    if (key !== "content-encoding" && key !== "transfer-encoding") headers[key] = value;
  });
  res.writeHead(answer.status, headers);
  res.end(Buffer.from(await answer.arrayBuffer()));
}

describe("a filter's own list refused", () => {
  it("shows Muted from All, and says Archived is not loaded yet", async () => {
    const h0 = await each.start();
    const forwarder = await refusingMuted(h0.server.url);
    each.afterTest(forwarder.close);
    const h = await each.start({ server: h0.server, baseUrl: forwarder.url });
    await h.waitFor((s) => sidebarNames(s).includes("#lunch"), "All");
    await h.press("3");
    const muted = await h.waitFor(
      (s) => sidebarNames(s).includes("#lunch") && !sidebarNames(s).includes("#team"),
      "Muted, from All",
    );
    expect(sidebarNames(muted)).toEqual(["#lunch", "#random"]);
    expect(muted).not.toContain("loading…");
    // The failure is the status bar's to say, not the list's over rows it has.
    const list = muted
      .trimEnd()
      .split("\n")
      .slice(0, -1)
      .map((line) => line.split("││")[0] ?? "")
      .join("\n");
    expect(list).not.toContain("refused here");
    // Said in the status bar (once the refusal, retried, is the list's answer).
    const said = await h.waitFor(
      (s) => s.trimEnd().split("\n").at(-1)?.includes("refused here") === true,
      "the refusal in the status bar",
    );
    expect(sidebarNames(said)).toEqual(["#lunch", "#random"]);

    // Archived is not in All, and none is held: said so, not the failure, not loading.
    await h.press("4");
    const archived = await h.waitFor((s) => s.includes("not loaded yet"), "Archived");
    expect(sidebarNames(archived)).toEqual([]);
    expect(archived).not.toContain("loading…");
  });
});
