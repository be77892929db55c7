// The connection: a server that is down, a retry at once with Ctrl+R, a token refused.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { harnessEachTest, KEYS } from "./harness.tsx";

const each = harnessEachTest();

describe("the connection", () => {
  /** A client whose server is down (its port free), and a way to bring that server back. */
  async function clientOfADeadServer() {
    const dir = mkdtempSync(join(tmpdir(), "parley-down-"));
    each.afterTest(() => rmSync(dir, { recursive: true, force: true }));
    const db = join(dir, "server.db");
    const first = await startServer({ port: 0, db, demo: true, demoReplies: false });
    const { port, url } = first;
    const token = first.demoUsers[0]!.token;
    await first.close();
    const harness = await each.start({ server: first, baseUrl: url, token });
    const restart = async () => {
      const again = await startServer({ port, db, demo: true, demoReplies: false });
      each.afterTest(() => again.close());
    };
    return { client: harness, url, restart };
  }

  it("says a server that is down is unreachable, retries, and recovers when it returns", async () => {
    const { client, url, restart } = await clientOfADeadServer();
    await client.waitFor(
      (s) => s.includes(`Cannot reach ${url}`) && s.includes("offline"),
      "the offline screen",
    );
    await restart();
    await client.waitFor((s) => s.includes("● online") && s.includes("#team"), "recovery", 40_000);
  }, 60_000);

  it("retries at once with Ctrl+R instead of waiting out the back-off", async () => {
    const { client, restart } = await clientOfADeadServer();
    await client.waitFor((s) => s.includes("Ctrl+R: now"), "the offline screen");
    await restart();
    // The list's next try by itself is 10 s (±15%) after its first failure: well after this.
    await client.press(KEYS.ctrlR);
    await client.waitFor((s) => s.includes("● online") && s.includes("#team"), "online", 6000);
  }, 30_000);

  it("says the token was rejected and how to set one", async () => {
    const harness = await each.start({ token: "not-a-token" });
    await harness.waitFor(
      (s) => s.includes("rejected the token") && s.includes("PARLEY_TOKEN"),
      "the 401 screen",
    );
  });
});
