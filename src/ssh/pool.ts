// Where `parley ssh` runs its sessions' clients: worker threads, one per core, each with
// a session host (src/ssh/host.ts), so twenty people typing at once render on every core
// instead of queueing on one; or, without a worker script (running from source, tests),
// a host in this thread. The SSH server sees the same thing either way.
import { Worker } from "node:worker_threads";
import { createSessionHost, type FromHost, type ToHost } from "./host.ts";

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
    close: async () => {},
  };
}

type Slot = { worker: Worker; sessions: Set<number> };

export function workerPool(script: URL, size: number, log: (line: string) => void): HostPool {
  const { listen, deliver } = router();
  const slots: Slot[] = [];
  const slotOf = new Map<number, Slot>();

  function spawn(): Slot {
    const worker = new Worker(script);
    const slot: Slot = { worker, sessions: new Set() };
    worker.on("message", (message: FromHost) => {
      if (message.type === "done") {
        slot.sessions.delete(message.id);
        slotOf.delete(message.id);
      }
      deliver(message);
    });
    worker.on("error", (error) => log(`parley ssh: a session worker failed: ${error.stack}`));
    worker.on("exit", (code) => {
      slots.splice(slots.indexOf(slot), 1);
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

  // Started now, so nobody's first session waits for a worker to load.
  for (let i = 0; i < size; i++) spawn();

  return {
    open(message, events) {
      const slot =
        slots.length < size
          ? spawn()
          : slots.reduce((a, b) => (b.sessions.size < a.sessions.size ? b : a));
      slot.sessions.add(message.id);
      slotOf.set(message.id, slot);
      listen(message.id, events);
      slot.worker.postMessage(message);
    },
    send(message) {
      slotOf.get(message.id)?.worker.postMessage(message);
    },
    async close() {
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  };
}
