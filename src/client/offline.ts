// What the client keeps between runs, per server and user: the server data it has seen
// (conversation lists, loaded histories), so a start shows the last-known screen before
// the server answers and an unreachable server still leaves everything readable; and the
// work not yet on the server (drafts, the outbox), so nothing typed is lost at quit, in
// a crash, on `kill -9` or a dropped connection.
//
// The server data goes through TanStack Query's own persistence (persistQueryClient with a
// file persister); drafts and the outbox are parley's own (see ui/queries/outbox.ts).
import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  type PersistedClient,
  type Persister,
  persistQueryClientRestore,
  persistQueryClientSave,
} from "@tanstack/query-persist-client-core";
import type { QueryClient } from "@tanstack/react-query";
import type { Paths } from "../config.ts";
import type { DraftAttachment } from "../ui/composer/commands.ts";
import { SavedChange } from "../ui/queries/changes.ts";
import {
  asLastKnown,
  learnFromCache,
  shouldKeepQuery,
  trimRestoredHistories,
} from "../ui/queries/restore.ts";
import type { CarriedOver, Session } from "../ui/screen/session.ts";
import { z } from "../zod.ts";
import {
  debouncedWriter,
  logLine,
  readIfExists,
  removeIfExists,
  setAside,
  writePrivateFile,
} from "./files.ts";

/** Bumped whenever what is kept changes shape: an older file is then set aside. */
const CACHE_VERSION = "parley-cache-1";
/** 2: drafts' attachments kept too. A version-1 file (drafts as text only) is still read. */
const CARRY_VERSION = 2;
const CARRY_READABLE = new Set<unknown>([1, CARRY_VERSION]);
/** Kept server data older than this is not shown (it would mislead more than help). */
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** At most this long between a change to drafts or the outbox and its being on disk. */
const SAVE_DELAY_MS = 500;
/**
 * Server data is saved once it has been still this long (and at exit), so that a burst of
 * changes is one save after it, not one a second through it...
 */
const SAVE_WHEN_STILL_MS = 1000;
/** ...but never later than this after the first change not yet saved. */
const SAVE_WITHIN_MS = 5000;

/**
 * Whose files these are: a server (its id, else its address, or the embedded server's
 * database: src/client/server-id.ts) and a user (their name, else their token's hash).
 */
export type Owner = { server: string; user: string };

export type OfflineFiles = { owner: Owner; cache: string; carry: string; log: string };

/**
 * Who the files are of: the user's name when it is known, so that a new token (rotated,
 * one per device) finds the same drafts and queue; else the token, as a hash.
 */
export type KeptFor = { username?: string | undefined; token: string };

export function offlineFiles(
  paths: Pick<Paths, "cache" | "state">,
  server: string,
  who: KeptFor,
): OfflineFiles {
  const user =
    who.username !== undefined
      ? `user ${who.username}`
      : createHash("sha256").update(who.token).digest("hex").slice(0, 16);
  const name = createHash("sha256").update(`${server}\n${user}`).digest("hex").slice(0, 24);
  return {
    owner: { server, user },
    cache: join(paths.cache, `${name}.json`),
    carry: join(paths.state, "unsent", `${name}.json`),
    log: join(paths.state, "parley.log"),
  };
}

/**
 * Files kept under `former` (the server's address, before its id was known) become the
 * current owner's, unless the current owner has its own: queued work made before an
 * upgrade, or on a first start that could not reach the server, is not left behind.
 */
export function adoptKeptFiles(files: OfflineFiles, former: OfflineFiles): void {
  for (const which of ["carry", "cache"] as const) {
    try {
      const text = readIfExists(former[which]);
      if (text === undefined || readIfExists(files[which]) !== undefined) continue;
      const kept = JSON.parse(text) as Record<string, unknown>;
      if (!sameOwner(kept.owner, former.owner)) continue;
      writePrivateFile(files[which], JSON.stringify({ ...kept, owner: files.owner }));
      removeIfExists(former[which]);
    } catch (error) {
      logLine(files.log, `could not take over ${former[which]}: ${(error as Error).message}`);
    }
  }
}

const sameOwner = (a: unknown, b: Owner) =>
  typeof a === "object" &&
  a !== null &&
  (a as Owner).server === b.server &&
  (a as Owner).user === b.user;

