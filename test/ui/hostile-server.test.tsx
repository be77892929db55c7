// The whole client against a server that means harm or is broken, as a person meets it: a
// relay in front of the real server (a real socket, test/api/foreign-server.ts) that
// answers some requests its own way.
import { describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { PINNED_FIRST, UNPINNED } from "../../src/ui/queries/conversations.ts";
import { keys } from "../../src/ui/queries/query-keys.ts";
import { conversation, type Seen, startForeignServer } from "../api/foreign-server.ts";
import { harnessEachTest, KEYS } from "./harness.tsx";
import {
  apiFor,
  conversationWith,
  openFirst,
  paneText,
  sidebarCursor,
  sidebarNames,
} from "./helpers.ts";

const each = harnessEachTest();
/**
 * The real server behind a relay; `answer` may replace a request's answer (its body as the
 * real server sent it is given), or return undefined to pass it on as it came.
 */
async function relay(
  answer: (req: Seen, body: string) => string | undefined | Promise<string | undefined>,
) {
  const real = await startServer({ port: 0, demo: true, demoReplies: false });
  const front = await startForeignServer((req, res) => {
    void (async () => {
      const reply = await fetch(real.url + req.url, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: req.method === "GET" ? undefined : req.body,
      });
      const body = await reply.text();
      const replaced = await answer(req, body);
      res.writeHead(reply.status, { "content-type": reply.headers.get("content-type") ?? "" });
      res.end(replaced ?? body);
    })().catch(() => res.destroy());
  });
  each.afterTest(() => front.close());
  each.afterTest(() => real.close());
  return { real, front };
}

const statusBar = (screen: string) => screen.split("\n").at(-1) ?? "";

describe("a server that repeats a page", () => {
  it("is asked for the next page once, not in a loop (has_more: true, the same last id)", async () => {
    const isPinnedList = (req: Seen) =>
      req.url.startsWith("/v1/conversations?") && req.url.includes("pinned=true");
    let firstPage = "";
    const { front, real } = await relay((req, body) => {
      if (!isPinnedList(req)) return undefined;
      // Whatever the cursor, the first page again, with more to come.
      if (!req.url.includes("starting_after")) firstPage = body;
      return JSON.stringify({ ...JSON.parse(firstPage), has_more: true });
    });
    const alice = apiFor(real);
    await alice.conversations.update((await conversationWith(alice, "bob")).id, {
      is_pinned: true,
    });
    const pinnedAsked = () => front.seen.filter(isPinnedList);
    const harness = await each.start({ server: real, baseUrl: front.url });
    await harness.waitFor((s) => s.includes("● online") && s.includes("bob"), "the list");
    // Three polls of the list have come and gone: time enough for a loop to show.
    await harness.waitFor(
      () => pinnedAsked().filter((r) => !r.url.includes("starting_after")).length >= 3,
      "three polls of the pinned list",
    );
    const first = pinnedAsked().filter((r) => !r.url.includes("starting_after")).length;
    const next = pinnedAsked().filter((r) => r.url.includes("starting_after")).length;
    // Each poll refetches the two pages it has; never a third, never again and again.
    expect(next).toBeGreaterThanOrEqual(1);
    expect(next).toBeLessThanOrEqual(first);
    const state = harness.queryClient.getQueryState(keys.conversations.list(PINNED_FIRST));
    expect(state?.status).toBe("success");
  }, 30_000);
});

describe("a server that answers the pinned list last", () => {
  it("shows no row until it has, so the cursor starts on the first pinned row", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { real, front } = await relay(async (req) => {
      if (req.url.startsWith("/v1/conversations?") && req.url.includes("pinned=true")) await held;
      return undefined;
    });
    const h = await each.start({ server: real, baseUrl: front.url });
    await h.waitFor(
      () => h.queryClient.getQueryData(keys.conversations.list(UNPINNED)) !== undefined,
      "the unpinned list's answer",
    );
    await h.waitFor((s) => s.includes("loading…"), "the list loading");
    expect(sidebarNames(h.screen())).toEqual([]);
    release();
    const screen = await h.waitFor((s) => s.includes("#team"), "the whole list");
    expect(sidebarNames(screen).slice(0, 3)).toEqual(["bob", "#design", "#team"]);
    expect(sidebarCursor(screen)).toBe(0);
  });
});

