// A session: who and where (the api client, the server's address, who "you" are) and the
// client state that lives as long as it does (status line, contacts, outbox, drafts). Plain
// data and factories, without React: the screen reaches it through session-context.tsx,
// start-up code and the queries take it as it is. Identity can be learned late on a foreign
// server (from a conversation with one contact, or from your first sent message), so it is
// a store rather than a constant.
import type { Api } from "../../api/client.ts";
import type { Conversation, Message } from "../../api/schema.ts";
import type { DraftAttachment } from "../composer/commands.ts";
import { createDrafts, type Drafts } from "../composer/drafts.ts";
import { type ContactBook, createContactBook } from "../model/contact-book.ts";
import type { NotifySettings } from "../model/mentions.ts";
import { createStore, type Store } from "../model/store.ts";
import type { QueuedChange } from "../queries/changes.ts";
import { createOutbox, type Outbox } from "../queries/outbox.ts";
import { createStatusLine, type StatusLine } from "./status-line.ts";
import type { TerminalOut } from "./terminal-out.ts";

/** How often to poll: the open conversation, and the lists. */
export type PollPace = { openMs: number; listMs: number };
export const DEFAULT_POLL_PACE: PollPace = { openMs: 2000, listMs: 10_000 };

export type Session = {
  api: Api;
  baseUrl: string;
  /** What the header calls the server, where its address would mean nothing to the person. */
  serverLabel?: string;
  me: Store<string | undefined>;
  /** Called once when the identity is first learned, to remember it on disk. */
  onIdentity?: (username: string) => void;
  /** What rings and notifies: the switches, and the `notify` levels (all, mentions, none). */
  notify?: { bell: boolean; desktop: boolean } & NotifySettings;
  /** The terminal itself, for the clipboard (OSC 52) and notifications. */
  terminal?: TerminalOut;
  /**
   * Opens a link (a safe http, https or mailto address) with the platform's opener. Only
   * where parley runs on the person's own machine: absent over SSH and in `parley ssh`,
   * where `o` copies the link instead.
   */
  openUrl?: (url: string) => Promise<void>;
  /**
   * The person's own files, for `/attach PATH`: only where parley runs on their machine.
   * Absent in `parley ssh`, where a path would name the server's disk.
   */
  files?: LocalFiles;
  status: StatusLine;
  contacts: ContactBook;
  /** Changes on their way to the server, in order. */
  outbox: Outbox;
  /** What is typed in each conversation's composer. */
  drafts: Drafts;
  /**
   * The muted conversations that still ring when a message names you (`M`): kept with
   * the drafts, per server and user (the API has no such setting).
   */
  mentionsOnly: Store<ReadonlySet<string>>;
  /** How often to poll (tests run it fast); 2 s for the open conversation, 10 s for lists. */
  pollPace: PollPace;
  /**
   * Ctrl+Z: hands the terminal back and stops the process, as the shell's job control
   * expects. Absent where there is no job control (parley ssh, the tests).
   */
  suspend?: () => void;
  /**
   * Ctrl+G: edits `text` in the person's $VISUAL / $EDITOR, with the terminal handed over.
   * Absent where the editor would run somewhere else than the person (parley ssh).
   */
  editText?: (text: string) => Promise<EditTextResult>;
  /**
   * Where the screen says, as it renders, whether it shows the start view (the list from
   * its top, nothing open, nothing over it, online) and its keys line: the last frame of
   * the start view is kept for the next start (src/client/start-screen.ts).
   */
  startView?: StartView;
  /**
   * What the offline notice suggests, in the reader's own terms: the command that starts a
   * demo server where they are (`npm start -- serve --demo` in a clone), and where their
   * base URL came from. Default: `parley serve --demo` and PARLEY_BASE_URL.
   */
  offlineHint?: { serve: string; baseUrlFrom: string };
};

/** A file on the person's disk, found and sized; its bytes are read when it is sent. */
export type LocalFile = {
  filename: string;
  size: number;
  open(): AsyncIterable<Uint8Array>;
};

export type LocalFiles = {
  /** The file at `path` (`~/…` is the home folder), or an Error saying why not in a few words. */
  open(path: string): Promise<LocalFile>;
};

export type StartView = { shown: boolean; hints: string };

/** What came back from the editor: the saved text, or why there is none. */
export type EditTextResult = { ok: true; text: string } | { ok: false; reason: string };

/** What a session carries over from the last one: drafts and the changes not yet sent. */
export type CarriedOver = {
  drafts?: Record<string, string>;
  attachments?: Record<string, readonly DraftAttachment[]>;
  changes?: readonly QueuedChange[];
  /** The conversations whose notify mode is "mentions" (Session.mentionsOnly). */
  mentionsOnly?: readonly string[];
};

/** The per-session client state every Session carries. */
export function createSessionState(carried: CarriedOver = {}): {
  status: StatusLine;
  contacts: ContactBook;
  outbox: Outbox;
  drafts: Drafts;
  mentionsOnly: Store<ReadonlySet<string>>;
} {
  return {
    status: createStatusLine(),
    contacts: createContactBook(),
    outbox: createOutbox(carried.changes),
    drafts: createDrafts(carried.drafts, carried.attachments),
    mentionsOnly: createStore<ReadonlySet<string>>(new Set(carried.mentionsOnly)),
  };
}

export function newSessionIdentity(username?: string): Store<string | undefined> {
  return createStore(username);
}

/** Takes `username` as who "you" are, if nobody is known yet; remembered on disk. */
export function learnIdentity(session: Session, username: string): void {
  if (session.me.get() !== undefined || !username) return;
  session.me.set(username);
  session.onIdentity?.(username);
}

/**
 * In a conversation with one contact, every message is from that contact or from you: the
 * sender of any other message is you. Learns who you are on a server that does not say
 * (the API has no "me"), before you have sent anything.
 */
export function learnIdentityFrom(
  session: Session,
  conversation: Pick<Conversation, "contact_id">,
  messages: readonly Message[],
): void {
  if (session.me.get() !== undefined || conversation.contact_id === null) return;
  const mine = messages.find((m) => m.contact.id !== conversation.contact_id);
  if (mine) learnIdentity(session, mine.contact.username);
}
