// Adding attachments: /attach and /detach in the composer, the commands' other rules (//,
// unknown ones, refused URLs), and A on a message, each checked on screen and in what the
// embedded server stored.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { Api } from "../../src/api/client.ts";
import { harnessEachTest, KEYS } from "./harness.tsx";
import {
  apiFor,
  conversationWith,
  enterLine,
  newestMessage,
  openFirst,
  refusedAttach,
} from "./helpers.ts";

const each = harnessEachTest();

/**
 * Forwards every request to `target`, but the first PUT's answer never comes back: the
 * server has done it, the client sees the connection drop.
 */
async function answerLostOnce(target: string): Promise<string> {
  let lost = false;
  const proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let upstream: Response;
    let body: Buffer;
    try {
      upstream = await fetch(new URL(req.url ?? "/", target), {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
      });
      // The event stream's body ends only when the server closes: then it fails here.
      body = Buffer.from(await upstream.arrayBuffer());
    } catch {
      res.destroy();
      return;
    }
    if (req.method === "PUT" && !lost) {
      lost = true;
      res.destroy();
      return;
    }
    res.writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "" });
    res.end(body);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  each.afterTest(() => new Promise((resolve) => proxy.close(resolve)));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

const newest = async (api: Api, name: string) => (await newestMessage(api, name))!;

/** Types a line into the composer and presses Enter. */
const sent = (text: string) => (s: string) =>
  new RegExp(`you · \\d\\d:\\d\\d[^\\n]*\\n[^\\n]*${text}`).test(s) && !s.includes("sending…");

/** alice's client with her conversation with bob open, and her API. */
async function withBob() {
  const harness = await each.start();
  await openFirst(harness, "bob");
  return { harness, api: apiFor(harness.server) };
}

describe("/attach in the composer", () => {
  it("adds several attachments above the draft, /detach removes one, Enter sends them", async () => {
    const { harness, api } = await withBob();
    await enterLine(harness, "/attach https://files.example.com/q3/Plan%20v2.pdf");
    await harness.waitFor((s) => s.includes("📎 Plan v2.pdf · PDF"), "the attachment");
    expect(harness.screen()).toContain("Attached Plan v2.pdf");
    await enterLine(harness, "/attach http://img.example.com/x?id=7 shot.PNG");
    await enterLine(harness, "/attach https://example.com/notes");
    await harness.waitFor(
      (s) =>
        s.includes("📎 1 Plan v2.pdf · PDF") &&
        s.includes("📎 2 shot.PNG · PNG") &&
        s.includes("📎 3 notes"),
      "three, numbered",
    );
    await enterLine(harness, "/detach 3");
    await harness.waitFor((s) => !s.includes("📎 3 notes"), "the third removed");
    expect(harness.screen()).toContain("Removed notes.");
    await enterLine(harness, "the plan and a shot");
    await harness.waitFor(sent("the plan and a shot"), "the message sent");
    await harness.waitFor((s) => s.includes("Message bob · Enter sends"), "an empty composer");
    expect(harness.screen()).not.toContain("📎 1 Plan");

    const message = await newest(api, "bob");
    expect(message.message).toBe("the plan and a shot");
    expect(message.attachments).toMatchObject([
      {
        file_url: "https://files.example.com/q3/Plan%20v2.pdf",
        filename: "Plan v2.pdf",
        file_type: "application/pdf",
      },
      { file_url: "http://img.example.com/x?id=7", filename: "shot.PNG", file_type: "image/png" },
    ]);
    // Shown in the history as the server has them.
    expect(harness.screen()).toMatch(/📎 Plan v2\.pdf[\s\S]*📎 shot\.PNG/u);
  });

  it("sends attachments with nothing typed under their file names", async () => {
    const { harness, api } = await withBob();
    await enterLine(harness, "/attach https://x.test/a/report.csv");
    await harness.waitFor((s) => s.includes("📎 report.csv · CSV"), "the attachment");
    await harness.press(KEYS.enter);
    await harness.waitFor(sent("report.csv"), "the message sent");
    const message = await newest(api, "bob");
    expect(message.message).toBe("report.csv");
    expect(message.attachments).toMatchObject([
      { file_url: "https://x.test/a/report.csv", filename: "report.csv", file_type: "text/csv" },
    ]);
  });

  it("refuses a URL that is not http or https, and keeps the draft", async () => {
    const { harness } = await withBob();
    await refusedAttach(
      harness,
      "/attach javascript:alert(1)",
      "only http and https addresses can be attached",
    );
    expect(harness.screen()).toContain("/attach javascript:alert(1)");
    expect(harness.screen()).not.toMatch(/📎 (alert|javascript)/u);
  });

  it("says an unknown command is unknown and keeps it; // sends a leading slash", async () => {
    const { harness, api } = await withBob();
    await enterLine(harness, "/shrug fine");
    await harness.waitFor((s) => s.includes("Unknown command /shrug"), "the unknown command");
    expect(harness.screen()).toContain("/shrug fine");
    await harness.press("\x01"); // Ctrl+A: the start of the line
    await harness.type("/");
    await harness.press(KEYS.enter);
    await harness.waitFor(sent("/shrug fine"), "the message sent");
    expect((await newest(api, "bob")).message).toBe("/shrug fine");
  });

  it("keeps a draft's attachments when switching conversations", async () => {
    const { harness } = await withBob();
    await enterLine(harness, "/attach https://x.test/keep.txt");
    await harness.waitFor((s) => s.includes("📎 keep.txt · TXT"), "the attachment");
    await harness.press(KEYS.escape, KEYS.escape, KEYS.down, KEYS.enter);
    await harness.waitFor(
      (s) => s.includes("Message #design") && !s.includes("keep.txt"),
      "another conversation, without it",
    );
    await harness.press(KEYS.escape, KEYS.escape, KEYS.up, KEYS.enter);
    await harness.waitFor((s) => s.includes("📎 keep.txt · TXT"), "the attachment back");
  });
});

