// Regenerates the README's pictures (docs/screenshots/*.png) from the real, built client:
// `node dist/cli.js` on its embedded demo server runs in a real pseudo-terminal (tmux);
// the screen is read back with its colours (capture-pane -e), replayed into
// @xterm/headless, serialised to HTML by @xterm/addon-serialize, and photographed by
// Chromium through playwright-core. The browser page (web.png) is `parley web --demo` itself,
// opened in Chromium. Nothing is drawn by hand.
//
// Needs: tmux, Chromium (/usr/bin/chromium, or CHROMIUM_PATH), and the fonts
// "DejaVu Sans Mono" and "Noto Color Emoji" (Debian: tmux chromium fonts-dejavu-core
// fonts-noto-color-emoji). Run with `npm run screenshots` (builds first).
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { createInterface } from "node:readline";
import serialize from "@xterm/addon-serialize";
import unicode11 from "@xterm/addon-unicode11";
import xterm from "@xterm/headless";
import { chromium } from "playwright-core";

const ROOT = resolve(import.meta.dirname, "..");
const CLI = join(ROOT, "dist/cli.js");
const OUT = join(ROOT, "docs/screenshots");
const COLUMNS = 120;
const ROWS = 40;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FONTS = ["DejaVu Sans Mono", "Noto Color Emoji"];
const MAX_BYTES = 300 * 1024;

// The page around the terminal: a dark theme, its 16 colours being Tango (xterm.js's own
// default palette, which @xterm/addon-serialize uses), 14 px DejaVu Sans Mono, photographed
// at twice the scale.
const FOREGROUND = "#d3d7cf";
const BACKGROUND = "#1c1f24";
const FONT_SIZE = 14;
// A little less than the font's ascent + descent, so that box-drawing lines meet.
const LINE = 16;
const SCALE = 2;

type Pane = {
  /** The screen as text. */
  text(): string;
  /** The screen with its colours and attributes (SGR sequences), as tmux sees it. */
  ansi(): string;
  send(...keys: string[]): Promise<void>;
  kill(): void;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class Failure extends Error {}

function fail(message: string): never {
  throw new Failure(message);
}

function checkPrerequisites(): void {
  if (!existsSync(CLI)) fail(`${relative(ROOT, CLI)} is missing: run npm run build first`);
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
  } catch {
    fail("tmux is needed (Debian: apt-get install tmux)");
  }
  if (!existsSync(CHROMIUM))
    fail(`no Chromium at ${CHROMIUM} (Debian: apt-get install chromium, or set CHROMIUM_PATH)`);
  let families = "";
  try {
    families = execFileSync("fc-list", [":", "family"], { encoding: "utf8" });
  } catch {
    // no fontconfig tools: Chromium will say what it finds
  }
  for (const font of FONTS)
    if (!families.includes(font))
      console.warn(
        `screenshots: font "${font}" not found (Debian: fonts-dejavu-core fonts-noto-color-emoji)`,
      );
}

/** The built client in a detached tmux session of its own, from a fresh demo. */
function startPane(home: string): Pane {
  // The server's socket lives in `home`, and goes with it.
  const socket = join(home, "tmux.sock");
  const env: Record<string, string> = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_DATA_HOME: join(home, "data"),
    XDG_STATE_HOME: join(home, "state"),
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    LANG: "C.UTF-8",
    TERM: "xterm-256color",
  };
  const tmux = (...args: string[]) =>
    execFileSync("tmux", ["-S", socket, "-f", "/dev/null", ...args], { encoding: "utf8", env });
  const command = `cd ${JSON.stringify(ROOT)}; unset COLORTERM NO_COLOR; export TERM=xterm-256color; ${JSON.stringify(process.execPath)} dist/cli.js; echo "EXITED=$?"; sleep 600`;
  tmux(
    "new-session",
    "-d",
    "-s",
    "main",
    "-x",
    String(COLUMNS),
    "-y",
    String(ROWS),
    ...Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]),
    "bash",
    "--noprofile",
    "--norc",
    "-c",
    command,
  );
  tmux("set-option", "-t", "main", "status", "off");
  return {
    text: () => tmux("capture-pane", "-p", "-t", "main"),
    ansi: () => tmux("capture-pane", "-p", "-e", "-N", "-t", "main"),
    async send(...keys) {
      for (const key of keys) {
        tmux("send-keys", "-t", "main", key);
        // Esc and the next key in one read would be Alt+key.
        await sleep(key === "Escape" ? 250 : 120);
      }
    },
    kill() {
      try {
        tmux("kill-server");
      } catch {
        // already gone
      }
    },
  };
}

