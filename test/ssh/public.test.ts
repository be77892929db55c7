// `parley ssh` facing people it does not know: the built CLI, ssh2 clients doing what an
// attacker would. Each limit from "`parley ssh` in public" in docs/team.md is here,
// but for those that wait out a limit's time or draw screens of 1000x500 cells for half a
// minute: those are soaks (public.soak.test.ts), run by `npm run test:soak`.

import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startServer } from "../../src/server/index.ts";
import { newHostKey } from "../../src/ssh/host-key.ts";
import { CLI } from "../built.ts";
import { until } from "../wait.ts";
import {
  built,
  builtSshForFile,
  closedByServer,
  connect,
  connectWhenFree,
  refusedSocket,
  shell,
  silentSocket,
  startBuiltSsh,
} from "./built.ts";
import { startInProcessSsh } from "./visit.ts";

// One worker: every session below shares it, so one taking it down would show.
const demo = builtSshForFile(["--demo", "--threads", "1"]);

describe.skipIf(!built)("connections that do not sign in", () => {
  it("are capped in all and per address, and refused past the cap with one line each", async () => {
    const limits = ["--max-connections", "4", "--max-connections-per-address", "3"];
    const capped = await startBuiltSsh(["--demo", ...limits]);
    try {
      const first = await Promise.all([1, 2, 3].map(() => silentSocket(capped.port)));
      // A fourth from the same address is closed at once.
      await refusedSocket(capped.port);
      await until(
        () =>
          capped.log.some((l) =>
            /refused a connection from 127\.0\.0\.1: 3 connections from this address/.test(l),
          ),
        "the per-address refusal logged",
      );
      // Another address still gets in, up to the total.
      const other = await silentSocket(capped.port, "127.0.0.2");
      await refusedSocket(capped.port, "127.0.0.2");
      await until(
        () =>
          capped.log.some((l) =>
            l.includes("refused a connection from 127.0.0.2: 4 connections in all"),
          ),
        "the total refusal logged",
      );
      // Once they go, a person signs in as usual.
      for (const socket of [...first, other]) socket.destroy();
      const alice = await connectWhenFree(capped.port, "alice");
      const s = await shell(alice);
      await s.waitFor("online", "alice's list");
      alice.end();
    } finally {
      expect(await capped.stop()).toBe(0);
    }
  }, 60_000);

  it("are closed when they have not signed in in time, counted from accept", async () => {
    const { ssh, log, close } = await startInProcessSsh({ signInMs: 500 });
    try {
      // Silent from the start: no identification line, which ssh2's own timer waits for.
      await closedByServer(await silentSocket(ssh.port));
      expect(log.join("\n")).toMatch(/closed a connection from 127\.0\.0\.1: not signed in within/);
      // In process the log has no time and level: the CLI's log writer adds them (as here).
      const line = log.find((l) => l.includes("not signed in"))!;
      expect(hostBanned(`2026-11-27T10:00:00.000Z  WARN ${line}`)).toBe("127.0.0.1");
    } finally {
      await close();
    }
  }, 30_000);
});

/** docs/team.md's fail2ban filter: its failregex lines, with fail2ban's <HOST> as a capture. */
const FAIL2BAN = (() => {
  const doc = readFileSync(new URL("../../docs/team.md", import.meta.url), "utf8");
  const filter = /^failregex = ([^\n]+(?:\n {12}[^\n]+)*)/m.exec(doc)?.[1] ?? "";
  return filter.split("\n").map((line) => new RegExp(line.trim().replace("<HOST>", "(\\S+)")));
})();
/** The host the filter bans for `line`: fail2ban reads the time at its start itself. */
const hostBanned = (line: string) =>
  FAIL2BAN.map((re) => re.exec(line.replace(/^\S+Z/, ""))?.[1]).find(Boolean);

/** docs/team.md's filter, run by fail2ban itself on `lines` when it is installed: lines matched. */
function fail2banMatches(lines: string[]): number | undefined {
  const which = spawnSync("sh", ["-c", "command -v fail2ban-regex"], { encoding: "utf8" });
  if (which.status !== 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "parley-fail2ban-"));
  const doc = readFileSync(new URL("../../docs/team.md", import.meta.url), "utf8");
  const filter = /```ini\n(\[Definition\][\s\S]*?)```/.exec(doc)![1]!;
  writeFileSync(join(dir, "filter.conf"), filter);
  writeFileSync(join(dir, "sample.log"), `${lines.join("\n")}\n`);
  const run = spawnSync("fail2ban-regex", [join(dir, "sample.log"), join(dir, "filter.conf")], {
    encoding: "utf8",
  });
  rmSync(dir, { recursive: true, force: true });
  return Number(/^Lines: \d+ lines, \d+ ignored, (\d+) matched/m.exec(run.stdout)?.[1]);
}

