// The built `parley web` (dist/cli.js) in a child process, and Chromium pages on it: what
// a visitor meets. Run `npm run build` first (npm test does).
import { existsSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { type BuiltServer, startBuilt } from "../built.ts";
import { moveTo } from "../list-cursor.ts";
import { until } from "../wait.ts";

export { CLI } from "../built.ts";
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const haveChromium = existsSync(CHROMIUM);

export type BuiltWeb = BuiltServer & { url: string; port: number };

/** Starts the built `parley web` on `port` (0: a free one) with a home of its own. */
export async function startBuiltWeb(args: string[], port = 0): Promise<BuiltWeb> {
  const server = await startBuilt(["web", "--port", String(port), ...args], {
    ready: (line) => line.startsWith("sessions are drawn"),
  });
  const url = server.banner.map((line) => /listening on (http:\S+)/.exec(line)?.[1]).find(Boolean);
  if (url === undefined)
    throw new Error(`parley web said no address:\n${server.banner.join("\n")}`);
  return { ...server, url, port: Number(new URL(url).port) };
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
}

/** The terminal's rows as text, as xterm.js draws them in the page (run there: no DOM types here). */
const ROWS = String.raw`[...document.querySelectorAll(".xterm-rows > div")]
  .map((row) => (row.textContent ?? "").replace(/\u00a0/g, " ").trimEnd())
  .join("\n")`;

export function screenOf(page: Page): Promise<string> {
  return page.evaluate(ROWS) as Promise<string>;
}

/** Where, in the page, the middle of a character inside `needle` is drawn; null when it is not on screen. */
export function pointAt(page: Page, needle: string): Promise<{ x: number; y: number } | null> {
  return page.evaluate(`((needle) => {
    for (const row of document.querySelectorAll(".xterm-rows > div")) {
      const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
      const pieces = [];
      let text = "";
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        pieces.push({ node, start: text.length });
        text += node.data;
      }
      const at = text.indexOf(needle);
      if (at < 0) continue;
      const inside = at + Math.min(2, needle.length - 1);
      const piece = pieces.findLast((p) => p.start <= inside);
      const range = document.createRange();
      range.setStart(piece.node, inside - piece.start);
      range.setEnd(piece.node, inside - piece.start + 1);
      const box = range.getBoundingClientRect();
      return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
    }
    return null;
  })(${JSON.stringify(needle)})`) as Promise<{ x: number; y: number } | null>;
}

/** Waits until the page's screen passes `check`; returns it. */
export function waitForScreen(
  page: Page,
  check: (screen: string) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<string> {
  let last = "";
  return until(
    async () => {
      last = await screenOf(page);
      return check(last) ? last : undefined;
    },
    what,
    { timeoutMs, intervalMs: 100, detail: () => last },
  );
}

/** Moves the sidebar's cursor down to the conversation named `name`, and opens it. */
export async function openConversation(page: Page, name: string): Promise<void> {
  await moveTo(
    {
      screen: () => screenOf(page),
      down: () => page.keyboard.press("j"),
      waitFor: (check, what) => waitForScreen(page, check, what),
    },
    name,
  );
  await page.keyboard.press("Enter");
  await waitForScreen(page, (s) => s.includes(`Message ${name}`), `the composer to ${name}`);
}

/** Types a message into the open composer and sends it; waits until it is sent. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  await page.keyboard.type(text);
  await waitForScreen(page, (s) => s.includes(text), "the draft");
  await page.keyboard.press("Enter");
  // Sent: the composer is empty again (its placeholder back), the text in the conversation.
  await waitForScreen(
    page,
    (s) => s.includes(text) && s.includes("Message ") && !s.includes("sending…"),
    "the message sent",
  );
}