/** Waits until `predicate` holds and the screen (colours included) has stopped changing. */
async function settle(pane: Pane, predicate: (text: string) => boolean, what: string) {
  const deadline = Date.now() + 30_000;
  let last = "";
  let stableSince = 0;
  for (;;) {
    const text = pane.text();
    const screen = pane.ansi();
    if (predicate(text) && text.includes("● online")) {
      if (screen !== last) {
        last = screen;
        stableSince = Date.now();
      } else if (Date.now() - stableSince >= 700) {
        return screen;
      }
    } else {
      last = "";
    }
    if (Date.now() > deadline) fail(`timed out waiting for ${what}. Screen:\n${text}`);
    await sleep(100);
  }
}

const selectedRow = (text: string) => text.split("\n").find((l) => /^[│║]▸/.test(l)) ?? "";

/** Moves the conversation list's cursor to the row naming `name`. */
async function moveTo(pane: Pane, name: string) {
  const names = (l: string) => new RegExp(`^[│║][ ▸](?:[📌🔕]+ )?${name} `, "u").test(l);
  for (let i = 0; i < 2 * ROWS; i++) {
    const lines = pane.text().split("\n");
    const at = lines.findIndex((l) => /^[│║]▸/.test(l));
    const target = lines.findIndex(names);
    if (at >= 0 && at === target) return;
    if (target < 0) break;
    const before = lines[at];
    await pane.send(target > at ? "j" : "k");
    for (let t = 0; t < 20 && selectedRow(pane.text()) === before; t++) await sleep(50);
  }
  fail(`could not select ${name} in the list. Screen:\n${pane.text()}`);
}

/**
 * The screen as HTML from @xterm/addon-serialize, with every cell held to exactly one
 * (or, for a wide character, two) columns of the page, as the terminal laid it out.
 */
async function toHtml(ansi: string): Promise<string> {
  const term = new xterm.Terminal({
    cols: COLUMNS,
    rows: ROWS,
    allowProposedApi: true,
    scrollback: 0,
    convertEol: true,
    theme: { foreground: FOREGROUND, background: BACKGROUND },
  });
  term.loadAddon(new unicode11.Unicode11Addon());
  term.unicode.activeVersion = "11";
  const serializer = new serialize.SerializeAddon();
  term.loadAddon(serializer);
  // capture-pane ends every row with "\n"; the last one would scroll the screen.
  await new Promise<void>((r) => term.write(ansi.replace(/\n$/, ""), r));

  // The characters the terminal gave two columns (emoji), and those of several code
  // points (emoji sequences) that must stay in one cell.
  const wide = new Set<string>();
  const clusters = new Set<string>();
  for (let y = 0; y < ROWS; y++) {
    const line = term.buffer.active.getLine(y);
    for (let x = 0; line && x < COLUMNS; x++) {
      const cell = line.getCell(x);
      const chars = cell?.getChars() ?? "";
      if (cell?.getWidth() === 2) wide.add(chars);
      if ([...chars].length > 1) clusters.add(chars);
    }
  }

  // One row at a time: serializeAsHTML carries the previous cell's style across rows
  // but starts every row with an unstyled span, so a row that begins in the colour the
  // previous one ended in would lose it.
  let head = "";
  const rows: string[] = [];
  for (let y = 0; y < ROWS; y++) {
    const html = serializer.serializeAsHTML({
      includeGlobalBackground: true,
      range: { startLine: y, endLine: y, startCol: 0 },
    });
    const pre = html.indexOf("<pre>");
    const open = html.indexOf(">", html.indexOf("<div", pre)) + 1;
    head ||= html.slice(pre, open);
    rows.push(html.slice(open, html.lastIndexOf("</div></pre>")));
  }

  const literal = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const cell = new RegExp(
    [...[...clusters].sort((a, b) => b.length - a.length).map(literal), "&[a-z]+;", "."].join("|"),
    "gsu",
  );
  const cells = (text: string) =>
    text.replace(cell, (c) => `<span class="${wide.has(c) ? "c2" : "c"}">${c}</span>`);
  return `${head}${rows.join("").replace(/>([^<]+)(?=<)/g, (_, text) => `>${cells(text)}`)}</div></pre>`;
}

