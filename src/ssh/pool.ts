// Where `parley ssh` runs its sessions' clients: worker threads, each with a session host
// (src/ssh/host.ts), so drawing never holds up the SSH connections and the API server on
// the main thread, and twenty people typing at once are drawn on the spare cores; or,
// without a worker script (running from source, tests), a host in this thread. The SSH
// server sees the same thing either way.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { createSessionHost, type FromHost, type ToHost } from "./host.ts";
import { IDLE_RETIRE_MS } from "./idle-gc.ts";

export type OpenSession = Extract<ToHost, { type: "open" }>;
export type Crash = { message: string; detail: string };
export type SessionEvents = {
  output(data: string): void;
  /** The client ended (after all its output). */
  done(crash?: Crash): void;
};

export type HostPool = {
  open(message: OpenSession, events: SessionEvents): void;
  send(message: Exclude<ToHost, { type: "open" }>): void;
  /** The worker threads' ids, oldest first; none when sessions run on this thread. */
  threadIds(): number[];
  /** Ends the workers (after their sessions are done). */
  close(): Promise<void>;
};

function router() {
  const listeners = new Map<number, SessionEvents>();
  return {
    listen(id: number, events: SessionEvents) {
      listeners.set(id, events);
    },
    deliver(message: FromHost) {
      const events = listeners.get(message.id);
      if (!events) return;
      if (message.type === "output") events.output(message.data);
      else {
        listeners.delete(message.id);
        events.done(message.crash);
      }
    },
  };
}

export function inThreadPool(): HostPool {
  const { listen, deliver } = router();
  const host = createSessionHost(deliver);
  return {
    open(message, events) {
      listen(message.id, events);
      host.handle(message);
    },
    send: (message) => host.handle(message),
    threadIds: () => [],
    close: async () => {},
  };
}

type Slot = {
  worker: Worker;
  sessions: Set<number>;
  retired: boolean;
  idle?: NodeJS.Timeout;
};

/**
 * A session worker's young generation, at most (V8's default grows it to 128 MB under
 * twenty sessions' allocations: some 5 MiB a session of memory that holds only garbage).
 * 16 MB keeps each scavenge short and frequent; what a frame allocates dies young either
 * way. Measured in `npm run bench` (parley ssh memory, keystroke latency).
 */
export const WORKER_YOUNG_GENERATION_MB = 16;

/**
 * A session worker's old generation, at most. V8 lets a heap grow to up to 4 times what
 * it kept at its last full GC when its limit is 2 GB or more (as on any machine with a
 * few GB of memory), and 1.3 to 2 times below that: at 1 GB, 1.6 times. Twenty sessions
 * keep some 60 MB; with V8's default they grew to over 250 MB of heap, with this to about
 * 120. The limit itself is far above 64 sessions' needs (a few MB each); a worker that
 * reached it would end with its sessions told why (see `exit` below), where without it
 * the whole process would have grown to V8's default limit of several GB.
 */
export const WORKER_OLD_GENERATION_MB = 1024;

/**
 * `size` worker threads, started at once so nobody's first session waits for one to load.
 * A worker left without sessions for `idleRetireMs` is replaced by a fresh one: V8 keeps
 * the heap a thread grew for its sessions, and ending the thread is what gives it back.
 * Until then it stays warm (compiled, its caches full) for whoever connects next.
 */
export function workerPool(
  script: URL,
  size: number,
  log: (line: string) => void,
  idleRetireMs = IDLE_RETIRE_MS,
): HostPool {
  const { listen, deliver } = router();
  const slots: Slot[] = [];
  const slotOf = new Map<number, Slot>();
  let closing = false;

  function unlist(slot: Slot): void {
    const at = slots.indexOf(slot);
    if (at >= 0) slots.splice(at, 1);
  }

  function spawn(): Slot {
    const worker = new Worker(script, {
      resourceLimits: {
        maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB,
        maxOldGenerationSizeMb: WORKER_OLD_GENERATION_MB,
      },
    });
    const slot: Slot = { worker, sessions: new Set(), retired: false };
    worker.on("message", (message: FromHost) => {
      if (message.type === "done") {
        slot.sessions.delete(message.id);
        slotOf.delete(message.id);
      }
      deliver(message);
      if (message.type === "done" && slot.sessions.size === 0 && !closing) {
        clearTimeout(slot.idle);
        slot.idle = setTimeout(() => {
          if (slot.sessions.size === 0 && !closing) retire(slot);
        }, idleRetireMs);
        slot.idle.unref();
      }
    });
    worker.on("error", (error) => log(`parley ssh: a session worker failed: ${error.stack}`));
    worker.on("exit", (code) => {
      unlist(slot);
      if (slot.retired) return;
      // Its sessions cannot go on; the next session starts a new worker.
      for (const id of slot.sessions) {
        slotOf.delete(id);
        const message = `the session's worker thread stopped (exit code ${code})`;
        deliver({ type: "done", id, crash: { message, detail: message } });
      }
    });
    slots.push(slot);
    return slot;
  }

  function retire(slot: Slot): void {
    slot.retired = true;
    unlist(slot);
    // The fresh worker once the old thread has ended: the C library then gives it the old
    // one's memory pool (arena) instead of starting another, which stays with the process.
    void slot.worker.terminate().then(() => {
      if (slots.length < size && !closing) spawn();
    });
  }

  for (let i = 0; i < size; i++) spawn();

  return {
    open(message, events) {
      const slot =
        slots.length < size
          ? spawn()
          : slots.reduce((a, b) => (b.sessions.size < a.sessions.size ? b : a));
      clearTimeout(slot.idle);
      slot.sessions.add(message.id);
      slotOf.set(message.id, slot);
      listen(message.id, events);
      slot.worker.postMessage(message);
    },
    send(message) {
      slotOf.get(message.id)?.worker.postMessage(message);
    },
    threadIds: () => slots.map((slot) => slot.worker.threadId),
    async close() {
      closing = true;
      for (const slot of slots) clearTimeout(slot.idle);
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  };
}

/**
 * One worker per core but one: the main thread keeps a core for the SSH connections'
 * crypto and the API server. On 2 cores, 1 worker beat both 0 and 2 (npm run bench).
 */
function defaultHostThreads(): number {
  return Math.min(8, Math.max(1, availableParallelism() - 1));
}

/**
 * Where sessions run: `requested` worker threads running `script` (default one per core
 * but one), or this thread when there is no script (running from source) or 0 are asked.
 */
export function sessionPool(
  script: URL | undefined,
  requested: number | undefined,
  log: (line: string) => void,
): { pool: HostPool; threads: number } {
  const threads = script ? (requested ?? defaultHostThreads()) : 0;
  return {
    pool: script && threads > 0 ? workerPool(script, threads, log) : inThreadPool(),
    threads,
  };
}
