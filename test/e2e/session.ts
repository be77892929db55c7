// A long session, scripted: the person (alice, in the real client in tmux) reads one
// conversation and types, two other people (bob and carol, over HTTP with their own
// tokens) write into several conversations at irregular intervals, and the link between
// alice's client and the server goes away now and then. A watcher reads the screen every
// 250 ms and records when each message first shows where it must: in its conversation's
// sidebar row (preview, and an unread count unless it is the open one), and in the open
// conversation's pane.
//
// The script keeps every expectation observable: a row's preview shows only its newest
// message, so nobody writes into a conversation while a message there is still on its
// way to alice's screen (it would hide it), and bob and carol leave a conversation alone
// while a line alice typed there may still go out after theirs: while she types, while
// her line is queued in an outage (until it must have gone out), and before a line she
// is to type there during an outage. Outside outages she reads before she types: she
// waits for what is on its way to her open conversation.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Api } from "../../src/api/client.ts";
import type { Conversation, Message } from "../../src/api/schema.ts";
import { pause, until } from "../wait.ts";
import {
  connectionState,
  openConversation,
  type SidebarRow,
  sidebarRow,
  sidebarRows as sidebarRowsOf,
} from "./screen.ts";
import type { Pane } from "./tmux.ts";

const run = promisify(execFile);

/**
 * Two periods of the poll at its slowest (the client's pace: the open conversation 2 s,
 * 4 s once quiet; lists 10 s). With the event stream up, news comes at once.
 */
export const LIST_MS = 20_000;
export const OPEN_MS = 8_000;
/** Within this of the server's return, everything follows news again (issue 10). */
export const RECOVER_MS = 10_000;
/**
 * What the screen-reading adds: a capture every 250 ms, tmux drawing what Ink wrote, and
 * on a loaded 2-core machine the scripted sender's own HTTP round trip (timed from its
 * start) and the client's render. Measured here: well under a second; 2 s leaves room.
 */
export const ALLOWANCE_MS = 2_000;
/** How often the screen is read. */
export const CAPTURE_MS = 250;

export type Kind = "list" | "open";

export type Expectation = {
  kind: Kind;
  text: string;
  sender: string;
  /** The conversation's name as the sidebar shows it: "bob", "#design". */
  conversation: string;
  /** Whether it was the open conversation when the message was sent. */
  open: boolean;
  /**
   * Alice had left that conversation less than 2 s before: its last poll may still have
   * marked the message read (the API's times are whole seconds), so no unread count is due.
   */
  justLeft?: boolean;
  /** Date.now() when the send request started. */
  sentAt: number;
  /** The server was cut off from alice when it was sent. */
  duringOutage: boolean;
  seenAt?: number;
  /** The screen just after the deadline, when it had not shown up by then. */
  missed?: string;
  /** For a list expectation: the row as it was at the deadline. */
  rowAtDeadline?: SidebarRow | undefined;
};

export type Outage = { start: number; end?: number; mode: string };

/** A way to take the server away from alice's client and give it back. */
export type Link = { cut(): Promise<void>; restore(): Promise<void> };

/** Reads the screen on a timer and checks the expectations against each capture. */
export class Watcher {
  screen = "";
  capturedAt = 0;
  readonly expectations: Expectation[] = [];
  readonly outages: Outage[] = [];
  /** Changes of the status bar's connection state, with when they were first seen. */
  readonly connection: { at: number; state: string }[] = [];
  /** Captures the test could not make (tmux busy): counted, not fatal. */
  failedCaptures = 0;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private readonly socket: string;

  constructor(pane: Pane) {
    this.socket = pane.info("#{socket_path}");
  }

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        const started = Date.now();
        try {
          const { stdout } = await run("tmux", [
            "-S",
            this.socket,
            "capture-pane",
            "-p",
            "-t",
            "main",
          ]);
          this.observe(stdout, Date.now());
        } catch {
          this.failedCaptures++;
        }
        await pause(Math.max(0, CAPTURE_MS - (Date.now() - started)));
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  /** Checks a capture: first sightings, and the screens of the misses. */
  observe(screen: string, at: number): void {
    this.screen = screen;
    this.capturedAt = at;
    const state = connectionState(screen);
    if (this.connection.at(-1)?.state !== state) this.connection.push({ at, state });
    for (const e of this.expectations) {
      if (e.seenAt !== undefined || e.missed !== undefined) continue;
      if (shows(screen, e)) e.seenAt = at;
      else if (at > this.deadline(e)) {
        e.missed = screen;
        e.rowAtDeadline = sidebarRow(screen, e.conversation);
      }
    }
  }