describe.skipIf(!built)("failed sign-ins", () => {
  it("are logged one escaped line each, in the format the fail2ban filter reads", async () => {
    // Not the demo, which lets anyone in: a server with keys, and a password tried on it.
    const dir = mkdtempSync(join(tmpdir(), "parley-keys-"));
    const file = join(dir, "authorized_keys");
    writeFileSync(file, `parley-user="alice" ${newHostKey().public}\n`);
    const keyed = await startBuiltSsh(["--authorized-keys", file]);
    const hostile = 'mallory\x1b]0;owned\x07" from 6.6.6.6 port 1: ';
    try {
      await expect(connect(keyed.port, hostile, { password: "guess" })).rejects.toThrow();
      // A client with no key at all (ssh2 asks with "none" first) is refused too.
      await expect(connect(keyed.port, "alice", {})).rejects.toThrow();
      await until(() => keyed.log.some((l) => l.includes("failed sign-in")), "the failure logged");
    } finally {
      await keyed.stop();
      rmSync(dir, { recursive: true, force: true });
    }
    const line = keyed.log.find((l) => l.includes("failed sign-in"))!;
    expect(line).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    expect(line).toContain('user "mallory\\x1b]0;owned\\x07\\" from 6.6.6.6 port 1: ", password');
    expect(FAIL2BAN).toHaveLength(2);
    expect(hostBanned(line)).toBe("127.0.0.1");
    const matched = fail2banMatches([line]);
    if (matched !== undefined) expect(matched).toBe(1);
  }, 60_000);
});

describe.skipIf(!built)("a visitor with no key", () => {
  it("gets into the demo, and is logged as signed in with no key", async () => {
    const client = await connect(demo.server.port, "carol", {});
    const s = await shell(client);
    await s.waitFor("online", "carol's list");
    expect(s.screen()).toContain("parley · carol");
    await until(
      () => demo.server.log.some((l) => /carol \(127\.0\.0\.1:\d+\) signed in with no key/.test(l)),
      "the sign-in logged",
    );
    client.end();
    await s.closed;
  }, 60_000);
});

describe.skipIf(!built)("sessions", () => {
  it("are capped per connection and per user, each refusal said and logged", async () => {
    // Per user: in one shared world (in worlds of their own, every visitor may be alice).
    const limits = ["--max-sessions-per-connection", "2", "--max-sessions-per-user", "3"];
    const capped = await startBuiltSsh(["--demo", "shared", ...limits]);
    try {
      const one = await connect(capped.port, "frank");
      const shells = [await shell(one), await shell(one)];
      for (const s of shells) await s.waitFor("online", "frank's list");
      // A third shell on the same connection: its channel is refused.
      await expect(shell(one)).rejects.toThrow();
      const two = await connect(capped.port, "frank");
      const third = await shell(two);
      await third.waitFor("online", "frank's third session");
      const fourth = await shell(two);
      await fourth.closed;
      expect(fourth.text()).toContain("frank has 3 sessions open, the most one user may have");
      await until(
        () => capped.log.some((l) => l.includes('refused "frank" (127.0.0.1:')),
        "the refusal logged",
      );
      // Another user is not held back by frank.
      const erin = await shell(await connect(capped.port, "erin"));
      await erin.waitFor("online", "erin's list");
    } finally {
      expect(await capped.stop()).toBe(0);
    }
  }, 60_000);

  it("of an unknown user are refused without naming anyone who is known", async () => {
    const s = await shell(await connect(demo.server.port, "mallory"));
    await s.closed;
    expect(s.text()).toContain('parley: no user "mallory" here');
    for (const known of ["alice", "bob", "carol"]) expect(s.text()).not.toContain(known);
    await until(
      () => demo.server.log.some((l) => l.includes('refused "mallory" (127.0.0.1:')),
      "the refusal logged",
    );
  }, 30_000);
});

describe.skipIf(!built)("the log", () => {
  it("escapes whatever a client sends: names, commands, TERM", async () => {
    const hostile = "\x1b]0;owned\x07\x1b[2J\x9b31m";
    const named = await shell(await connect(demo.server.port, `eve${hostile}`));
    await named.closed;
    const client = await connect(demo.server.port, "alice");
    const command = await new Promise<string>((done, fail) =>
      client.exec(`ls ${hostile}`, (error, channel) => {
        if (error) return fail(error);
        let text = "";
        channel.stderr.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        channel.resume();
        channel.on("close", () => done(text));
      }),
    );
    expect(command).toContain("runs the chat client only");
    const dumb = await shell(client, { term: "dumb", cols: 80, rows: 24 });
    await dumb.closed;
    const noPty = await shell(client, false);
    await noPty.closed;
    await until(
      () => demo.server.log.filter((l) => l.includes('refused "alice"')).length >= 3,
      "three refusals of alice logged",
    );
    const log = demo.server.log.join("\n");
    expect(log).toContain('refused "eve\\x1b]0;owned\\x07\\x1b[2J\\x9b31m" (127.0.0.1:');
    expect(log).toContain('a command, "ls \\x1b]0;owned\\x07\\x1b[2J\\x9b31m"');
    expect(log).toContain('TERM "dumb"');
    expect(log).toContain("no terminal");
    for (const line of demo.server.log) expect(line).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    client.end();
  }, 30_000);
});