function page(fragment: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><style>
  html, body { margin: 0; background: ${BACKGROUND}; }
  #term { display: inline-block; padding: 14px 18px; background: ${BACKGROUND}; }
  #term pre { margin: 0; }
  #term pre > div {
    font-family: ${FONTS.map((f) => `"${f}"`).join(", ")}, monospace !important;
    font-size: ${FONT_SIZE}px !important;
    font-variant-ligatures: none;
  }
  #term pre > div > div { height: ${LINE}px; line-height: ${LINE}px; white-space: pre; }
  .c, .c2 {
    display: inline-block; width: var(--cell, 1ch); height: ${LINE}px;
    vertical-align: top; text-align: center; background: inherit;
  }
  .c2 { width: calc(2 * var(--cell, 1ch)); }
</style></head>
<body><div id="term">${fragment}</div></body></html>`;
}

// The cell: the font's own advance, nudged to a whole quarter pixel (a whole device pixel
// at twice the scale), so that box-drawing lines fall on pixels and stay sharp.
const FIT_CELLS = `document.fonts.ready.then(() => {
  const screen = document.querySelector("#term pre > div");
  const probe = document.createElement("span");
  probe.textContent = "0".repeat(${COLUMNS});
  screen.firstElementChild.append(probe);
  const natural = probe.getBoundingClientRect().width / ${COLUMNS};
  probe.remove();
  const cell = Math.round(natural * 4) / 4;
  screen.style.setProperty("font-size", (${FONT_SIZE} * cell) / natural + "px", "important");
  document.documentElement.style.setProperty("--cell", cell + "px");
  return cell;
})`;

type Shot = { file: string; ansi: string };

/** Drives the client through the three scenes and returns their screens. */
async function capture(): Promise<Shot[]> {
  const home = mkdtempSync(join(tmpdir(), "parley-shots-"));
  const pane = startPane(home);
  const interrupted = () => {
    pane.kill();
    rmSync(home, { recursive: true, force: true });
    process.exit(130);
  };
  process.once("SIGINT", interrupted);
  try {
    const shots: Shot[] = [];
    await settle(pane, (s) => s.includes("#oncall") && s.includes("1 All"), "the conversations");

    // 1. The sidebar with its filters, a busy group open beside it.
    await moveTo(pane, "#launch");
    await pane.send("Enter");
    await settle(pane, (s) => s.includes("Message #launch"), "#launch");
    await pane.send("Escape", "Escape");
    const sidebar = await settle(
      pane,
      (s) => s.includes("↑↓ move") && selectedRow(s).includes("#launch"),
      "the sidebar focused",
    );
    shots.push({ file: "sidebar.png", ansi: sidebar });

    // 2. A conversation with a pinned message, and reactions added to the latest one.
    await moveTo(pane, "bob");
    await pane.send("Enter");
    await settle(pane, (s) => s.includes("Message bob") && s.includes("📌 Ship it"), "bob");
    await pane.send("Escape");
    await settle(pane, (s) => s.includes("r react"), "the messages focused");
    for (const [key, emoji] of [
      ["4", "🎉"],
      ["9", "🚀"],
    ] as const) {
      await pane.send("r");
      await settle(pane, (s) => s.includes("←→ Enter · Esc"), "the reaction picker");
      await pane.send(key);
      await settle(
        pane,
        (s) => !s.includes("←→ Enter · Esc") && new RegExp(`▌.*${emoji} 1`, "u").test(s),
        `the ${emoji} reaction`,
      );
    }
    const conversation = await settle(pane, (s) => s.includes("r react"), "the conversation");
    shots.push({ file: "conversation.png", ansi: conversation });

    // 3. The help overlay.
    await pane.send("?");
    const help = await settle(pane, (s) => s.includes("parley keys"), "the help overlay");
    shots.push({ file: "help.png", ansi: help });

    await pane.send("Escape", "q");
    return shots;
  } finally {
    process.off("SIGINT", interrupted);
    pane.kill();
    rmSync(home, { recursive: true, force: true });
  }
}

async function render(shots: Shot[]): Promise<void> {
  const profile = mkdtempSync(join(tmpdir(), "parley-shots-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
    viewport: { width: 1400, height: 900 },
    deviceScaleFactor: SCALE,
    offline: true,
  });
  try {
    const tab = await context.newPage();
    mkdirSync(OUT, { recursive: true });
    for (const shot of shots) {
      await tab.setContent(page(await toHtml(shot.ansi)), { waitUntil: "load" });
      await tab.evaluate(FIT_CELLS);
      const path = join(OUT, shot.file);
      await tab.locator("#term").screenshot({ path, animations: "disabled" });
      const bytes = statSync(path).size;
      console.log(`${relative(ROOT, path)}  ${Math.round(bytes / 1024)} KB`);
      if (bytes > MAX_BYTES) console.warn(`screenshots: ${shot.file} is over 300 KB`);
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The page of `parley web --demo` as a visitor's browser shows it, a conversation open. */
async function photographWeb(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "parley-shots-web-"));
  const server = spawn(process.execPath, [CLI, "web", "--demo", "--port", "0"], {
    env: {
      ...process.env,
      HOME: home,
      XDG_DATA_HOME: join(home, "data"),
      XDG_STATE_HOME: join(home, "state"),
    },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  try {
    let url = "";
    for await (const line of createInterface({ input: server.stdout! })) {
      url = /listening on (http:\S+)/.exec(line)?.[1] ?? "";
      if (url) break;
    }
    if (!url) fail("parley web did not start");
    const tab = await browser.newPage({
      viewport: { width: 1100, height: 640 },
      colorScheme: "dark",
    });
    await tab.goto(url);
    const rows = () =>
      tab.evaluate(
        '[...document.querySelectorAll(".xterm-rows > div")].map((r) => r.textContent).join("\\n")',
      ) as Promise<string>;
    const until = async (check: (text: string) => boolean, what: string) => {
      for (let i = 0; i < 200; i++) {
        if (check(await rows())) return;
        await sleep(100);
      }
      fail(`parley web: no ${what} on the page`);
    };
    await until((text) => text.includes("#team") && text.includes("online"), "first frame");
    await tab.keyboard.press("Enter");
    await until((text) => text.includes("Message "), "open conversation");
    await sleep(1000);
    const path = join(OUT, "web.png");
    await tab.screenshot({ path, animations: "disabled" });
    console.log(`${relative(ROOT, path)}  ${Math.round(statSync(path).size / 1024)} KB`);
  } finally {
    await browser.close();
    server.kill("SIGTERM");
    rmSync(home, { recursive: true, force: true });
  }
}

try {
  checkPrerequisites();
  await render(await capture());
  await photographWeb();
} catch (error) {
  if (!(error instanceof Failure)) throw error;
  console.error(`screenshots: ${error.message}`);
  process.exitCode = 1;
}
