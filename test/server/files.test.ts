// The files parley writes are private however they were found: a database, its -wal/-shm
// and its folder made looser beforehand are tightened on open, and nothing is written
// through a symbolic link. SQLite only (PostgreSQL keeps no files of parley's).
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { logLine } from "../../src/client/files.ts";
import { startServer } from "../../src/server/index.ts";
import { STORE } from "./stores.ts";

const mode = (path: string) => lstatSync(path).mode & 0o777;

describe.skipIf(STORE !== "sqlite" || process.platform === "win32")("private files", () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-files-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("tightens a database, its WAL and SHM, and parley's folder made looser beforehand", async () => {
    const folder = join(dir, "data", "parley");
    const db = join(folder, "server.db");
    await (await startServer({ db })).close();
    mkdirSync(folder, { recursive: true });
    chmodSync(folder, 0o755);
    chmodSync(db, 0o644);
    for (const suffix of ["-wal", "-shm"]) writeFileSync(`${db}${suffix}`, "", { mode: 0o644 });
    const server = await startServer({ db });
    try {
      expect(mode(folder)).toBe(0o700);
      expect(mode(db)).toBe(0o600);
      expect(mode(`${db}-wal`)).toBe(0o600);
      expect(mode(`${db}-shm`)).toBe(0o600);
    } finally {
      await server.close();
    }
  });

  it("leaves a folder that is not parley's alone", async () => {
    const folder = join(dir, "shared");
    mkdirSync(folder, { mode: 0o755 });
    chmodSync(folder, 0o755);
    await (await startServer({ db: join(folder, "server.db") })).close();
    expect(mode(folder)).toBe(0o755);
    expect(mode(join(folder, "server.db"))).toBe(0o600);
  });

  it("refuses a database, WAL or SHM that is a symbolic link", async () => {
    const target = join(dir, "elsewhere.db");
    writeFileSync(target, "", { mode: 0o644 });
    const linked = join(dir, "linked.db");
    symlinkSync(target, linked);
    await expect(startServer({ db: linked })).rejects.toThrow(/symbolic link/);
    expect(statSync(target).size).toBe(0);
    expect(mode(target)).toBe(0o644);

    const db = join(dir, "wal.db");
    await (await startServer({ db })).close();
    symlinkSync(target, `${db}-wal`);
    await expect(startServer({ db })).rejects.toThrow(/-wal is a symbolic link/);
    expect(statSync(target).size).toBe(0);
  });

  it("appends to parley.log only as a private file, never through a symbolic link", () => {
    const state = join(dir, "state");
    mkdirSync(state);
    const target = join(dir, "victim.txt");
    writeFileSync(target, "keep\n");
    symlinkSync(target, join(state, "parley.log"));
    logLine(join(state, "parley.log"), "through the link");
    expect(readFileSync(target, "utf8")).toBe("keep\n");

    const log = join(dir, "parley.log");
    writeFileSync(log, "old\n", { mode: 0o644 });
    chmodSync(log, 0o644);
    logLine(log, "new \u001b line");
    expect(mode(log)).toBe(0o600);
    expect(readFileSync(log, "utf8")).toMatch(/^old\n\S+ new \u001b line\n$/);
  });
});
