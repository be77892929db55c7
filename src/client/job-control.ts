// The shell's job control around the full-screen client. Ctrl+Z (which arrives as a key,
// since raw mode turns off the terminal's own signal keys) or a SIGTSTP from outside:
// the terminal is given back (raw mode off, alternate screen left, cursor shown), then
// the process group stops itself as the terminal would have stopped it. `fg` (SIGCONT):
// raw mode and the alternate screen come back and the whole screen is drawn again. A
// SIGCONT after a stop nobody can catch (SIGSTOP) takes the terminal back the same way.
// The signals are answered from the start, before the client is mounted: a SIGTSTP then
// waits for the mount (as a Ctrl+Z typed then does), rather than stopping the process
// with the terminal raw and in the alternate screen.
import { type HandOverTerminal, handOverTerminal } from "./hand-over.ts";

/** Resumed with no SIGCONT this soon after the stop: the stop did not happen. */
const NO_STOP_MS = 500;

export type JobControl = {
  /** Ctrl+Z. */
  suspend(): void;
  /**
   * Gives the terminal to `away` (an editor) and takes it back, as for a stop; false, and
   * `away` not run, when there is no client or the terminal is already handed over.
   */
  handOver(away: () => Promise<void>): Promise<boolean>;
  /** Starts answering SIGTSTP and SIGCONT, before there is a client to stop. */
  listen(): void;
  /** The mounted client: a stop asked for before it is done now. */
  attach(terminal: HandOverTerminal): void;
  /** Stops answering them (the client has ended, or never started). */
  detach(): void;
};

export function createJobControl(): JobControl {
  let terminal: Parameters<JobControl["attach"]>[0] | undefined;
  let busy = false;
  let continued: (() => void) | undefined;
  let listening = false;
  /** A SIGTSTP came before the client was mounted. */
  let stopWanted = false;

  /** Gives the terminal back for as long as `away` runs, then takes it back and redraws. */
  async function handOver(away: () => Promise<void>): Promise<boolean> {
    if (!terminal || busy) return false;
    busy = true;
    try {
      await handOverTerminal(terminal, away);
      return true;
    } finally {
      busy = false;
    }
  }

  /**
   * Stops the process group with SIGTSTP, as the terminal's own Ctrl+Z would (so a shell
   * running `npm start` sees the whole job stop). Its default action is the stop, so our
   * own handler steps aside for it. Returns once continued (or at once where the stop is
   * not allowed: an orphaned process group ignores SIGTSTP).
   */
  async function stopHere(): Promise<void> {
    process.off("SIGTSTP", onStop);
    try {
      process.kill(0, "SIGTSTP");
    } finally {
      process.on("SIGTSTP", onStop);
    }
    // The SIGCONT that continued us is queued by now; wait for it, so that it is not
    // taken for a second one.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        continued = undefined;
        resolve();
      }, NO_STOP_MS);
      continued = () => {
        clearTimeout(timer);
        continued = undefined;
        resolve();
      };
    });
  }

  const suspend = () => {
    if (terminal) void handOver(stopHere);
    else stopWanted = true;
  };
  const onStop = () => suspend();
  const onContinue = () => {
    if (continued) continued();
    else void handOver(async () => {});
  };
  const listen = () => {
    if (listening) return;
    listening = true;
    process.on("SIGTSTP", onStop);
    process.on("SIGCONT", onContinue);
  };

  return {
    suspend,
    handOver,
    listen,
    attach(next) {
      terminal = next;
      listen();
      if (stopWanted) {
        stopWanted = false;
        suspend();
      }
    },
    detach() {
      terminal = undefined;
      stopWanted = false;
      listening = false;
      process.off("SIGTSTP", onStop);
      process.off("SIGCONT", onContinue);
    },
  };
}
