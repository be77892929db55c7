// `parley ssh` end to end: the built CLI serves the client over SSH, and the system's
// OpenSSH client connects to it from real terminals (tmux panes), as two people would:
// alice and bob chat live, a resize re-lays out the remote screen, q ends the ssh session
// with status 0, and the server's count of live sessions goes back to 0, also when a
// client vanishes without quitting.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { moveTo as moveInList } from "../list-cursor.ts";
import { type BuiltSsh, startBuiltSsh } from "../ssh/built.ts";
import { until } from "../wait.ts";
import { beat, CLI, enterLine, hasTmux, type Pane, startPane } from "./tmux.ts";

function hasSsh(): boolean {
  // `ssh -V` prints its version on stderr and exits 0.
  return spawnSync("ssh", ["-V"], { stdio: "ignore" }).status === 0;
}

function hasSshKeygen(): boolean {
  // No -V: asking for help exits 1 but proves it runs; a missing binary is ENOENT.
  return spawnSync("ssh-keygen", ["-?"], { stdio: "ignore" }).error === undefined;
}

const skip = !hasTmux()
  ? "tmux is missing"
  : !hasSsh() || !hasSshKeygen()
    ? "the OpenSSH client (ssh, ssh-keygen) is missing"
    : undefined;
if (skip) console.warn(`skipping the parley ssh end-to-end tests: ${skip}`);

let dir = "";
let main: BuiltSsh | undefined;
let port = 0;
let log: string[] = [];
const panes: Pane[] = [];
const servers: BuiltSsh[] = [];

/** Starts the built `parley ssh` on a free port with this test's folders; reads its banner. */
async function startSsh(args: string[]): Promise<BuiltSsh> {
  const server = await startBuiltSsh(args, { home: dir });
  servers.push(server);
  return server;
}

function sshCommand(user: string, extra = "-tt", key = join(dir, "id"), to = port): string {
  return [
    "ssh",
    extra,
    "-F /dev/null",
    `-i ${JSON.stringify(key)}`,
    "-o IdentitiesOnly=yes",
    "-o StrictHostKeyChecking=no",
    "-o UserKnownHostsFile=/dev/null",
    "-o LogLevel=ERROR",
    `-p ${to}`,
    `${user}@127.0.0.1`,
  ].join(" ");
}

function pane(user: string, columns = 120, rows = 40): Pane {
  const p = startPane({ command: sshCommand(user), columns, rows });
  panes.push(p);
  return p;
}

/** `until`, saying the server's log on a time-out. */
const untilLogged = (predicate: () => boolean, what: string) =>
  until(predicate, what, { detail: () => `Server log:\n${log.join("\n")}` });

/** The server's own count, from the line it logs on every sign-in and leave. */
function liveSessions(): number | undefined {
  for (let i = log.length - 1; i >= 0; i--) {
    const match = /; (\d+) live sessions?$/.exec(log[i]!);
    if (match) return Number(match[1]);
  }
  return undefined;
}

/** Moves the sidebar's cursor down to the conversation named `name`. */
const moveTo = (p: Pane, name: string) =>
  moveInList({ screen: p.screen, down: () => p.send("j"), waitFor: p.waitFor }, name);

