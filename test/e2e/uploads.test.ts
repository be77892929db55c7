// /attach PATH with the real built client in tmux, on its embedded server: a file from the
// person's home is uploaded, shown above the draft, sent, and the server holds its bytes
// behind the URL the message carries.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLI, enterLine, hasTmux, type Pane, startPane } from "./tmux.ts";

let pane: Pane | undefined;

beforeAll(() => {
  if (!hasTmux()) return;
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build (npm test does)`);
});

afterEach(() => {
  const home = pane?.home;
  pane?.kill();
  pane = undefined;
  if (home) rmSync(home, { recursive: true, force: true });
});

describe.skipIf(!hasTmux())("/attach PATH in the built client", () => {
  it("uploads a file from the home folder and sends it as an attachment", async () => {
    pane = startPane({ command: `node ${JSON.stringify(CLI)}`, columns: 110, rows: 30 });
    const p = pane;
    const bytes = Buffer.from(`quarterly numbers ${Date.now()}\n`.repeat(40_000));
    mkdirSync(join(p.home, "docs"), { recursive: true });
    writeFileSync(join(p.home, "docs", "numbers.csv"), bytes);
    await p.waitFor((s) => s.includes("● online") && /^[│║]▸/m.test(s), "the list", 30_000);
    p.send("Enter");
    await p.waitFor(
      (s) => s.includes("/attach URL or path, up to 25 MB"),
      "the composer, with the limit",
    );
    await enterLine(p, "/attach ~/docs/numbers.csv");
    await p.waitFor((s) => s.includes("📎 numbers.csv · CSV"), "the attachment above the draft");
    await enterLine(p, "the numbers");
    await p.waitFor(
      (s) =>
        /you · \d\d:\d\d[\s\S]*the numbers[\s\S]*📎 numbers\.csv/u.test(s) &&
        !s.includes("sending…"),
      "the message sent with it",
    );

    // The embedded server stored the file; its URL serves the same bytes.
    const db = new DatabaseSync(join(p.home, "data", "parley", "parley.db"), { readOnly: true });
    let url: string;
    try {
      const row = db
        .prepare("SELECT file_url FROM attachments WHERE filename = 'numbers.csv'")
        .get() as { file_url: string };
      url = row.file_url;
    } finally {
      db.close();
    }
    const fetched = await fetch(url);
    expect(fetched.headers.get("content-disposition")).toMatch(
      /^attachment; filename="numbers\.csv"/,
    );
    expect(Buffer.from(await fetched.arrayBuffer()).equals(bytes)).toBe(true);
  }, 60_000);
});
