// Issue 40, trip 13: a server that takes the connection and never answers is said in one
// set of words wherever it shows, the list and the pane alike, never "loading…" in one
// and "did not answer" in the other.
import { createServer, type Server, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { harnessEachTest } from "./harness.tsx";

const each = harnessEachTest();

/** A server that takes connections and says nothing on them. */
async function silentServer(): Promise<{ url: string; close: () => void }> {
  const held: Socket[] = [];
  const server: Server = createServer((socket) => held.push(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as import("node:net").AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      for (const socket of held) socket.destroy();
      server.close();
    },
  };
}

describe("a silent server", () => {
  it("is said the same way in the list and the pane", async () => {
    const silent = await silentServer();
    each.afterTest(silent.close);
    const h = await each.start({ baseUrl: silent.url, timeoutMs: 1000 });
    const said = "did not answer within 1 s";
    // Each side's words, its lines joined (the list wraps them at its width).
    const side = (screen: string, i: 0 | 1) =>
      screen
        .split("\n")
        .map((line) => (line.split("││")[i] ?? "").replace(/[│╭╮╰╯─]/g, "").trim())
        .join(" ");
    const screen = await h.waitFor(
      (s) => side(s, 0).includes(said) && side(s, 1).includes(said),
      "the silence said in the list and beside it",
    );
    expect(screen).not.toContain("loading…");
  });
});
