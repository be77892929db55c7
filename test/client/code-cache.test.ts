// src/code-cache.ts in child processes, as dist/cli.js uses it: a bundle's CommonJS files
// compiled with the cache the last run kept, and the cache kept only in a folder no one
// else can write, only when V8 would take it back, and only for this bundle's files.
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cacheFolder } from "../../src/code-cache.ts";

const SOURCE = pathToFileURL(resolve(import.meta.dirname, "../../src/code-cache.ts")).href;

// Loads the bundle's entry, runs it, then keeps the cache (after --expose-gc, as the
// client sets it for src/client/heap-trim.ts, when asked).
const HARNESS = `
import { createRequire } from "node:module";
import { setFlagsFromString } from "node:v8";
import { cacheFolder, installCodeCache } from ${JSON.stringify(SOURCE)};
const [bundle, base, flags] = process.argv.slice(2);
const cache = installCodeCache(bundle, cacheFolder(process.env, bundle, base));
const entry = createRequire(bundle + "/")("./entry.cjs");
const answer = entry.run();
if (flags === "flags") setFlagsFromString("--expose-gc");
cache.save();
console.log(JSON.stringify({ folder: cache.folder ?? null, loaded: cache.loaded(), answer }));
`;

type Report = { folder: string | null; loaded: { file: string; kept: boolean }[]; answer: number };

let work: string;
let bundle: string;
let base: string;
let harness: string;

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), "parley-code-cache-"));
  bundle = join(work, "dist");
  base = join(work, "tmp");
  mkdirSync(join(bundle, "chunks"), { recursive: true });
  mkdirSync(base);
  writeFileSync(
    join(bundle, "entry.cjs"),
    '#!/usr/bin/env node\nconst helper = require("./chunks/helper-A1.cjs");\nexports.run = () => helper.twice(21);\n',
  );
  writeFileSync(join(bundle, "chunks", "helper-A1.cjs"), "exports.twice = (n) => n * 2;\n");
  harness = join(work, "harness.mjs");
  writeFileSync(harness, HARNESS);
});
afterEach(() => {
  rmSync(work, { recursive: true, force: true });
});

function run(options: { flags?: boolean; env?: NodeJS.ProcessEnv } = {}): Report {
  const { NODE_COMPILE_CACHE: _, NODE_DISABLE_COMPILE_CACHE: __, ...env } = process.env;
  const child = spawnSync(
    process.execPath,
    [
      "--experimental-strip-types",
      "--no-warnings",
      harness,
      bundle,
      base,
      options.flags ? "flags" : "",
    ],
    { encoding: "utf8", env: { ...env, ...options.env } },
  );
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout) as Report;
}

const kept = (report: Report) => report.loaded.map(({ kept }) => kept);
/** The folder's files, without the size and time each cache file's name carries. */
const names = (folder: string) =>
  readdirSync(folder)
    .map((name) => name.replace(/\.[0-9]+-[0-9]+\.cache$/, ".cache"))
    .sort();
const cacheOf = (folder: string, file: string) =>
  join(folder, readdirSync(folder).find((name) => name.startsWith(`${file}.`))!);

describe.skipIf(process.getuid === undefined)("V8's code cache of the bundle", () => {
  it("is kept after the first run and used by the next", () => {
    const first = run();
    expect(first.answer).toBe(42);
    expect(kept(first)).toEqual([false, false]);
    const folder = first.folder!;
    expect(names(folder)).toEqual(["bundle", "entry.cjs.cache", "helper-A1.cjs.cache"]);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(cacheOf(folder, "entry.cjs")).mode & 0o777).toBe(0o600);

    const next = run();
    expect(next.answer).toBe(42);
    expect(next.folder).toBe(folder);
    expect(kept(next)).toEqual([true, true]);
  });

  it("never runs a rebuilt file from the old one's cache, even of the same length", () => {
    expect(run().answer).toBe(42);
    // V8 checks only the source's length: the old code would answer 42.
    writeFileSync(join(bundle, "chunks", "helper-A1.cjs"), "exports.twice = (n) => n * 3;\n");
    const rebuilt = run();
    expect(rebuilt.answer).toBe(63);
    expect(kept(rebuilt)).toEqual([true, false]);
    expect(names(rebuilt.folder!)).toEqual(["bundle", "entry.cjs.cache", "helper-A1.cjs.cache"]);
    expect(kept(run())).toEqual([true, true]);
  });

  it("compiles a file again when V8 refuses its cache, and keeps a new one", () => {
    const folder = run().folder!;
    writeFileSync(cacheOf(folder, "helper-A1.cjs"), "not V8's cache");
    const refused = run();
    expect(refused.answer).toBe(42);
    expect(kept(refused)).toEqual([true, false]);
    expect(kept(run())).toEqual([true, true]);
  });

  it("is not kept once V8's flags have changed, which would make the next start refuse it", () => {
    const report = run({ flags: true });
    expect(report.answer).toBe(42);
    expect(names(report.folder!)).toEqual(["bundle"]);
  });

  it("tidies away earlier builds' files", () => {
    const folder = run().folder!;
    writeFileSync(join(folder, "helper-OLD.cjs.cache"), "");
    writeFileSync(join(bundle, "chunks", "postgres-B2.cjs"), "exports.unused = 1;\n");
    rmSync(cacheOf(folder, "entry.cjs"));
    run();
    expect(names(folder)).toEqual(["bundle", "entry.cjs.cache", "helper-A1.cjs.cache"]);
  });

  it("is kept by each install in a folder of its own, gone once the install is", () => {
    const other = join(work, "other");
    const otherFolder = cacheFolder({}, other, base)!;
    const gone = cacheFolder({}, join(work, "gone"), base)!;
    expect(otherFolder).not.toBe(cacheFolder({}, bundle, base));
    mkdirSync(other);
    const folder = run().folder!;
    expect(existsSync(folder)).toBe(true);
    expect(existsSync(otherFolder)).toBe(true);
    expect(existsSync(gone)).toBe(false);
  });

  it("is off, and Node loads the bundle, where the folder could be another user's", () => {
    const root = join(base, `parley-code-${process.getuid!()}`);
    mkdirSync(root);
    chmodSync(root, 0o777);
    const open = run();
    expect(open).toEqual({ folder: null, loaded: [], answer: 42 });
    rmSync(root, { recursive: true });

    const elsewhere = join(work, "elsewhere");
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, root);
    expect(run()).toEqual({ folder: null, loaded: [], answer: 42 });
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it("is off with Node's own compile cache (NODE_DISABLE_COMPILE_CACHE)", () => {
    expect(run({ env: { NODE_DISABLE_COMPILE_CACHE: "1" } })).toEqual({
      folder: null,
      loaded: [],
      answer: 42,
    });
    expect(existsSync(join(base, `parley-code-${process.getuid!()}`))).toBe(false);
  });

  it("follows NODE_COMPILE_CACHE", () => {
    const chosen = join(work, "chosen");
    const report = run({ env: { NODE_COMPILE_CACHE: chosen } });
    expect(report.folder!.startsWith(join(chosen, `parley-code-${process.getuid!()}`))).toBe(true);
  });
});