/** A kind of kept file: what the log calls it, and whether a bad one is kept aside. */
type Kept = { what: string; setAside: boolean };
/** Server data: a bad file is discarded (the server still has it all). */
const CACHE: Kept = { what: "cache", setAside: false };
/** Drafts and the outbox: a bad file is set aside, renamed, never lost. */
const UNSENT: Kept = { what: "unsent work", setAside: true };

/** Puts a kept file that cannot be used out of the way, with one line in the log. */
function discard(file: string, files: OfflineFiles, kind: Kept, problem: string): void {
  if (!kind.setAside) {
    logLine(files.log, `discarded the ${kind.what} in ${file}: ${problem}`);
    removeIfExists(file);
    return;
  }
  try {
    logLine(files.log, `set aside the ${kind.what} in ${file} as ${setAside(file)}: ${problem}`);
  } catch (error) {
    logLine(files.log, `could not set aside the ${kind.what} in ${file} (${problem}): ${error}`);
  }
}

/**
 * Reads a kept file. A file that is corrupt, of another version or of another owner is
 * discarded or set aside (see `discard`) with one line in the log: never a crash, never
 * someone else's data.
 */
function readKept(
  file: string,
  files: OfflineFiles,
  isCurrent: (kept: Record<string, unknown>) => boolean,
  kind: Kept,
): Record<string, unknown> | undefined {
  let kept: unknown;
  try {
    const text = readIfExists(file);
    if (text === undefined) return undefined;
    kept = JSON.parse(text);
  } catch (error) {
    discard(file, files, kind, (error as Error).message);
    return undefined;
  }
  const record = (typeof kept === "object" && kept !== null ? kept : {}) as Record<string, unknown>;
  const problem = !sameOwner(record.owner, files.owner)
    ? "it belongs to another server or user"
    : !isCurrent(record)
      ? "it is from another version of parley"
      : undefined;
  if (problem) {
    discard(file, files, kind, problem);
    return undefined;
  }
  return record;
}

function filePersister(files: OfflineFiles): Persister & { flush(): void } {
  let latest: PersistedClient | undefined;
  const writer = debouncedWriter(
    files.cache,
    () => JSON.stringify({ owner: files.owner, client: latest }),
    SAVE_DELAY_MS,
  );
  return {
    persistClient(client) {
      latest = { ...client, clientState: asLastKnown(client.clientState) };
      writer.schedule();
    },
    restoreClient() {
      const kept = readKept(
        files.cache,
        files,
        (k) => (k.client as PersistedClient | undefined)?.buster === CACHE_VERSION,
        CACHE,
      );
      return kept?.client as PersistedClient | undefined;
    },
    removeClient() {
      writer.cancel();
      removeIfExists(files.cache);
    },
    flush: writer.flush,
  };
}

/**
 * Puts the kept server data into the query client (before the first frame) and keeps
 * saving it as it changes. `restoredAt` is when that data was last saved, if any was.
 */
export async function keepServerData(
  queryClient: QueryClient,
  session: Session,
  files: OfflineFiles,
): Promise<{ restoredAt: number | undefined; flush(): void; stop(): void }> {
  const persister = filePersister(files);
  let restoredAt: number | undefined;
  const options = {
    queryClient,
    persister,
    buster: CACHE_VERSION,
    maxAge: MAX_AGE_MS,
    dehydrateOptions: { shouldDehydrateQuery: shouldKeepQuery },
  };
  try {
    const kept = await persister.restoreClient();
    await persistQueryClientRestore({
      ...options,
      persister: { ...persister, restoreClient: () => kept },
    });
    if (kept && queryClient.getQueryCache().getAll().length > 0) {
      restoredAt = kept.timestamp;
      trimRestoredHistories(queryClient);
      learnFromCache(queryClient, session);
    }
  } catch (error) {
    logLine(files.log, `could not restore the cache: ${(error as Error).message}`);
  }
  const saving = saveOnChange(options);
  return {
    restoredAt,
    flush() {
      saving.saveIfAnswered();
      persister.flush();
    },
    stop: saving.stop,
  };
}

/**
 * Saves the kept queries a second after their data stops changing (within 5 s). TanStack's
 * persistQueryClientSubscribe dehydrated the whole cache at every cache event: an idle
 * client serialised its cache at every poll, and a burst of events did it per event (a
 * burst of 300 messages spent 16 s of CPU there). An unchanged answer keeps its data
 * object (structural sharing), so only a new object, a query added or one removed is worth
 * saving, and a run of changes (a burst) is one save, made off the key path by a timer.
 * Answers that changed nothing are saved once, at exit, so that the file's time says when
 * the data was last confirmed (the status bar's "last synced" at the next start).
 */
