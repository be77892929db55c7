// The files of `parley web`'s page, read once at start: the page's own (src/web/page/) and
// xterm.js with its addons, from the package. Built, all of them sit in dist/web/ (copied
// by rolldown.config.ts); from source, xterm's come from node_modules. Nothing is fetched
// from elsewhere, and nothing outside this list is served.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

export type Asset = { body: Buffer; type: string };

/** What the page loads, by the name it asks for, and where it comes from in a package. */
export const VENDOR_FILES: Record<string, string> = {
  "xterm.mjs": "@xterm/xterm/lib/xterm.mjs",
  "xterm.css": "@xterm/xterm/css/xterm.css",
  "addon-fit.mjs": "@xterm/addon-fit/lib/addon-fit.mjs",
  "addon-web-links.mjs": "@xterm/addon-web-links/lib/addon-web-links.mjs",
  "addon-unicode11.mjs": "@xterm/addon-unicode11/lib/addon-unicode11.mjs",
};
export const PAGE_FILES = ["index.html", "page.js", "page.css"];

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
};

function typeOf(name: string): string {
  return TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";
}

/**
 * The page's files from `dir` (dist/web/ or src/web/page/), xterm's from `dir` too when
 * they were copied there, else from node_modules. `mode` says whether the page signs in
 * with a token or goes straight into the demo.
 */
export function loadAssets(dir: URL, mode: "demo" | "token"): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of PAGE_FILES) {
    let body = readFileSync(new URL(name, dir));
    if (name === "index.html") body = Buffer.from(body.toString("utf8").replace("{{mode}}", mode));
    assets.set(name, { body, type: typeOf(name) });
  }
  const require = createRequire(import.meta.url);
  for (const [name, from] of Object.entries(VENDOR_FILES)) {
    let body: Buffer;
    try {
      body = readFileSync(new URL(name, dir));
    } catch {
      body = readFileSync(require.resolve(from));
    }
    assets.set(name, { body, type: typeOf(name) });
  }
  return assets;
}
