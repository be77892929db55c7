// What the built client loads before its first frame: a usual start (the demo's database
// and the cache the last run kept) draws the list before it loads what only talking to
// the server needs, which the embedded server's own thread loads meanwhile.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, hasTmux, type Pane, ROOT, startPane } from "./tmux.ts";

const PROBE = join(ROOT, "test/e2e/first-frame-probe.mjs");

type Loaded = {
  when: "frame" | "exit";
  files: string[];
  builtins: string[];
  compiled?: { file: string; kept: boolean }[];
};

const UNDICI = "NativeModule internal/deps/undici/undici";

/** The bundle's files that hold a module from this package (rolldown marks each with its path). */
function filesHolding(loaded: Loaded, pkg: string): string[] {
  return loaded.files.filter((url) => {
    if (!url.startsWith("file:")) return false;
    const text = readFileSync(new URL(url), "utf8");
    return text.includes(`// node_modules/${pkg}/`);
  });
}

/**
 * A shell line that waits until `gate` exists: the next run starts when the test says, not
 * while "first done" may still be unread (a start now takes the screen within 100 ms).
 */
const untilExists = (gate: string) => `until [ -e ${gate} ]; do sleep 0.05; done`;

let pane: Pane | undefined;
let home: string | undefined;
afterEach(() => {
  pane?.kill();
  pane = undefined;
  if (home) rmSync(home, { recursive: true, force: true, maxRetries: 20 });
});

describe.skipIf(!hasTmux())("start-up", () => {
  it("draws a usual start's first frame before loading Ink, ofetch or the server, with the code the last run compiled, and never loads undici", async () => {
    home = mkdtempSync(join(tmpdir(), "parley-startup-"));
    const probe = join(home, "probe.jsonl");
    // V8's code cache of the bundle in a folder of this test's own (src/code-cache.ts).
    const client = `PARLEY_PROBE_FILE=${probe} NODE_COMPILE_CACHE=${join(home, "v8")} node --import ${PROBE} ${CLI}`;
    const gate = join(home, "next");
    // The first run creates the demo database and keeps the cache when it quits.
    pane = startPane({
      home,
      command: `${client}; echo first done; ${untilExists(gate)}; ${client}; echo usual done`,
    });
    const listed = (s: string) => s.includes("#team") && s.includes("online");
    await pane.waitFor(listed, "the first run's list", 30_000);
    pane.send("q");
    await pane.waitFor((s) => s.includes("first done"), "the first run to end");
    writeFileSync(gate, "");
    await pane.waitFor(listed, "the usual start's list", 30_000);
    pane.send("q");
    await pane.waitFor((s) => s.includes("usual done"), "the usual start to end");

    expect(existsSync(probe)).toBe(true);
    const records = readFileSync(probe, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Loaded);
    const [first, usual] = records.filter((r) => r.when === "frame");
    const exits = records.filter((r) => r.when === "exit");
    expect(exits).toHaveLength(2);
    // The probe sees what it should: the first run (no kept cache) asks the server first.
    expect(filesHolding(first!, "ofetch")).not.toEqual([]);
    expect(filesHolding(first!, "hono")).not.toEqual([]);
    expect(filesHolding(first!, "ink")).not.toEqual([]);
    // Node's fetch (undici) is never loaded, nor node:http2, though the client and its
    // embedded server have talked over HTTP all along (src/api/fetch-classes.ts).
    for (const loaded of [first!, ...exits]) {
      expect(loaded.builtins).toContain("NativeModule http");
      expect(loaded.builtins).not.toContain(UNDICI);
      expect(loaded.builtins).not.toContain("NativeModule http2");
    }
    // The bundle's code as the first run compiled it, kept at its quit, serves the next.
    expect(first!.compiled!.length).toBeGreaterThan(5);
    expect(first!.compiled!.filter((c) => c.kept)).toEqual([]);
    expect(usual!.compiled!.length).toBeGreaterThan(5);
    expect(usual!.compiled!.filter((c) => !c.kept)).toEqual([]);
    // Drawn from the start screen kept at the last quit: before React and Ink load.
    for (const pkg of ["react", "ink", "ofetch", "hono", "@hono/node-server", "ssh2", "postgres"]) {
      expect(filesHolding(usual!, pkg), pkg).toEqual([]);
    }
  });

  it("takes keys typed while it starts, and draws its first frame on a clean screen", async () => {
    home = mkdtempSync(join(tmpdir(), "parley-startup-"));
    // Between the runs: a key typed then is echoed by the terminal, which leaves the cursor
    // a column in.
    const gate = join(home, "next");
    pane = startPane({
      home,
      command: `node ${CLI}; echo first done; ${untilExists(gate)}; node ${CLI}`,
    });
    const listed = (s: string) => s.includes("#team") && s.includes("online");
    await pane.waitFor(listed, "the first run's list", 30_000);
    pane.send("q");
    await pane.waitFor((s) => s.includes("first done"), "the first run to end");
    // Typed before the second run starts, so the key waits in the terminal.
    pane.send("j");
    writeFileSync(gate, "");
    await pane.waitFor(listed, "the second run's list", 30_000);
    // j moved the selection from the first row (bob) to the second, and nothing was
    // echoed onto the screen the first frame went to: the header is the top line.
    const screen = await pane.waitFor(
      (s) => /▸📌 #design/u.test(s) && /^ parley · alice/.test(s.split("\n")[0] ?? ""),
      "j taken, under the header",
      5_000,
    );
    expect(screen).not.toMatch(/▸📌 bob/u);
  });
});
