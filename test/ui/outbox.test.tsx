// The outbox against the real server: changes made while it is gone wait, show at once,
// and go out in order, each exactly once, when it returns; a change it refuses for good
// says why, and a refused send keeps its text.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HttpError } from "../../src/server/errors.ts";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { type Harness, harnessEachTest, KEYS } from "./harness.tsx";
import { apiFor, conversationWith, openFirst, selectRow, sidebarNames } from "./helpers.ts";

const each = harnessEachTest();
// Fast polls: the outbox waits out a back-off only while the server is gone.
const pollPace = { openMs: 300, listMs: 600 };

/** A server that can be stopped and started again at the same address, with its data. */
async function restartableServer() {
  const dir = mkdtempSync(join(tmpdir(), "parley-outbox-"));
  each.afterTest(() => rmSync(dir, { recursive: true, force: true }));
  const db = join(dir, "server.db");
  let server: RunningServer = await startServer({ port: 0, db, demo: true, demoReplies: false });
  each.afterTest(() => server.close());
  const { port } = server;
  return {
    first: server,
    stop: () => server.close(),
    start: async () => {
      server = await startServer({ port, db, demo: true, demoReplies: false });
    },
  };
}

/** alice in her conversation with bob, and the server gone. */
async function awayFromBob() {
  const server = await restartableServer();
  const harness = await each.start({ server: server.first, pollPace });
  await openFirst(harness, "bob");
  await server.stop();
  return { server, harness };
}

/**
 * Starts the server again and waits for the queue to be through: nothing left unsent, and
 * `last`, its last change's confirmation, said. alice's API and her conversation with bob.
 */
async function carriedOut(
  server: Awaited<ReturnType<typeof restartableServer>>,
  harness: Harness,
  last: string,
) {
  await server.start();
  await harness.waitFor(
    (s) => s.includes("● online") && !s.includes("not sent") && s.includes(last),
    "the queue carried out",
    20_000,
  );
  const alice = apiFor(server.first);
  return { alice, chat: await conversationWith(alice, "bob") };
}

