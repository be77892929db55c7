// `parley web --demo` in Debian's Chromium, as a visitor uses it: the page opens on the
// client's first frame, a message typed and sent is answered by a bot, y copies it into
// the browser's clipboard, the layout follows the window, `?` and `q` end on the end
// panel; two visitors have two worlds, and with --demo shared they meet in one, each in
// the colours their browser prefers. A link in a message opens in a new tab, with no way
// back to the page; when the server goes away the page says so, and starts again once it
// is back. One browser for the file, a context per visitor.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { until } from "../wait.ts";
import {
  type BuiltWeb,
  CLI,
  haveChromium,
  launchChromium,
  openConversation,
  pointAt,
  screenOf,
  sendMessage,
  startBuiltWeb,
  waitForScreen,
} from "./built.ts";

/** What bob says to a hello (src/server/demo/replies.ts), or his 👋 reaction alone (12%). */
const BOT_HELLO = /hey!|morning! ☕|👋|hey, what's up\?|hello hello/u;

/** The client's first frame: its title, the sidebar, the connection's state. */
const firstFrame = (s: string) =>
  s.includes("parley · ") && s.includes("online") && s.includes("#team");

describe.skipIf(!haveChromium)("parley web in a browser", () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const servers: BuiltWeb[] = [];

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build (npm test does)`);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((server) => server.stop()));
  });

  async function visitor(url: string, colorScheme: "dark" | "light" = "dark"): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: 1200, height: 800 },
      colorScheme,
      permissions: ["clipboard-read", "clipboard-write"],
    });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(url);
    await waitForScreen(page, firstFrame, "the client's first frame", 30_000);
    return page;
  }

  it("on --demo: a world per visitor, a bot's answer, resizes, ? and q to the end panel", async () => {
    const web = await startBuiltWeb(["--demo", "--threads", "1"]);
    servers.push(web);
    expect(web.banner.join("\n")).toContain("a demo world of their own");

    const first = await visitor(web.url);
    // The page is what the server sent: its own scripts only, under a strict policy.
    const headers = (await first.request.get(web.url)).headers();
    expect(headers["content-security-policy"]).toContain("script-src 'self'");
    expect(await screenOf(first)).toContain("parley · alice @ parley web");

    const text = `hello bob from a browser ${Date.now() % 100_000}`;
    await openConversation(first, "bob");
    await sendMessage(first, text);
    // Bob is a bot in this world, and answers this visitor: below the message in the pane
    // (the text's last place on screen; the sidebar's preview may hold it too).
    await waitForScreen(first, (s) => BOT_HELLO.test(s.split(text).at(-1) ?? ""), "bob's answer");

    // y copies the selected message (OSC 52) into the browser's clipboard.
    await first.keyboard.press("Escape");
    await waitForScreen(first, (s) => s.includes("y copy"), "the messages pane");
    await first.keyboard.press("y");
    const copied = await until(
      () => first.evaluate("navigator.clipboard.readText()") as Promise<string>,
      "the clipboard",
    );
    expect(copied === text || BOT_HELLO.test(copied), copied).toBe(true);

    // A second visitor: a world of their own, without the first one's message.
    const second = await visitor(web.url);
    await openConversation(second, "bob");
    // Their own message shows in the conversation: it is loaded, and the first one's is not in it.
    const own = `hi bob, second visitor ${Date.now() % 100_000}`;
    await sendMessage(second, own);
    expect(await screenOf(second)).not.toContain(text);
    expect(await screenOf(first)).not.toContain(own);
    await until(() => web.log.some((l) => /2 live sessions/.test(l)), "2 sessions logged");

    // A smaller window: the terminal is fitted to it and the client lays out again.
    const rowsBefore = (await screenOf(first)).split("\n").length;
    await first.setViewportSize({ width: 700, height: 420 });
    await waitForScreen(
      first,
      (s) => {
        const lines = s.split("\n");
        return (
          lines.length < rowsBefore &&
          lines[0]?.includes("parley · alice") === true &&
          lines.some((l) => l.includes("online")) &&
          s.includes(text.slice(0, 20))
        );
      },
      "the layout at the smaller size",
    );

    // ? shows the keys; q closes them, and q again ends the session: the end panel.
    await first.keyboard.press("Escape");
    await first.keyboard.press("?");
    await waitForScreen(first, (s) => s.includes("parley keys"), "the help");
    await first.keyboard.press("q");
    await waitForScreen(first, (s) => !s.includes("parley keys"), "the help closed");
    await first.keyboard.press("q");
    const ended = first.locator("#ended");
    await ended.waitFor({ state: "visible", timeout: 15_000 });
    expect(await ended.locator("h1").textContent()).toBe("Session ended");
    await until(() => web.log.some((l) => /alice .* left; 1 live session\b/.test(l)), "left");

    // Start again: a new session, in a new world.
    await ended.locator("button").click();
    await waitForScreen(first, (s) => s.includes("#team") && s.includes("online"), "a new start");
  }, 120_000);

  /** Puts the mouse on `needle` in the terminal, and waits until xterm.js shows it as a link. */
  async function hoverLink(page: Page, needle: string): Promise<void> {
    const pointer = () => page.evaluate('document.querySelector(".xterm-cursor-pointer") !== null');
    // Off any link first, so the pointer seen next is this link's.
    await page.mouse.move(1, 1);
    await until(async () => !(await pointer()), "the mouse off any link");
    const at = await until(() => pointAt(page, needle), `${needle} on screen`);
    await page.mouse.move(at.x, at.y);
    await until(pointer, `${needle} shown as a link`);
  }

  it("a link in a message opens in a new tab without an opener; only http and https", async () => {
    const web = await startBuiltWeb(["--demo", "--threads", "1"]);
    servers.push(web);
    const page = await visitor(web.url);
    const context = page.context();
    // No network here: the browser is answered for the link's site by the test.
    const target = "https://example.test/parley-link";
    await context.route("https://example.test/**", (route) =>
      route.fulfill({ contentType: "text/html", body: "<title>linked</title>" }),
    );
    const opened: Page[] = [];
    context.on("page", (p) => opened.push(p));

    await openConversation(page, "bob");
    // The links late in the text: the sidebar's one-line preview cuts them short.
    await sendMessage(page, `see ${target} or mail mailto:carol@example.test`);

    // The client sends the mailto as a link (OSC 8) too, but the page opens web addresses
    // only: a click on it opens nothing, so the one tab that opens is the https link's.
    const mailto = await until(() => pointAt(page, "mailto:carol@example.test"), "the mailto");
    await page.mouse.move(mailto.x, mailto.y);
    await page.mouse.click(mailto.x, mailto.y);

    await hoverLink(page, target);
    const popup = context.waitForEvent("page");
    const at = (await pointAt(page, target))!;
    await page.mouse.click(at.x, at.y);
    const tab = await popup;
    await tab.waitForLoadState();
    expect(tab.url()).toBe(target);
    expect(await tab.evaluate("window.opener")).toBeNull();
    expect(await tab.evaluate("document.referrer")).toBe("");
    // window.open is synchronous: had the mailto click opened anything, it came first.
    expect(opened).toEqual([tab]);
  }, 120_000);

  it("the server going away: the page says so, and starts again once it is back", async () => {
    const first = await startBuiltWeb(["--demo", "--threads", "1"]);
    servers.push(first);
    const page = await visitor(first.url);
    const ended = page.locator("#ended");
    const why = () => ended.locator(".why").textContent();

    /** A server back on the same port, and the button: a new session's first frame. */
    async function startAgain(): Promise<BuiltWeb> {
      const web = await startBuiltWeb(["--demo", "--threads", "1"], first.port);
      servers.push(web);
      await ended.locator("button").click();
      await ended.waitFor({ state: "hidden" });
      await waitForScreen(page, firstFrame, "the first frame of a new session", 30_000);
      return web;
    }

    // Stopped (SIGTERM): the server ends the session itself and says why.
    await first.stop();
    await ended.waitFor({ state: "visible", timeout: 15_000 });
    expect(await why()).toBe("parley: the server was stopped.");
    const second = await startAgain();

    // Gone at once (a crash, a machine lost): no word from it, the connection just ends.
    second.child.kill("SIGKILL");
    await ended.waitFor({ state: "visible", timeout: 15_000 });
    expect(await why()).toBe("The server went away. It may be back in a moment.");
    await startAgain();
  }, 120_000);

  it("without --demo: a token typed into the form signs in, a wrong one is told so", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parley-web-token-"));
    const db = join(dir, "team.db");
    const env = { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_STATE_HOME: dir };
    // Only a server makes a database: parley serve started on it once, then a person added.
    await (await startServer({ db })).close();
    const token = execFileSync(process.execPath, [CLI, "users", "add", "carol", "--db", db], {
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    const web = await startBuiltWeb(["--db", db, "--threads", "1"]);
    servers.push(web);
    const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(web.url);
    const form = page.locator("#signin");
    await form.waitFor({ state: "visible" });
    await form.locator("input").fill("not-a-token");
    await form.locator("button").click();
    await until(async () => (await form.locator(".why").textContent()) !== "", "the refusal");
    expect(await form.locator(".why").textContent()).toBe("That token does not sign in here.");
    await form.locator("input").fill(token);
    await form.locator("button").click();
    await waitForScreen(
      page,
      (s) => s.includes("parley · carol") && s.includes("online"),
      "carol in",
    );
    // The token went in the WebSocket, never in the address.
    expect(page.url()).toBe(web.url);
    expect(web.log.join("\n")).not.toContain(token);
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it("on --demo shared: two visitors in one world read each other", async () => {
    const web = await startBuiltWeb(["--demo", "shared", "--threads", "1"]);
    servers.push(web);
    expect(web.banner.join("\n")).toContain("one shared demo world");
    // The first visitor is alice, the next one the demo user fewest are: bob.
    const alice = await visitor(web.url);
    expect(await screenOf(alice)).toContain("parley · alice");
    // bob's browser prefers light colours: the client is drawn in its light theme.
    const bob = await visitor(web.url, "light");
    expect(await screenOf(bob)).toContain("parley · bob");
    const titleColour = (page: Page) =>
      page.evaluate('getComputedStyle(document.querySelector(".xterm-rows > div span")).color');
    expect(await titleColour(bob)).not.toEqual(await titleColour(alice));
    expect(await bob.evaluate("getComputedStyle(document.body).backgroundColor")).toBe(
      "rgb(255, 255, 255)",
    );

    const text = `lunch for two ${Date.now() % 100_000}`;
    await openConversation(alice, "bob");
    await sendMessage(alice, text);
    await openConversation(bob, "alice");
    await waitForScreen(bob, (s) => s.includes(text), "alice's message on bob's screen");
  }, 120_000);
});