function saveOnChange(options: Parameters<typeof persistQueryClientSave>[0]) {
  const savedData = new WeakMap<object, unknown>();
  let answeredSinceSave = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let firstUnsaved: number | undefined;
  const save = () => {
    clearTimeout(timer);
    timer = undefined;
    firstUnsaved = undefined;
    answeredSinceSave = false;
    void persistQueryClientSave(options);
  };
  const changed = () => {
    const now = Date.now();
    firstUnsaved ??= now;
    clearTimeout(timer);
    const wait = Math.min(SAVE_WHEN_STILL_MS, firstUnsaved + SAVE_WITHIN_MS - now);
    timer = setTimeout(save, Math.max(0, wait));
    timer.unref?.();
  };
  const stopQueries = options.queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== "added" && event.type !== "removed" && event.type !== "updated") return;
    const { query } = event;
    if (event.type === "updated") {
      if (event.action.type === "success") answeredSinceSave = true;
      if (savedData.get(query) === query.state.data) return;
    }
    savedData.set(query, query.state.data);
    changed();
  });
  // Paused mutations are kept too (TanStack's default); they change only with user actions.
  const stopMutations = options.queryClient.getMutationCache().subscribe((event) => {
    if (event.type === "added" || event.type === "removed" || event.type === "updated") {
      changed();
    }
  });
  return {
    saveIfAnswered() {
      if (answeredSinceSave || timer) save();
    },
    stop() {
      clearTimeout(timer);
      stopQueries();
      stopMutations();
    },
  };
}

const SavedAttachment: z.ZodType<DraftAttachment> = z.object({
  file_url: z.string(),
  filename: z.string(),
  file_type: z.string().optional(),
});

/** The unsent work as read back: checked, since the outbox replays its changes to the server. */
const Carried = z.object({
  drafts: z.record(z.string(), z.string()).default({}),
  attachments: z.record(z.string(), z.array(SavedAttachment)).default({}),
  changes: z.array(SavedChange).default([]),
  mentionsOnly: z.array(z.string().max(200)).max(10_000).default([]),
});

/**
 * The drafts and unsent changes the last run left, if they are this user's. A file that
 * does not hold what parley writes (edited by hand, damaged) is set aside whole.
 */
export function loadCarriedOver(files: OfflineFiles): CarriedOver {
  const kept = readKept(files.carry, files, (k) => CARRY_READABLE.has(k.version), UNSENT);
  if (!kept) return {};
  const parsed = Carried.safeParse(kept);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.map(String).join(".").slice(0, 80) || "the file";
    const problem = `${where}: ${issue?.message ?? "not readable"}`;
    // The keys in the path come from the file: no control characters into the log.
    discard(files.carry, files, UNSENT, problem.replace(/[^\x20-\x7e]/g, "?"));
    return {};
  }
  return parsed.data;
}

/**
 * Saves the drafts, the outbox and the conversations set to ring on mentions whenever
 * they change (within half a second).
 */
export function keepCarriedOver(session: Session, files: OfflineFiles) {
  const produce = () => {
    const editing = session.drafts.editing.get();
    const drafts: Record<string, string> = {};
    for (const [id, draft] of Object.entries(session.drafts.texts.get())) {
      // During an edit the composer holds the message being edited; the draft waits aside.
      const text = editing?.message.conversation_id === id ? editing.savedDraft.value : draft.value;
      if (text.trim()) drafts[id] = text;
    }
    return JSON.stringify({
      version: CARRY_VERSION,
      owner: files.owner,
      drafts,
      attachments: session.drafts.attachments.get(),
      changes: session.outbox.changes.get(),
      mentionsOnly: [...session.mentionsOnly.get()],
    });
  };
  const writer = debouncedWriter(files.carry, produce, SAVE_DELAY_MS);
  const unsubscribe = [
    session.drafts.texts.subscribe(writer.schedule),
    session.drafts.attachments.subscribe(writer.schedule),
    session.drafts.editing.subscribe(writer.schedule),
    session.outbox.changes.subscribe(writer.schedule),
    session.mentionsOnly.subscribe(writer.schedule),
  ];
  return {
    flush: writer.flush,
    stop() {
      writer.flush();
      for (const off of unsubscribe) off();
    },
  };
}