  expect(e: Omit<Expectation, "duringOutage">): void {
    this.expectations.push({ ...e, duringOutage: this.cutAt(e.sentAt) !== undefined });
  }

  cutAt(at: number): Outage | undefined {
    return this.outages.find((o) => o.start <= at && (o.end === undefined || at <= o.end));
  }

  get isCut(): boolean {
    return this.outages.some((o) => o.end === undefined);
  }

  /**
   * When `e` must show at the latest: two periods after the send, counted while the server
   * is there. A send during an outage, or a deadline that an outage interrupts, has
   * RECOVER_MS from the server's return instead; plus the allowance for reading the screen.
   */
  deadline(e: Pick<Expectation, "kind" | "sentAt">): number {
    let due = e.sentAt + (e.kind === "list" ? LIST_MS : OPEN_MS);
    for (const o of this.outages) {
      if (o.start > due) continue;
      if (o.end === undefined) return Number.POSITIVE_INFINITY;
      due = Math.max(due, o.end + RECOVER_MS);
    }
    return due + ALLOWANCE_MS;
  }

  /**
   * What `e`'s latency counts from: the send, or the server's return when an outage
   * overlapped its two periods (then it had RECOVER_MS from the return). An outage that
   * began once `e` was on screen changes nothing (the report's medians went negative).
   */
  baseline(e: Pick<Expectation, "kind" | "sentAt" | "seenAt">): number {
    let from = e.sentAt;
    let due = e.sentAt + (e.kind === "list" ? LIST_MS : OPEN_MS);
    for (const o of this.outages) {
      if (o.start > due || o.end === undefined) continue;
      if (e.seenAt !== undefined && e.seenAt <= o.start) continue;
      from = Math.max(from, o.end);
      due = Math.max(due, o.end + RECOVER_MS);
    }
    return from;
  }

  /** A message there is still on its way to the screen (and not yet late). */
  busy(conversation: string, now = Date.now()): boolean {
    return this.expectations.some(
      (e) =>
        e.conversation === conversation &&
        e.seenAt === undefined &&
        e.missed === undefined &&
        now <= this.deadline(e) + CAPTURE_MS,
    );
  }

  /** Every expectation seen or past its deadline (and its miss recorded). */
  async settled(timeoutMs = 60_000): Promise<void> {
    await until(
      () => !this.expectations.some((e) => e.seenAt === undefined && e.missed === undefined),
      "every expectation seen or missed",
      { timeoutMs, intervalMs: CAPTURE_MS },
    );
  }

  /** The screen once a capture taken from now on satisfies `predicate`. */
  waitFor(predicate: (screen: string) => boolean, what: string, timeoutMs = 15_000) {
    const after = Date.now();
    return until(
      () => (this.capturedAt >= after && predicate(this.screen) ? this.screen : undefined),
      what,
      { timeoutMs, intervalMs: CAPTURE_MS / 2, detail: () => `Screen:\n${this.screen}` },
    );
  }
}

/** The preview a row shows for a message: groups name the sender. */
export const previewOf = (e: Pick<Expectation, "conversation" | "sender" | "text">) =>
  e.conversation.startsWith("#") ? `${e.sender}: ${e.text}` : e.text;

/** Whether this screen shows what `e` waits for. */
export function shows(screen: string, e: Expectation): boolean {
  if (e.kind === "open") {
    const pane = openConversation(screen);
    return pane.name === e.conversation && pane.lines.some((l) => l.trim() === e.text);
  }
  const row = sidebarRow(screen, e.conversation);
  if (row === undefined || row.preview !== previewOf(e)) return false;
  // An unread count, unless it is the conversation open on this screen (or was, just now).
  return (
    row.unread > 0 ||
    e.open ||
    e.justLeft === true ||
    openConversation(screen).name === e.conversation
  );
}

/** The conversation of `api`'s user with `other`: a user name ("alice") or a group ("#design"). */
export async function conversationWith(api: Api, other: string): Promise<Conversation> {
  const wanted = other.startsWith("#")
    ? (c: Conversation) => c.group_id === `grp_${other.slice(1)}`
    : (c: Conversation) => c.contact_id === `ct_${other}`;
  for await (const page of api.conversations.pages({ limit: 100 })) {
    const found = page.data.find(wanted);
    if (found) return found;
  }
  throw new Error(`no conversation with ${other}`);
}

/** The newest messages of a conversation, oldest first. */
export async function messagesOf(
  api: Api,
  conversationId: string,
  limit = 300,
): Promise<Message[]> {
  const all: Message[] = [];
  for await (const page of api.messages.pages({ conversation_id: conversationId, limit: 100 })) {
    all.push(...page.data);
    if (all.length >= limit) break;
  }
  return all.reverse();
}