describe("A on a message", () => {
  it("refuses on someone else's message: only the sender adds attachments", async () => {
    const { harness } = await withBob();
    await harness.press(KEYS.escape);
    await harness.waitFor((s) => /[│║]▌/.test(s), "bob's newest message selected");
    await harness.press("A");
    await harness.waitFor((s) => s.includes("only your own messages take attachments"), "why not");
    expect(harness.screen()).not.toContain("attach to this message:");
  });

  it("asks for a URL and adds it to your message by PUT, next to the ones it had", async () => {
    const harness = await each.start();
    const api = apiFor(harness.server);
    const conversation = await conversationWith(api, "bob");
    await api.messages.send({
      conversation_id: conversation.id,
      message: "the old deck",
      attachments: [{ file_url: "https://x.test/deck-v1.key", filename: "deck-v1.key" }],
    });
    await openFirst(harness, "bob");
    await harness.waitFor((s) => s.includes("📎 deck-v1.key"), "the message with its attachment");
    await harness.press(KEYS.escape);
    await harness.waitFor((s) => /▸.*bob|bob/.test(s), "the messages pane");
    await harness.press("A");
    await harness.waitFor((s) => s.includes("attach to this message:"), "the prompt");
    await harness.type("ftp://x.test/deck-v2.pdf");
    await harness.press(KEYS.enter);
    await harness.waitFor((s) => s.includes("only http and https"), "the refusal");
    await harness.press("A");
    await harness.type("https://x.test/deck-v2.pdf deck v2.pdf");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => /📎 deck-v1\.key[^\n]*\n[^\n]*📎 deck v2\.pdf/u.test(s),
      "both attachments under the message",
    );
    await harness.waitFor((s) => s.includes("Attached deck v2.pdf."), "the confirmation");
    const message = await newest(api, "bob");
    expect(message.message).toBe("the old deck");
    expect(message.attachments).toMatchObject([
      { file_url: "https://x.test/deck-v1.key", filename: "deck-v1.key" },
      {
        file_url: "https://x.test/deck-v2.pdf",
        filename: "deck v2.pdf",
        file_type: "application/pdf",
      },
    ]);
    expect(message.updated_at).toBeNull(); // not an edit
  });

  it("adds it once when the answer to the PUT was lost and it is tried again", async () => {
    const server = await each.server();
    const alice = apiFor(server);
    const chat = await conversationWith(alice, "bob");
    await alice.messages.send({ conversation_id: chat.id, message: "the file follows" });
    const baseUrl = await answerLostOnce(server.url);
    const harness = await each.start({ server, baseUrl, pollPace: { openMs: 300, listMs: 600 } });
    await openFirst(harness, "bob");
    await harness.press(KEYS.escape);
    await harness.waitFor((s) => /[│║]▌/.test(s), "a message selected in the messages pane");
    await harness.press("A");
    await harness.waitFor((s) => s.includes("attach to this message:"), "the prompt");
    await harness.type("https://x.test/once.txt");
    await harness.press(KEYS.enter);
    await harness.waitFor((s) => s.includes("Attached once.txt."), "the attachment added", 20_000);
    const message = await newest(apiFor(server), "bob");
    expect(
      message.attachments.filter((a) => a.file_url === "https://x.test/once.txt"),
    ).toHaveLength(1);
  });
});
