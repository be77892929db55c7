// Issue 40, trip 7: a base URL whose path is wrong (`…/v1`, `…/api`) answers 404 for the
// API's lists. The status bar says so at once, with what to try, instead of "connecting…"
// for good; the list says it too, instead of the 404's "does not know that conversation".
import { describe, expect, it } from "vitest";
import { harnessEachTest } from "./harness.tsx";

/** The screen's last row: the status bar. */
const statusLine = (screen: string) => screen.trimEnd().split("\n").at(-1) ?? "";

const each = harnessEachTest();

describe("a base URL beside the API", () => {
  it.each(["/v1", "/api"])(
    "ending in %s says so in the status bar, and what to try",
    async (path) => {
      const server = await each.server();
      const h = await each.start({ server, baseUrl: `${server.url}${path}` });
      const screen = await h.waitFor(
        (s) => s.includes("No API at this base URL"),
        "the wrong base URL said",
      );
      const bar = statusLine(screen);
      expect(bar).toContain("drop /v1 or /api");
      expect(bar).toContain("✗ no API");
      expect(screen).not.toContain("connecting…");
      expect(screen).not.toContain("does not know that conversation");
    },
  );
});