describe("the outbox", () => {
  it("queues what is done while the server is gone and carries it out in order, once", async () => {
    const { server, harness } = await awayFromBob();
    await harness.type("first while away");
    await harness.press(KEYS.enter);
    await harness.waitFor((s) => s.includes("not sent yet"), "the send waiting");
    await harness.type("second while away");
    await harness.press(KEYS.enter);
    // Mute the conversation from the list: shown at once, though the server is gone.
    await harness.press(KEYS.escape, KEYS.escape, "m");
    await harness.waitFor(
      (s) => /│▸📌🔕 bob/u.test(s) && s.includes("3 queued"),
      "the mute shown and three changes queued",
    );

    // The mute is the last change: its confirmation means the queue is through.
    const { alice, chat } = await carriedOut(server, harness, "✓ Muted bob.");
    expect(chat.is_muted).toBe(true);
    const page = await alice.messages.list({ conversation_id: chat.id, limit: 10 });
    const texts = page.data.map((m) => m.message).reverse();
    expect(texts.filter((t) => t === "first while away")).toHaveLength(1);
    expect(texts.filter((t) => t === "second while away")).toHaveLength(1);
    expect(texts.indexOf("first while away")).toBeLessThan(texts.indexOf("second while away"));
  });

  it("takes a waiting send back into the composer with e, offline, and the keys after go there", async () => {
    const { server, harness } = await awayFromBob();
    await harness.type("taken back");
    await harness.press(KEYS.enter);
    await harness.waitFor((s) => s.includes("not sent yet"), "the send waiting");
    await harness.press(KEYS.escape, "e");
    await harness.waitFor(
      (s) => s.includes("Took the unsent message back: Enter sends it") && !s.includes("not sent"),
      "the send out of the outbox",
    );
    // d and n are text now, not the pane's drop and new conversation.
    await harness.type(" and d n");
    const typed = await harness.waitFor(
      (s) => s.includes("taken back and d n"),
      "the text typed on",
    );
    expect(typed).not.toContain("Drop this unsent message?");
    expect(typed).not.toContain("new conversation with:");

    await server.start();
    await harness.waitFor((s) => s.includes("● online"), "the server back");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => s.includes("taken back and d n") && !s.includes("sending…") && !s.includes("not sent"),
      "sent",
      20_000,
    );
    const alice = apiFor(server.first);
    const chat = await conversationWith(alice, "bob");
    const texts = (await alice.messages.list({ conversation_id: chat.id, limit: 10 })).data.map(
      (m) => m.message,
    );
    expect(texts.filter((t) => t.startsWith("taken back"))).toEqual(["taken back and d n"]);
  });

  it("queues attachments while the server is gone: a send with them, and A on a message, once each", async () => {
    const server = await restartableServer();
    const mine = apiFor(server.first);
    const withBob = await conversationWith(mine, "bob");
    await mine.messages.send({ conversation_id: withBob.id, message: "notes of mine" });
    const harness = await each.start({ server: server.first, pollPace });
    await openFirst(harness, "bob");
    // The history in, before the server goes: A is for your message above the send.
    await harness.waitFor((s) => s.includes("notes of mine"), "your message");
    await server.stop();

    await harness.type("/attach https://x.test/away.png");
    await harness.press(KEYS.enter);
    await harness.type("sent with a picture");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => /sent with a picture[^\n]*\n[^\n]*📎 away\.png/u.test(s) && s.includes("not sent yet"),
      "the send waiting, with its attachment",
    );
    // A on your message above the send: shown on it at once.
    await harness.press(KEYS.escape);
    await harness.waitFor((s) => /[│║]▌/.test(s), "a message selected in the messages pane");
    await harness.press(KEYS.up, "A");
    await harness.waitFor((s) => s.includes("attach to this message:"), "the prompt");
    await harness.type("https://x.test/later.pdf");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => s.includes("📎 later.pdf") && s.includes("2 queued"),
      "the attachment shown, two changes queued",
    );

    const { alice, chat } = await carriedOut(server, harness, "Attached later.pdf.");
    const page = await alice.messages.list({ conversation_id: chat.id, limit: 2 });
    const [sent, before] = page.data;
    expect(sent?.message).toBe("sent with a picture");
    expect(sent?.attachments).toMatchObject([
      { file_url: "https://x.test/away.png", filename: "away.png", file_type: "image/png" },
    ]);
    expect(
      before?.attachments.filter((a) => a.file_url === "https://x.test/later.pdf"),
    ).toHaveLength(1);
  });

  it("keeps the cursor on a conversation muted and then listed under Muted before the server has it", async () => {
    // The server turns the mute away for a while (503: the outbox tries again), so its
    // "Muted" list comes without #team at first.
    let holdUpdates = false;
    const server = await each.server({
      faults: ({ method, path }) => {
        if (holdUpdates && method === "PUT" && path.startsWith("/v1/conversations/"))
          throw new HttpError(503, "internal", "Try again soon.");
      },
    });
    const harness = await each.start({ server, pollPace });
    await selectRow(harness, "#team");
    holdUpdates = true;
    await harness.press("m");
    await harness.waitFor((s) => /│▸🔕 #team/u.test(s), "the mute shown at once");
    await harness.press("3");
    // The server's list, without #team: the cursor shows on a row of it meanwhile.
    await harness.waitFor(
      (s) => sidebarNames(s).includes("#lunch") && !sidebarNames(s).includes("#team"),
      "the Muted filter, as the server has it",
    );
    holdUpdates = false;
    await harness.waitFor((s) => /│▸🔕 #team/u.test(s), "#team listed and selected", 20_000);
    await harness.press("1");
    await harness.waitFor(
      (s) => s.includes("#design") && /│▸🔕 #team/u.test(s),
      "All again, still on #team",
    );
  });

  it("shows the server's reason for a refusal and keeps a refused send's text", async () => {
    // The server refuses the send as it would one to a conversation gone meanwhile. (Gone
    // through the API, its deletion would reach this client live and close it first.)
    let refuse = false;
    const server = await each.server({
      faults: ({ method, path }) => {
        if (refuse && method === "POST" && path === "/v1/messages")
          throw new HttpError(404, "not_found", "No such conversation.");
      },
    });
    const harness = await each.start({ server, pollPace });
    await openFirst(harness, "bob");
    refuse = true;
    await harness.type("into the void");
    await harness.press(KEYS.enter);
    const screen = await harness.waitFor(
      (s) => s.includes("✗ not sent ·") && s.includes("into the void"),
      "the refused send, with its text",
    );
    expect(screen).toContain("Not sent");
    expect(screen).toContain("Enter retries · e edits · d drops");

    // e takes it back to change it; sent again, it lands once.
    await harness.press(KEYS.escape, "e");
    await harness.waitFor(
      (s) => s.includes("Took the unsent message back") && !s.includes("✗ not sent ·"),
      "the refused send back in the composer",
    );
    refuse = false;
    await harness.type(", once");
    await harness.press(KEYS.enter);
    await harness.waitFor(
      (s) => s.includes("into the void, once") && !s.includes("sending…"),
      "sent",
    );
    const chat = await conversationWith(apiFor(server), "bob");
    const texts = (await apiFor(server).messages.list({ conversation_id: chat.id })).data.map(
      (m) => m.message,
    );
    expect(texts.filter((t) => t.startsWith("into the void"))).toEqual(["into the void, once"]);
  });
});
