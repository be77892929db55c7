// The shell's job control around the full-screen client. Ctrl+Z (which arrives as a key,
// since raw mode turns off the terminal's own signal keys) or a SIGTSTP from outside:
// the terminal is given back (raw mode off, alternate screen left, cursor shown), then
// the process group stops itself as the terminal would have stopped it. `fg` (SIGCONT):
// raw mode and the alternate screen come back and the whole screen is drawn again. A
// SIGCONT after a stop nobody can catch (SIGSTOP) takes the terminal back the same way.
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
  /** Starts answering SIGTSTP and SIGCONT for a mounted client. */
  attach(terminal: HandOverTerminal): void;
  /** Stops answering them (the client has ended). */
  detach(): void;
};

export function createJobControl(): JobControl {
  let terminal: Parameters<JobControl["attach"]>[0] | undefined;
  let busy = false;
  let continued: (() => void) | undefined;

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

  const suspend = () => void handOver(stopHere);
  const onStop = () => suspend();
  const onContinue = () => {
    if (continued) continued();
    else void handOver(async () => {});
  };

  return {
    suspend,
    handOver,
    attach(next) {
      terminal = next;
      process.on("SIGTSTP", onStop);
      process.on("SIGCONT", onContinue);
    },
    detach() {
      terminal = undefined;
      process.off("SIGTSTP", onStop);
      process.off("SIGCONT", onContinue);
    },
  };
}
