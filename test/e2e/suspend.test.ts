// Job control with the real built client, under an interactive bash in tmux: Ctrl+Z, or
// a SIGTSTP sent from outside, gives the shell back a usable terminal (main screen,
// cursor shown) and the job shows as stopped; `fg` brings back raw mode, the alternate
// screen and the whole frame, and keys work again.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { shq } from "../processes.ts";
import { until } from "../wait.ts";
import { beat, CLI, hasTmux, type Pane, startPane } from "./tmux.ts";

const PROMPT = "parley-test$";

// Loaded, with a row selected.
const listed = (s: string) =>
  s.includes("parley · alice") && s.includes("● online") && /^[│║]▸/m.test(s);
const lastLine = (s: string) =>
  s
    .split("\n")
    .filter((l) => l.trim())
    .at(-1) ?? "";
const atPrompt = (s: string) => lastLine(s) === PROMPT;

/** The terminal's line discipline, as stty prints it (from outside, while the job runs). */
const ttyModes = (p: Pane) =>
  execFileSync("stty", ["-a", "-F", p.info("#{pane_tty}")], { encoding: "utf8" });

let panes: Pane[] = [];
let homes: string[] = [];

beforeAll(() => {
  if (!hasTmux()) return;
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build (npm test does)`);
});

afterEach(() => {
  for (const p of panes) p.kill();
  // The client and the shell may still be writing there as they end.
  for (const home of homes) rmSync(home, { recursive: true, force: true, maxRetries: 20 });
  panes = [];
  homes = [];
});

/** An interactive bash (so with job control), about to run the client. */
async function startShell(): Promise<Pane> {
  const home = mkdtempSync(join(tmpdir(), "parley-e2e-"));
  homes.push(home);
  const p = startPane({ command: "bash --noprofile --norc -i", home, env: { HISTFILE: "" } });
  panes.push(p);
  await p.waitFor((s) => s.trim() !== "", "bash's prompt");
  p.type(`PS1=${shq(`${PROMPT} `)}`);
  p.send("Enter");
  await p.waitFor(atPrompt, "the test's prompt");
  return p;
}

function runClient(p: Pane): void {
  p.type(`node ${shq(CLI)}`);
  p.send("Enter");
}

async function startClient(): Promise<Pane> {
  const p = await startShell();
  runClient(p);
  await p.waitFor(listed, "the conversation list", 30_000);
  expect(p.info("#{alternate_on}")).toBe("1");
  return p;
}

/** Sends SIGTSTP the moment the client has the alternate screen, as it starts. */
async function stopAsItStarts(p: Pane): Promise<void> {
  runClient(p);
  let pid: number | undefined;
  await until(
    () => {
      pid ??= p.nodePid();
      return pid !== undefined && p.info("#{alternate_on}") === "1";
    },
    "the client to take the alternate screen",
    { intervalMs: 1, timeoutMs: 30_000 },
  );
  process.kill(pid!, "SIGTSTP");
}

async function expectStoppedThenResumed(p: Pane): Promise<void> {
  // The shell has the terminal: the job is stopped, the main screen and the cursor are back.
  const stopped = await p.waitFor(
    (s) => s.includes("Stopped") && atPrompt(s),
    "the job stopped, at the shell's prompt",
  );
  expect(stopped).toMatch(/\[1\]\+\s+Stopped\s+node /);
  expect(p.info("#{alternate_on}")).toBe("0");
  expect(p.info("#{cursor_flag}")).toBe("1");
  // A usable shell: what is typed is echoed and runs.
  p.type("echo typed-$((6*7))");
  p.send("Enter");
  await p.waitFor((s) => s.includes("typed-42") && atPrompt(s), "the shell to run a command");

  p.type("fg");
  p.send("Enter");
  // The whole frame again (not the shell's lines under a partial one), in raw mode.
  await p.waitFor((s) => listed(s) && !s.includes("typed-42"), "the client drawn again");
  expect(p.info("#{alternate_on}")).toBe("1");
  expect(p.info("#{cursor_flag}")).toBe("0");
  const modes = ttyModes(p);
  expect(modes).toMatch(/(^|\s)-icanon(\s|$)/);
  expect(modes).toMatch(/(^|\s)-echo(\s|$)/);

  // Keys work: ? opens the help (which lists Ctrl+Z), Esc closes it, q quits.
  p.send("?");
  await p.waitFor((s) => s.includes("suspend (fg resumes)"), "the help");
  p.send("Escape");
  await p.waitFor((s) => !s.includes("suspend (fg resumes)"), "the help to close");
  await beat();
  p.send("q");
  await p.waitFor((s) => atPrompt(s) && p.info("#{alternate_on}") === "0", "the client to quit");
  expect(p.info("#{cursor_flag}")).toBe("1");
}

describe.skipIf(!hasTmux())("job control (tmux, an interactive bash)", () => {
  it("Ctrl+Z suspends with the terminal given back, and fg resumes", async () => {
    const p = await startClient();
    p.send("C-z");
    await expectStoppedThenResumed(p);
  }, 90_000);

  it("a SIGTSTP from outside does the same", async () => {
    const p = await startClient();
    const pid = p.nodePid();
    expect(pid).toBeDefined();
    process.kill(pid!, "SIGTSTP");
    await expectStoppedThenResumed(p);
  }, 90_000);

  // Before the client was mounted the stop took the process as it was: raw, in the
  // alternate screen. It now waits for the mount, for Ink's screen and for the kept one.
  it("a SIGTSTP as the client starts waits for it, then does the same", async () => {
    const p = await startShell();
    await stopAsItStarts(p);
    await expectStoppedThenResumed(p);
    // The next start shows the kept start screen before anything else.
    p.type("clear");
    p.send("Enter");
    await p.waitFor((s) => s.trim() === PROMPT, "a clear screen");
    await stopAsItStarts(p);
    await expectStoppedThenResumed(p);
  }, 90_000);
});
