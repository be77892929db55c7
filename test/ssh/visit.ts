// One person's visit to `parley ssh`, as an ssh2 client: sign in, open the first
// conversation, type, and hang up.

import ssh2 from "ssh2";
import { afterAll, beforeAll } from "vitest";
import { type RunningServer, startServer } from "../../src/server/index.ts";
import { newHostKey } from "../../src/ssh/host-key.ts";
import { type SshServer, type SshServerOptions, startSshServer } from "../../src/ssh/server.ts";
import { virtualTerminal } from "../virtual-terminal.ts";

export const clientKey = newHostKey().private;

/**
 * Resolves, once the visit is over, with the screen as it was when the composer showed
 * (before typing). `text` is typed into the composer; the visit hangs up once it is
 * echoed, after `holdMs` more (time for the client to save a draft, say).
 */
export function visit(
  server: { host: string; port: number },
  username: string,
  options: { text?: string; holdMs?: number } = {},
): Promise<string> {
  const text = options.text ?? "hello from a visit";
  return new Promise((resolve, reject) => {
    const client = new ssh2.Client();
    let screen = "";
    let step = 0;
    const term = virtualTerminal(120, 40);
    /** How often the typed text shows on screen (a draft kept from a visit before has it). */
    const shown = () => term.screen().split(text).length - 1;
    let shownBefore = 0;
    const steps = ["no frame", "no composer", "no echo"];
    const timer = setTimeout(
      () =>
        reject(
          new Error(
            `${username}: ${steps[step] ?? "no end"}; last printed: ${JSON.stringify(term.screen().slice(-600))}`,
          ),
        ),
      20_000,
    );
    client.on("error", reject);
    client.on("ready", () => {
      client.shell({ term: "xterm-256color", cols: 120, rows: 40 }, (error, stream) => {
        if (error) return reject(error);
        let atComposer: string | undefined;
        // Enter on a list still settling can be dropped (no row selected yet): again, until
        // the conversation opens.
        let again: NodeJS.Timeout | undefined;
        const hangUp = () => {
          step = 3;
          clearTimeout(timer);
          setTimeout(() => client.end(), options.holdMs ?? 0);
        };
        // Each step reads the screen as the terminal shows it, once it has drawn the chunk.
        stream.on("data", (chunk: Buffer) => {
          screen += chunk.toString("utf8");
          term.write(chunk, () => {
            const now = term.screen();
            if (step === 0 && now.includes("online") && now.includes("▸")) {
              step = 1;
              stream.write("\r");
              again = setInterval(() => stream.write("\r"), 2000);
            } else if (step === 1 && now.includes("Ctrl+J newline")) {
              step = 2;
              clearInterval(again);
              atComposer = screen;
              shownBefore = shown();
              if (text) stream.write(text);
              else hangUp();
            } else if (step === 2 && shown() > shownBefore) {
              hangUp();
            }
          });
        });
        stream.on("close", () => {
          clearInterval(again);
          resolve(atComposer ?? screen);
        });
      });
    });
    client.connect({ host: server.host, port: server.port, username, privateKey: clientKey });
  });
}

/**
 * The demo API and `parley ssh` in this process, every line of the ssh server's log kept;
 * `options` adds limits or a keep folder.
 */
export async function startInProcessSsh(
  options: Partial<Omit<SshServerOptions, "hostKey" | "api" | "authorizedKeys">> = {},
): Promise<{ api: RunningServer; ssh: SshServer; log: string[]; close(): Promise<void> }> {
  const api = await startServer({ port: 0, demo: true, demoReplies: false });
  const log: string[] = [];
  const ssh = await startSshServer({
    hostKey: newHostKey().private,
    api: { url: api.url, users: api.demoUsers },
    authorizedKeys: null,
    log: (line) => log.push(line),
    ...options,
  });
  return {
    api,
    ssh,
    log,
    close: async () => {
      await ssh.close();
      await api.close();
    },
  };
}

/**
 * The demo server and `parley ssh` in this process (any key signs in as any demo user),
 * started before the file's tests and closed after them. Read `api` and `ssh` in tests.
 */
export function inProcessSshForFile(): { api: RunningServer; ssh: SshServer } {
  const running = {} as { api: RunningServer; ssh: SshServer; close(): Promise<void> };
  beforeAll(async () => {
    Object.assign(running, await startInProcessSsh());
  });
  afterAll(() => running.close?.());
  return running;
}
