// What a person who quits while the server is gone finds at the next start: the built
// `parley` in tmux, against the real server that goes away, offline for a while before
// the quit (its refreshes failing meanwhile). A soak (`npm run test:soak`): it waits out
// that while; the rest of what survives an outage is in offline.test.ts.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { pause } from "../wait.ts";
import { clientIn, keptFolders } from "./kept-home.ts";
import { connectionState, sidebarRows } from "./screen.ts";
import { e2eEachTest, hasTmux, type Pane } from "./tmux.ts";

const cleanups = e2eEachTest();

describe.skipIf(!hasTmux())("quitting offline", () => {
  it("shows at a start without the server the list it showed when it quit offline", async () => {
    const { dir, home } = keptFolders(cleanups, "parley-offline");
    const server = await startServer({ port: 0, db: join(dir, "server.db"), demo: true });
    let closed = false;
    cleanups.push(() => (closed ? undefined : server.close()));
    const client = (): Pane => clientIn(home, server.url, server.demoUsers[0]!.token, cleanups);
    // Every row with a preview, as the first run shows it online.
    const allPreviews = (s: string) => {
      const rows = sidebarRows(s);
      return rows.length >= 8 && rows.every((r) => r.preview !== "");
    };
    const first = client();
    const online = await first.waitFor(
      (s) => connectionState(s) === "online" && allPreviews(s),
      "the list with its previews",
      30_000,
    );
    const shown = sidebarRows(online).map((r) => [r.name, r.preview]);

    await server.close();
    closed = true;
    // Offline long enough for the list's own poll to fail too.
    await first.waitFor((s) => s.includes("○ offline"), "offline", 30_000);
    await first.waitFor(
      (s) => /last synced|Cannot reach/.test(s) && sidebarRows(s).length === shown.length,
      "the list still shown offline",
    );
    // Offline for a while, as a person would be, before quitting: the list's refreshes fail.
    await pause(6_000);
    first.send("q");
    await first.waitFor((s) => s.includes("EXITED="), "the client gone");

    const second = client();
    const restored = await second.waitFor(
      (s) => s.includes("last synced") && sidebarRows(s).length === shown.length,
      "the list kept from the last run",
      30_000,
    );
    expect(sidebarRows(restored).map((r) => [r.name, r.preview])).toEqual(shown);
    expect(restored).not.toContain("not known yet");
    // The muted filter, never loaded: the muted rows of the kept list, not "loading…".
    const mutedNames = sidebarRows(online)
      .filter((r) => r.icons.includes("🔕"))
      .map((r) => r.name);
    expect(mutedNames.length).toBeGreaterThan(0);
    second.send("3");
    const muted = await second.waitFor(
      (s) => sidebarRows(s).length === mutedNames.length,
      "the muted rows of the kept list",
    );
    expect(muted).not.toContain("loading…");
    expect(sidebarRows(muted).map((r) => r.name)).toEqual(mutedNames);
  }, 120_000);
});
