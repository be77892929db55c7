// Replies by quoting: R on a message starts the draft with `> bob: its first words…`; the
// reply goes as plain text (no API change), and a second client shows the quote apart,
// above the reply. The quote's rules alone are in the describe block at the end.
import { describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { quoteOf, splitQuote } from "../../src/ui/model/quote.ts";
import { startForeignRelay } from "../e2e/foreign-relay.ts";
import { harnessEachTest, KEYS } from "./harness.tsx";
import { apiFor, newestMessage, openFirst } from "./helpers.ts";

const each = harnessEachTest();

describe("R: reply with a quote", () => {
  it("quotes the selected message, sends the reply, and bob's client shows the quote above it", async () => {
    const server = await startServer({ demo: true, demoReplies: false });
    each.afterTest(() => server.close());
    const bobApi = apiFor(server, 1);
    const alice = await each.start({ server });
    const quoted = (await newestMessage(apiFor(server), "bob"))!;
    expect(quoted.contact.username).toBe("bob");
    const first = quoted.message.split("\n")[0]!;
    await openFirst(alice, "bob");
    await alice.press(KEYS.escape);
    await alice.press("R");
    await alice.waitFor((s) => s.includes(`> bob: ${first}`), "the quote in the composer");
    await alice.type("yes, Friday works");
    await alice.press(KEYS.enter);
    await alice.waitFor(
      (s) =>
        new RegExp(`▏ bob: ${first}[^\\n]*\\n[^\\n]*yes, Friday works`).test(s) &&
        !s.includes("sending…"),
      "the reply, its quote above it",
    );

    // As any client and any server see it: plain text, the quote first.
    const sent = (await newestMessage(bobApi, "alice"))!;
    expect(sent.message).toBe(`${quoteOf("bob", quoted.message)}\nyes, Friday works`);
    expect(sent.message).toMatch(/^> bob: .+\nyes, Friday works$/);

    const bob = await each.start({ server, user: 1 });
    await openFirst(bob, "alice");
    const screen = await bob.waitFor(
      (s) =>
        new RegExp(
          `alice · \\d\\d:\\d\\d[^\\n]*\\n[^\\n]*▏ bob: ${first}[^\\n]*\\n[^\\n]*yes, Friday works`,
        ).test(s),
      "alice's reply on bob's screen, with the quote",
    );
    // Nor in the list's preview: the reply is what it shows.
    expect(screen).not.toContain("> bob:");
    expect(screen).toMatch(/▸alice +now│[^\n]*\n│ +yes, Friday works/u);
  });
});

describe("a reply through a foreign server", () => {
  it("is plain text to the server: a client there sends and shows it as on parley's", async () => {
    const server = await startServer({ demo: true, demoReplies: false });
    each.afterTest(() => server.close());
    const relay = await startForeignRelay(server.url);
    each.afterTest(() => relay.close());
    const alice = await each.start({ server, baseUrl: relay.url });
    await openFirst(alice, "bob");
    await alice.press(KEYS.escape);
    await alice.press("R");
    await alice.waitFor((s) => /> bob: \S/.test(s), "the quote in the composer");
    await alice.type("through the relay");
    await alice.press(KEYS.enter);
    await alice.waitFor(
      (s) => /▏ bob: [^\n]*\n[^\n]*through the relay/.test(s) && !s.includes("sending…"),
      "the reply sent, its quote above it",
    );
    const bob = await each.start({ server, user: 1, baseUrl: relay.url });
    await openFirst(bob, "alice");
    await bob.waitFor(
      (s) => /alice · \d\d:\d\d[^\n]*\n[^\n]*▏ bob: [^\n]*\n[^\n]*through the relay/.test(s),
      "the reply with its quote on bob's screen",
    );
  });
});

describe("quoteOf and splitQuote", () => {
  it("quotes the sender and the first line, marked when cut", () => {
    expect(quoteOf("bob", "lunch?")).toBe("> bob: lunch?");
    expect(quoteOf("bob", "Ship it Friday?\nI think so")).toBe("> bob: Ship it Friday?…");
    const long = quoteOf("carol", "x".repeat(200));
    expect(Array.from(long).length).toBeLessThan(90);
    expect(long.endsWith("…")).toBe(true);
    // A reply's own quote is not quoted again.
    expect(quoteOf("alice", "> bob: lunch?\nyes, 12:30")).toBe("> alice: yes, 12:30");
  });

  it("splits a leading quote from the reply; quote marks alone are text", () => {
    expect(splitQuote("> bob: lunch?\nyes")).toEqual({ quote: ["bob: lunch?"], reply: "yes" });
    expect(splitQuote("> a\n>b\n\nreply")).toEqual({ quote: ["a", "b"], reply: "reply" });
    expect(splitQuote("> only a quote")).toEqual({ quote: [], reply: "> only a quote" });
    expect(splitQuote("no quote\n> later")).toEqual({ quote: [], reply: "no quote\n> later" });
  });
});