describe("a page of thousands", () => {
  it("is cut to 1000 items beyond its limit, and the status bar says so once", async () => {
    const many = Array.from({ length: 5000 }, (_, i) =>
      conversation(`conv_x${i}`, { contact_id: `ct_x${i}` }),
    );
    const isUnpinnedList = (req: Seen) =>
      req.url.startsWith("/v1/conversations?") && req.url.includes("pinned=false");
    const { real, front } = await relay((req) =>
      isUnpinnedList(req) ? JSON.stringify({ has_more: false, data: many }) : undefined,
    );
    const harness = await each.start({ server: real, baseUrl: front.url });
    const cut =
      "Cut short: The server sent 5000 items in one list of conversations; parley kept the first 1010.";
    await harness.waitFor((s) => statusBar(s).includes(cut), "the cut said");
    // Polls bring the same page again: said once, not again with every poll.
    const said = harness.session.status.notice.get();
    const asked = () => front.seen.filter(isUnpinnedList).length;
    const before = asked();
    await harness.waitFor(() => asked() >= before + 2, "two more polls of the list");
    expect(harness.session.status.notice.get()).toBe(said);
  }, 30_000);
});

describe("answers that cannot be read", () => {
  /** Wrong types, and nesting no answer has: what a broken or hostile server sends. */
  const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
  const unreadable = `{"has_more": "maybe", "data": [{"id": ${deep}, "is_pinned": "yes"}]}`;

  it("are said in the status line, and the connection is not shown online", async () => {
    let broken = false;
    const { real, front } = await relay((req) =>
      broken && req.url.startsWith("/v1/") ? unreadable : undefined,
    );
    const harness = await each.start({ server: real, baseUrl: front.url });
    await harness.waitFor((s) => s.includes("● online") && s.includes("bob"), "the list");
    broken = true;
    const screen = await harness.waitFor(
      (s) => statusBar(s).includes("answers unreadable"),
      "the connection no longer online",
    );
    expect(statusBar(screen)).toContain("could not be read");
    expect(statusBar(screen)).not.toContain("● online");
    // What was on screen stays, marked as what the server last said.
    expect(screen).toContain("bob");
    expect(statusBar(screen)).toMatch(/last synced \d\d:\d\d/);
    expect(front.seen.length).toBeGreaterThan(0);

    // Answers that can be read again bring it back.
    broken = false;
    await harness.waitFor((s) => statusBar(s).includes("● online"), "online again");
  }, 30_000);
});

describe("a page of messages larger than the client reads", () => {
  it("is said where the messages would be, never as an empty conversation", async () => {
    // What one member once made of a conversation: a newest page of 9 MiB.
    const huge = JSON.stringify({ has_more: false, data: [], padding: "x".repeat(9 << 20) });
    const { real, front } = await relay((req) =>
      req.url.startsWith("/v1/messages?") && req.url.includes("conversation_id=")
        ? huge
        : undefined,
    );
    const harness = await each.start({ server: real, baseUrl: front.url });
    await openFirst(harness, "bob");
    // (On a slow machine a time-out may be said first, the same way.)
    const screen = await harness.waitFor(
      (s) => paneText(s).includes("larger than 8 MiB"),
      "the pane saying the page is too large",
    );
    expect(paneText(screen)).toContain("Messages could not be read: The server's answer is");
    expect(screen).not.toContain("No messages yet");
  }, 30_000);
});

describe("y on a message that hides escape sequences", () => {
  it("copies it without them: a paste cannot run a command (pastejacking)", async () => {
    const harness = await each.start();
    const bob = apiFor(harness.server, 1);
    await bob.messages.send({
      conversation_id: (await conversationWith(bob, "alice")).id,
      message: "touch /tmp/x\x1b[201~\nrm -rf ~",
    });
    await openFirst(harness, "bob");
    await harness.waitFor((s) => s.includes("touch /tmp/x"), "the message");
    await harness.press(KEYS.escape, "y");
    await harness.waitFor((s) => s.includes("to the clipboard"), "the confirmation");
    const payloads = harness.sequences.filter((s) => s.startsWith("\x1b]52;c;"));
    expect(payloads).toHaveLength(1);
    expect(harness.clipboard).toEqual(["touch /tmp/x\nrm -rf ~"]);
    expect(harness.clipboard[0]).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  }, 30_000);
});