export type Person = {
  name: string;
  api: Api;
  /** Sidebar name (as alice sees it) -> this person's conversation id. */
  conversations: Map<string, string>;
};

/** The numbers of a list of latencies, for the report. */
export function stats(values: number[]): { n: number; median: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

/** Uniform in [min, max). */
export const between = (min: number, max: number) => min + Math.random() * (max - min);

/** What the script does, in milliseconds from its start. */
export type Plan = {
  durationMs: number;
  /** The link cut at `at` for `forMs`. */
  cuts: { at: number; forMs: number }[];
  /** When alice types a message (into the conversation open then). */
  aliceSends: number[];
  /** When alice opens another conversation. */
  switches: { at: number; to: string }[];
  /** Each other person's wait between two messages: [min, max). */
  intervalMs: [number, number];
};

export type AliceSend = {
  text: string;
  conversation: string;
  /** Date.now() when Enter was pressed. */
  sentAt: number;
  duringOutage: boolean;
  /** When it first showed in her pane (pending or not). */
  shownAt?: number;
};

export type SessionLog = {
  startedAt: number;
  sends: AliceSend[];
  /** Things that went wrong with alice's own typing (a screen that did not follow). */
  problems: string[];
};

/** Waits until `condition` holds, or `timeoutMs` passed; says which. */
const holds = (condition: () => boolean, timeoutMs: number): Promise<boolean> =>
  until(condition, "a condition", { timeoutMs, intervalMs: 100 }).then(
    () => true,
    () => false,
  );

/**
 * Runs the plan: the other people's messages, alice's sends and switches, the cuts. The
 * conversation `open` must be open in the client when it starts, with the composer focused.
 */
export async function runSession(options: {
  pane: Pane;
  watcher: Watcher;
  link: Link;
  people: Person[];
  plan: Plan;
  open: string;
}): Promise<SessionLog> {
  const { pane, watcher, link, people, plan } = options;
  const startedAt = Date.now();
  const end = startedAt + plan.durationMs;
  const log: SessionLog = { startedAt, sends: [], problems: [] };
  const state = { open: options.open, paused: false, aliceTyping: false };
  /** When alice last left each conversation. */
  const leftAt = new Map<string, number>();
  const since = (at: number) => `+${((at - startedAt) / 1000).toFixed(1)}s`;

  // Where alice is at `offset` into the plan, and where her lines typed in outages go.
  const openAt = (offset: number) =>
    plan.switches.filter((w) => w.at <= offset).at(-1)?.to ?? options.open;
  const outageSends = plan.aliceSends.flatMap((at) => {
    const cut = plan.cuts.find((c) => at >= c.at && at <= c.at + c.forMs);
    return cut ? [{ at, to: openAt(at), cut }] : [];
  });
  /** Whether bob or carol may write into `name` now without hiding it behind alice's line. */
  const mayWrite = (name: string, now: number) => {
    if (state.paused || watcher.busy(name, now)) return false;
    if (name === state.open) {
      if (state.aliceTyping) return false;
      if (openConversation(watcher.screen).lines.some((l) => l.includes("sending…"))) return false;
    }
    const offset = now - startedAt;
    // A line of hers to be typed there in an outage, or queued there and not yet out
    // (it must be out within the recovery time of the return).
    return !outageSends.some(
      (s) =>
        s.to === name &&
        offset >= s.cut.at - LIST_MS - ALLOWANCE_MS &&
        offset <= s.cut.at + s.cut.forMs + RECOVER_MS + ALLOWANCE_MS,
    );
  };

  const cuts = (async () => {
    for (const cut of plan.cuts) {
      await pause(startedAt + cut.at - Date.now());
      const outage: Outage = { start: Date.now(), mode: "cut" };
      watcher.outages.push(outage);
      await link.cut();
      await pause(outage.start + cut.forMs - Date.now());
      await link.restore();
      outage.end = Date.now();
    }
  })();

  const other = async (person: Person) => {
    let n = 0;
    const names = [...person.conversations.keys()];
    for (;;) {
      await pause(between(...plan.intervalMs));
      let name: string | undefined;
      for (;;) {
        const now = Date.now();
        if (now >= end) return;
        const free = state.paused ? [] : names.filter((c) => mayWrite(c, now));
        // The open conversation often when it is free (what comes in there must also show
        // in its pane), and always in an outage (then within the recovery time of the return).
        name =
          free.includes(state.open) && (watcher.isCut || Math.random() < 0.4)
            ? state.open
            : free[Math.floor(Math.random() * free.length)];
        if (name !== undefined) break;
        await pause(250);
      }
      const text = `${person.name}-${String(++n).padStart(2, "0")}`;
      const sentAt = Date.now();
      const open = name === state.open;
      const justLeft = sentAt - (leftAt.get(name) ?? Number.NEGATIVE_INFINITY) < 2000;
      const common = { text, sender: person.name, conversation: name, open, justLeft, sentAt };
      watcher.expect({ kind: "list", ...common });
      if (open) watcher.expect({ kind: "open", ...common });
      await person.api.messages.send({
        conversation_id: person.conversations.get(name)!,
        message: text,
      });
    }
  };

  const alice = async () => {
    const events = [
      ...plan.aliceSends.map((at) => ({ at, to: undefined as string | undefined })),
      ...plan.switches,
    ].sort((a, b) => a.at - b.at);
    let n = 0;
    for (const event of events) {
      await pause(startedAt + event.at - Date.now());
      if (event.to === undefined) {
        // She reads what just came in before she types (and her line would hide it from
        // the row's preview): at most a deadline's wait.
        // (In an outage nothing comes in: she types at once.)
        await holds(() => watcher.isCut || !watcher.busy(state.open), LIST_MS + ALLOWANCE_MS);
        state.aliceTyping = true;
        const text = `alice-${String(++n).padStart(2, "0")}`;
        // Typed text and Enter in one read would be a paste: Enter apart.
        pane.type(text);
        await pause(150);
        pane.send("Enter");
        const send: AliceSend = {
          text,
          conversation: state.open,
          sentAt: Date.now(),
          duringOutage: watcher.isCut,
        };
        log.sends.push(send);
        const shown = await holds(
          () => openConversation(watcher.screen).lines.some((l) => l.trim() === text),
          5_000,
        );
        if (shown) send.shownAt = watcher.capturedAt;
        else
          log.problems.push(
            `${text} (Enter at ${since(send.sentAt)}) not in alice's pane within 5 s:\n${watcher.screen}`,
          );
        state.aliceTyping = false;
        continue;
      }
      // Switching: nobody writes meanwhile, and nothing is on its way to the pane she
      // leaves (it could no longer show there). What is on its way to the one she opens
      // shows in its row, with no unread count once it is open.
      const to = event.to;
      state.paused = true;
      const from = state.open;
      await holds(
        () =>
          !watcher.expectations.some(
            (e) =>
              e.kind === "open" &&
              e.conversation === from &&
              e.seenAt === undefined &&
              e.missed === undefined,
          ),
        LIST_MS + ALLOWANCE_MS + 2 * CAPTURE_MS,
      );
      try {
        const from = state.open;
        await openByName(pane, watcher, to);
        leftAt.set(from, Date.now());
        state.open = to;
      } catch (error) {
        log.problems.push(`switching to ${to} at ${since(Date.now())}: ${String(error)}`);
      }
      state.paused = false;
    }
  };

  await Promise.all([cuts, alice(), ...people.map(other)]);
  return log;
}

/** From the composer (or anywhere but a dialog): to the sidebar, onto `name`, Enter. */
export async function openByName(pane: Pane, watcher: Watcher, name: string): Promise<void> {
  // With the event stream, rows move up the moment news comes, also between the capture
  // the cursor was steered by and Enter: a wrong row opened is left and the right one found.
  for (let attempt = 1; ; attempt++) {
    try {
      return await openByNameOnce(pane, watcher, name, attempt < 3 ? 4_000 : undefined);
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

async function openByNameOnce(
  pane: Pane,
  watcher: Watcher,
  name: string,
  timeoutMs?: number,
): Promise<void> {
  // Esc and a letter in one read would be Alt+letter: each key apart.
  for (let i = 0; i < 3 && !watcher.screen.includes("Enter open"); i++) {
    pane.send("Escape");
    await pause(300);
    await watcher.waitFor(() => true, "a fresh capture");
  }
  for (let i = 0; i < 40; i++) {
    const screen = await watcher.waitFor(() => true, "a fresh capture");
    const list = sidebarRowsOf(screen);
    const at = list.findIndex((r) => r.selected);
    const target = list.findIndex((r) => r.name === name);
    if (target < 0) throw new Error(`no row ${name} in the sidebar:\n${screen}`);
    if (at === target) break;
    pane.send(at < 0 || at < target ? "j" : "k");
    await pause(150);
  }
  pane.send("Enter");
  await watcher.waitFor(
    (s) =>
      openConversation(s).name === name && openConversation(s).composer.includes(`Message ${name}`),
    `${name} open with the composer`,
    timeoutMs,
  );
}