describe.skipIf(!built)("keys tied to people (--authorized-keys)", () => {
  it("sign in only as the user named for them, and every sign-in names its key", async () => {
    const make = () => newHostKey();
    const [alice, bob, nobody] = [make(), make(), make()];
    const dir = mkdtempSync(join(tmpdir(), "parley-keys-"));
    const file = join(dir, "authorized_keys");
    writeFileSync(
      file,
      [
        `parley-user="alice" ${alice.public} alice@laptop`,
        `parley-user=bob ${bob.public}`,
        nobody.public,
        "",
      ].join("\n"),
    );
    // People come from the database (parley users add) when there is no --demo.
    const db = join(dir, "people.db");
    // Only a server makes a database: one started and stopped makes it empty.
    await (await startServer({ db })).close();
    for (const name of ["alice", "bob"]) {
      execFileSync(process.execPath, [CLI, "users", "add", name, "--db", db], {
        env: { ...process.env, HOME: dir, XDG_STATE_HOME: dir, XDG_DATA_HOME: dir },
      });
    }
    const keyed = await startBuiltSsh(["--authorized-keys", file, "--db", db]);
    try {
      expect(keyed.log.join("\n")).toContain("1 key(s) of");
      const s = await shell(await connect(keyed.port, "alice", { privateKey: alice.private }));
      await s.waitFor("online", "alice's list");
      const print = fingerprintOf(alice.public);
      await until(
        () =>
          keyed.log.some(
            (l) => l.includes(`alice (127.0.0.1:`) && l.includes(`signed in with ${print};`),
          ),
        "alice's sign-in with her key's fingerprint",
      );
      // alice's key is not bob's, and a key naming nobody is nobody's.
      await expect(connect(keyed.port, "bob", { privateKey: alice.private })).rejects.toThrow();
      await expect(connect(keyed.port, "alice", { privateKey: nobody.private })).rejects.toThrow();
      await until(
        () =>
          keyed.log.some((l) =>
            l.includes(`user "bob", publickey (key of another user, ${print})`),
          ) && keyed.log.some((l) => l.includes('user "alice", publickey (unknown key, SHA256:')),
        "both refusals logged",
      );
      const b = await shell(await connect(keyed.port, "bob", { privateKey: bob.private }));
      await b.waitFor("online", "bob's list");
    } finally {
      expect(await keyed.stop()).toBe(0);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

/** ssh-keygen -l's fingerprint of an OpenSSH public key line. */
function fingerprintOf(publicLine: string): string {
  const blob = Buffer.from(publicLine.split(" ")[1]!, "base64");
  return `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;
}

describe.skipIf(!built)("colours over ssh", () => {
  /** The 24-bit, 256-colour and 16-colour foreground SGRs in `text`. */
  const kinds = (text: string) => ({
    truecolor: /\x1b\[[\d;]*38;2;\d+;\d+;\d+/.test(text),
    c256: /\x1b\[[\d;]*38;5;\d+/.test(text),
  });
  /** The light theme's accent (#004c7f) as a 24-bit SGR. */
  const LIGHT_ACCENT = "38;2;0;76;127";

  it("are as many as each session's terminal shows", async () => {
    const client = await connect(demo.server.port, "alice");
    const truecolor = await shell(client, undefined, { COLORTERM: "truecolor" });
    const c256 = await shell(client);
    const c16 = await shell(client, { term: "xterm", cols: 120, rows: 40 });
    for (const s of [truecolor, c256, c16]) await s.waitFor("online", "alice's list");
    expect(kinds(truecolor.text())).toEqual({ truecolor: true, c256: false });
    expect(kinds(c256.text())).toEqual({ truecolor: false, c256: true });
    expect(kinds(c16.text())).toEqual({ truecolor: false, c256: false });
    expect(c16.text()).toMatch(/\x1b\[[\d;]*(3[0-7]|9[0-7])m/);
    client.end();
  }, 60_000);

  it("follow the theme a session asks for, or its terminal's background", async () => {
    const client = await connect(demo.server.port, "bob");
    const asked = await shell(client, undefined, { COLORTERM: "truecolor", PARLEY_THEME: "light" });
    const dark = await shell(client, undefined, { COLORTERM: "truecolor" });
    // A white terminal: it answers OSC 11 as xterm does.
    const white = await shell(client, undefined, { COLORTERM: "truecolor" });
    await white.waitFor("\x1b]11;?", "the background query");
    white.channel.write("\x1b]11;rgb:ffff/ffff/ffff\x07\x1b[?64;1c");
    for (const s of [asked, dark, white]) await s.waitFor("online", "bob's list");
    expect(asked.text()).toContain(LIGHT_ACCENT);
    expect(white.text()).toContain(LIGHT_ACCENT);
    expect(dark.text()).not.toContain(LIGHT_ACCENT);
    client.end();
  }, 60_000);
});
