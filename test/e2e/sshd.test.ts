// parley over a real SSH session: OpenSSH's sshd on loopback, the ssh client in a tmux
// pane (a real local terminal), the built parley on the other side in sshd's
// pseudo-terminal. A whole session ends with `q` and gives the local terminal back; a
// dropped connection (the ssh client killed) ends the remote parley at once, without
// losing or corrupting what the embedded server had acknowledged.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { until } from "../wait.ts";
import {
  databaseOf,
  parleyProcesses,
  remoteParley,
  type Sshd,
  sshdSkipReason,
  startSshd,
} from "./sshd.ts";
import { beat, CLI, descendantPid, type Pane, startPane } from "./tmux.ts";

const skip = sshdSkipReason();
// Esc and a letter in one read would be Alt+letter; typed text and Enter in one read is a paste.

// Loaded, with a row selected (Enter opens the selected one).
const listed = (s: string) => s.includes("● online") && s.includes("#team") && /^[│║]▸/m.test(s);
/** The status bar: the focused pane's keys. */
const statusBar = (s: string) =>
  s
    .split("\n")
    .filter((l) => l.trim())
    .at(-1) ?? "";
const sent = (text: string) => (s: string) =>
  new RegExp(`you · \\d\\d:\\d\\d.*\\n.*${text}`).test(s) && !s.includes("sending…");

let sshd: Sshd | undefined;
let panes: Pane[] = [];
let homes: string[] = [];

/** A parley home for the remote side: its own XDG folders, so a fresh demo. */
function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), "parley-ssh-"));
  homes.push(home);
  return home;
}

/** ssh in a tmux pane, between two snapshots of the local terminal settings. */
function sshPane(home: string): Pane {
  const ssh = sshd!.ssh(remoteParley(home));
  const pane = startPane({
    command: `before=$(stty -g); ${ssh}; code=$?; [ "$(stty -g)" = "$before" ] && echo TTY-RESTORED; printf 'CODE=%s\\n' $code`,
    columns: 120,
    rows: 40,
  });
  panes.push(pane);
  return pane;
}

async function openFirstAndSend(p: Pane, text: string): Promise<void> {
  await p.waitFor(listed, "the conversation list over ssh", 30_000);
  p.send("Enter");
  await p.waitFor((s) => /Message \S+/.test(s), "the composer");
  p.type(text);
  // Each hop (tmux, ssh, sshd) may batch what it reads: wait for the text to arrive
  // before Enter, and for each focus change before the next key.
  await p.waitFor((s) => s.includes(text), "the typed text");
  await beat();
  p.send("Enter");
  await p.waitFor(sent(text), `"${text}" sent`);
}

/** Esc from the composer to the messages, and wait until the messages have the keys. */
async function toMessages(p: Pane): Promise<void> {
  await beat();
  p.send("Escape");
  await p.waitFor((s) => statusBar(s).includes("r react"), "the messages focused");
  await beat();
}

describe.skipIf(skip !== undefined)(
  `parley over a real SSH session (OpenSSH)${skip ? ` — skipped: ${skip}` : ""}`,
  () => {
    beforeAll(async () => {
      if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build (npm test does)`);
      sshd = await startSshd();
    });

    afterAll(async () => {
      await sshd?.stop();
    });

    afterEach(() => {
      for (const pane of panes) pane.kill();
      for (const home of homes) {
        // Whatever a failed test left running on the remote side.
        for (const pid of parleyProcesses(join(home, "data"))) {
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            // gone meanwhile
          }
        }
        rmSync(home, { recursive: true, force: true });
      }
      panes = [];
      homes = [];
    });

    it("opens, sends, reacts and quits; ssh exits 0 and the local terminal is restored", async () => {
      const p = sshPane(newHome());
      const started = Date.now();
      await p.waitFor(listed, "the conversation list over ssh", 30_000);
      console.log(`ssh: login to conversation list in ${Date.now() - started} ms`);
      expect(p.info("#{alternate_on}")).toBe("1");

      // "hi" gets the demo bob's 👋 if any reaction, so 👍 1 can only be ours.
      await openFirstAndSend(p, "hi over ssh");

      await toMessages(p);
      p.send("r");
      await p.waitFor(
        (s) => s.includes("Enter or 1-9 toggles your reaction"),
        "the reaction picker",
      );
      p.send("Enter");
      await p.waitFor((s) => s.includes("👍 1"), "the reaction");

      p.send("q");
      const after = await p.waitFor((s) => s.includes("CODE="), "ssh to return", 15_000);
      expect(after, sshd!.log()).toContain("CODE=0");
      expect(after).toContain("TTY-RESTORED");
      expect(p.info("#{alternate_on}")).toBe("0");
      expect(p.info("#{cursor_flag}")).toBe("1");
    }, 120_000);

    it("a dropped connection ends the remote parley and keeps what was acknowledged", async () => {
      const home = newHome();
      const dataHome = join(home, "data");
      const text = `kept after the drop ${Date.now() % 100_000}`;
      const p = sshPane(home);
      await openFirstAndSend(p, text);

      const running = parleyProcesses(dataHome);
      expect(running, "one remote parley for this XDG_DATA_HOME").toHaveLength(1);
      const ssh = descendantPid(Number(p.info("#{pane_pid}")), "ssh");
      expect(ssh, "the local ssh client").toBeDefined();

      const dropped = Date.now();
      process.kill(ssh!, "SIGKILL");
      await until(() => parleyProcesses(dataHome).length === 0, "parley to end", {
        timeoutMs: 10_000,
      }).catch(() => undefined);
      const left = parleyProcesses(dataHome);
      const elapsed = Date.now() - dropped;
      console.log(
        `ssh: remote parley gone ${elapsed} ms after the client was killed${left.length ? " (still running)" : ""}`,
      );
      // How soon is in the log (some 60 to 150 ms here): a timed assertion would fail on a
      // busy machine, not on a parley that stays behind, which the 10 s above catches.
      expect(left, `parley still running ${elapsed} ms after the drop`).toEqual([]);

      // It went the orderly way (SIGHUP, or the terminal's end), not through a crash.
      const state = join(home, "state", "parley");
      const crashes = (existsSync(state) ? readdirSync(state) : [])
        .filter((f) => f.startsWith("crash-"))
        .map((f) => readFileSync(join(state, f), "utf8"));
      expect(crashes, "crash logs after the drop").toEqual([]);

      // The database is whole, and holds the message the server had acknowledged.
      const db = new DatabaseSync(databaseOf(home), { readOnly: true });
      try {
        expect(db.prepare("PRAGMA integrity_check").all()).toEqual([{ integrity_check: "ok" }]);
        const rows = db.prepare("SELECT body FROM messages WHERE body = ?").all(text);
        expect(rows).toHaveLength(1);
      } finally {
        db.close();
      }

      // And the next session over ssh shows it.
      const again = sshPane(home);
      await again.waitFor(listed, "the conversation list again", 30_000);
      again.send("Enter");
      await again.waitFor((s) => s.includes(text), "the kept message");
      await toMessages(again);
      again.send("q");
      const after = await again.waitFor((s) => s.includes("CODE="), "ssh to return", 15_000);
      expect(after).toContain("CODE=0");
    }, 120_000);
  },
);
