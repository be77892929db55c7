// Node's own warnings while the client runs (src/client/files.ts warningsToLog): into the
// client's log, escaped, never onto the screen; Node's printer back afterwards.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import { warningsToLog } from "../../src/client/files.ts";

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it("puts Node's warnings in the log, not on the screen, and gives the printer back", async () => {
  const dir = mkdtempSync(join(tmpdir(), "parley-warnings-"));
  dirs.push(dir);
  const log = join(dir, "client.log");
  const printers = process.listeners("warning");
  const restore = warningsToLog(log);
  const stderr = vi.spyOn(process.stderr, "write");
  try {
    process.emitWarning("-1 is a negative number \x1b[2J", "TimeoutNegativeWarning");
    // Node emits a warning on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(stderr).not.toHaveBeenCalled();
  } finally {
    restore();
  }
  const written = readFileSync(log, "utf8");
  expect(written).toContain("node warning: TimeoutNegativeWarning: -1 is a negative number");
  expect(written).not.toContain("\x1b");
  expect(process.listeners("warning")).toEqual(printers);
});