beforeAll(async () => {
  if (skip) return;
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build (npm test does)`);
  dir = mkdtempSync(join(tmpdir(), "parley-ssh-e2e-"));
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, "id")]);
  // One world for everyone: alice and bob chat with each other below.
  main = await startSsh(["--demo", "shared"]);
  port = main.port;
  log = main.log;
  expect(main.banner).toContain(`ssh -p ${port} alice@127.0.0.1`);
  expect(main.banner).toContain(`ssh -p ${port} bob@127.0.0.1`);
  expect(main.banner.join("\n")).toMatch(
    /host key SHA256:[A-Za-z0-9+/]{43} \(.*ssh_host_ed25519_key, new\)/,
  );
}, 30_000);

afterEach(() => {
  for (const p of panes.splice(0)) p.kill();
});

afterAll(async () => {
  // SIGTERM: every session closed, the server stopped, exit 0.
  for (const server of servers) expect(await server.stop()).toBe(0);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skip !== undefined)("parley ssh with the OpenSSH client", () => {
  it("lets alice and bob chat live, follows a resize, and q ends each ssh session with 0", async () => {
    const alice = pane("alice");
    const bob = pane("bob");
    await alice.waitFor(
      (s) =>
        s.includes("parley · alice @ parley ssh") && s.includes("● online") && s.includes("#team"),
      "alice's conversation list",
      30_000,
    );
    await bob.waitFor(
      (s) => s.includes("parley · bob") && s.includes("● online") && s.includes("#team"),
      "bob's conversation list",
      30_000,
    );
    expect(alice.info("#{alternate_on}")).toBe("1");
    await untilLogged(() => liveSessions() === 2, "2 live sessions");

    // alice writes to bob.
    const text = `hello bob over ssh ${Date.now() % 100_000}`;
    await moveTo(alice, "bob");
    alice.send("Enter");
    await alice.waitFor((s) => s.includes("Message bob"), "alice's composer");
    await enterLine(alice, text);
    // Sent, and out of the composer (its placeholder back): the next line is typed apart.
    await alice.waitFor(
      (s) => s.includes(text) && s.includes("Message bob") && !s.includes("sending…"),
      "alice's message sent",
    );

    // A path would name the server's disk here: refused in one line, the draft kept.
    await enterLine(alice, "/attach /etc/hostname");
    await alice.waitFor(
      (s) => s.includes("Not attached: over parley ssh a path names the server's disk, not yours"),
      "the refusal",
    );
    alice.send("C-u");
    await alice.waitFor((s) => s.includes("Message bob"), "the draft cleared");

    // bob opens his conversation with alice and sees it arrive (the client polls every 2 s).
    await moveTo(bob, "alice");
    bob.send("Enter");
    await bob.waitFor((s) => s.includes(text), "alice's message on bob's screen", 15_000);

    // A smaller window: the remote screen is laid out again at 80x24.
    alice.resize(80, 24);
    // Waits for the whole new frame: a capture can land between the resize and the redraw.
    const small = await alice.waitFor((s) => {
      const lines = s.split("\n");
      return (
        lines.length <= 25 &&
        lines[23]?.includes("online") === true &&
        lines.every((line) => line.length <= 80) &&
        lines[0]?.includes("parley · alice") === true &&
        s.includes(text)
      );
    }, "alice's whole 80x24 frame, with her message");
    expect(small).toContain("Message bob");
    alice.resize(120, 40);
    await alice.waitFor((s) => s.split("\n")[39]?.includes("online") === true, "120x40 again");

    // No job control over SSH: Ctrl+Z says so, and the session goes on.
    bob.send("C-z");
    await bob.waitFor((s) => s.includes("Ctrl+Z cannot suspend over parley ssh"), "bob's note");
    expect(bob.info("#{alternate_on}")).toBe("1");

    // q from the messages pane (Esc leaves the composer first).
    for (const p of [alice, bob]) {
      p.send("Escape");
      await beat();
      p.send("q");
      const after = await p.waitFor((s) => s.includes("EXITED="), "ssh to end");
      expect(after).toContain("EXITED=0");
      expect(p.info("#{alternate_on}")).toBe("0");
      expect(p.info("#{cursor_flag}")).toBe("1");
    }
    await untilLogged(() => liveSessions() === 0, "0 live sessions");
  }, 120_000);

  it("frees a session whose client vanishes without quitting", async () => {
    const carol = pane("carol");
    await carol.waitFor((s) => s.includes("parley · carol"), "carol's client", 30_000);
    await untilLogged(() => liveSessions() === 1, "1 live session");
    carol.kill(); // the terminal and its ssh client are gone, mid-session
    await untilLogged(() => liveSessions() === 0, "0 live sessions after the drop");
    expect(log.some((l) => /carol \(.*\) left; 0 live sessions/.test(l))).toBe(true);
  }, 60_000);

  it("refuses an unknown user name without naming the users there are", async () => {
    const p = pane("mallory");
    const screen = await p.waitFor((s) => s.includes("EXITED="), "ssh to end");
    expect(screen).toContain(
      'parley: no user "mallory" here (the ssh user name picks who you are)',
    );
    expect(screen).not.toContain("alice");
    expect(screen).toContain("EXITED=1");
    await until(() => log.some((l) => l.includes('refused "mallory"')), "the refusal logged");
  }, 30_000);

  it("refuses a session without a terminal and TERM=dumb; lets in a client with no key", () => {
    const run = (command: string, env: NodeJS.ProcessEnv = {}) =>
      spawnSync("bash", ["-c", `${command} </dev/null`], {
        encoding: "utf8",
        timeout: 20_000,
        env: { ...process.env, HOME: dir, ...env },
      });
    const noPty = run(sshCommand("alice", "-T"));
    expect(noPty.stderr).toContain("needs a terminal; connect with ssh -t");
    expect(noPty.status).toBe(1);

    const dumb = run(sshCommand("alice"), { TERM: "dumb" });
    expect(dumb.stderr).toContain("TERM=dumb cannot move the cursor");
    expect(dumb.status).toBe(1);

    const command = run(`${sshCommand("alice", "-T")} ls`);
    expect(command.stderr).toContain("runs the chat client only");
    expect(command.status).toBe(1);

    // A visitor without a key is let into the demo (and then told it needs a terminal).
    const noKey = run(
      sshCommand("alice", "-T").replace(`-i ${JSON.stringify(join(dir, "id"))}`, ""),
    );
    expect(noKey.stderr).toContain("needs a terminal");
    expect(noKey.status).toBe(1);
    expect(liveSessions() ?? 0).toBe(0);
  }, 60_000);
  it("with --authorized-keys lets in only the listed keys (ed25519 and RSA) as their users, not those with options", async () => {
    const keygen = (name: string, ...type: string[]) =>
      execFileSync("ssh-keygen", ["-q", ...type, "-N", "", "-f", join(dir, name)]);
    keygen("id_rsa", "-t", "rsa", "-b", "2048");
    keygen("id_other", "-t", "ed25519");
    keygen("id_limited", "-t", "ed25519");
    const pub = (name: string) => readFileSync(join(dir, `${name}.pub`), "utf8").trim();
    const file = join(dir, "authorized_keys");
    writeFileSync(
      file,
      [
        "# people who may chat, each key with the one user it signs in as",
        `parley-user="bob" ${pub("id")}`,
        `parley-user=bob ${pub("id_rsa")}`,
        `from="10.0.0.1" ${pub("id_limited")}`,
        "",
      ].join("\n"),
    );
    const keyed = await startSsh(["--authorized-keys", file]);
    expect(keyed.banner).toContain(`keys from ${file}`);
    // The host key made by the first server is kept, not made again.
    const fingerprint = (banner: string[]) => /host key (SHA256:\S+)/.exec(banner.join("\n"))?.[1];
    expect(fingerprint(keyed.banner)).toBe(fingerprint(main!.banner));
    expect(keyed.banner.join("\n")).not.toContain(", new)");
    expect(keyed.log.join("\n")).toContain(`skipped 1 line(s) of ${file} with options`);

    // Signed in (the key is taken; then a session without a terminal is told why) or refused.
    const attempt = (key: string) =>
      spawnSync(
        "bash",
        ["-c", `${sshCommand("bob", "-T", join(dir, key), keyed.port)} </dev/null`],
        {
          encoding: "utf8",
          timeout: 20_000,
          env: { ...process.env, HOME: dir },
        },
      );
    for (const key of ["id", "id_rsa"]) {
      const result = attempt(key);
      expect(result.stderr, key).toContain("needs a terminal");
      expect(result.status, key).toBe(1);
    }
    for (const key of ["id_other", "id_limited"]) {
      const result = attempt(key);
      expect(result.stderr, key).toContain("Permission denied (publickey)");
      expect(result.status, key).toBe(255);
    }
    // Not a demo: no key, or a password, gets nobody in.
    const noKey = spawnSync(
      "bash",
      [
        "-c",
        `${sshCommand("bob", "-T", join(dir, "id"), keyed.port).replace("-o IdentitiesOnly=yes", "-o PubkeyAuthentication=no -o BatchMode=yes")} </dev/null`,
      ],
      { encoding: "utf8", timeout: 20_000, env: { ...process.env, HOME: dir } },
    );
    expect(noKey.stderr).toContain("Permission denied (publickey)");
    expect(noKey.status).toBe(255);
  }, 60_000);
});
