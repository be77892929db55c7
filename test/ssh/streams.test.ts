// Every `parley ssh` session gets news the way the local client does: its own event
// stream, given back when the session ends.

import ssh2 from "ssh2";
import { describe, it } from "vitest";
import { until } from "../wait.ts";
import { clientKey, inProcessSshForFile } from "./visit.ts";

const running = inProcessSshForFile();

/** A session held open, on screen, until `end`. */
async function holdSession(username: string): Promise<{ end: () => void }> {
  const client = new ssh2.Client();
  await new Promise<void>((resolve, reject) => {
    client.on("error", reject);
    client.on("ready", () => {
      client.shell({ term: "xterm-256color", cols: 100, rows: 30 }, (error, stream) => {
        if (error) return reject(error);
        let screen = "";
        stream.on("data", (chunk: Buffer) => {
          screen += chunk.toString("utf8");
          if (screen.includes("online")) resolve();
        });
      });
    });
    client.connect({
      host: running.ssh.host,
      port: running.ssh.port,
      username,
      privateKey: clientKey,
    });
  });
  return { end: () => client.end() };
}

describe("parley ssh sessions and the event stream", () => {
  it("hold one stream each, and give it back when they end", async () => {
    const users = running.api.demoUsers.map((u) => u.username);
    const before = running.api.eventStreams();
    const held = await Promise.all(users.slice(0, 4).map(holdSession));
    await until(() => running.api.eventStreams() === before + 4, "a stream per session", {
      timeoutMs: 20_000,
    });
    for (const session of held) session.end();
    await until(() => running.ssh.liveSessions() === 0, "every session freed");
    await until(() => running.api.eventStreams() === before, "the streams closed");
  }, 60_000);
});
