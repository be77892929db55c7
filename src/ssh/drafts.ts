// Drafts and unsent changes of `parley ssh` sessions, kept per session so that nine
// sessions of one user no longer overwrite each other's (the last writer won). Each session
// writes a file of its own; a new session starts from all of the user's files, merged (two
// different drafts for one conversation are both kept, one after the other); the files of
// sessions that have ended are removed once the session that took them over has saved.
import { existsSync, readdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import {
  type KeptFor,
  loadCarriedOver,
  type OfflineFiles,
  offlineFiles,
} from "../client/offline.ts";
import type { DraftAttachment } from "../ui/composer/commands.ts";
import type { QueuedChange } from "../ui/queries/changes.ts";
import type { CarriedOver } from "../ui/screen/session.ts";

export type SessionDrafts = {
  /** Where this session saves (keepCarriedOver's files). */
  files: OfflineFiles;
  /** Everything the user's sessions left, merged. */
  carried: CarriedOver;
  /** Once this session has saved for the last time: removes the files it took over. */
  release(): void;
};

/** Two texts for one conversation: both, unless one already holds the other. */
function mergeText(a: string, b: string): string {
  if (a.includes(b)) return a;
  if (b.includes(a)) return b;
  return `${a}\n\n${b}`;
}

export function mergeCarried(all: readonly CarriedOver[]): CarriedOver {
  const drafts: Record<string, string> = {};
  const attachments: Record<string, DraftAttachment[]> = {};
  const changes = new Map<string, QueuedChange>();
  const mentionsOnly = new Set<string>();
  for (const carried of all) {
    for (const id of carried.mentionsOnly ?? []) mentionsOnly.add(id);
    for (const [id, text] of Object.entries(carried.drafts ?? {})) {
      drafts[id] = drafts[id] === undefined ? text : mergeText(drafts[id], text);
    }
    for (const [id, list] of Object.entries(carried.attachments ?? {})) {
      attachments[id] ??= [];
      const kept = attachments[id];
      for (const item of list) {
        if (!kept.some((k) => k.file_url === item.file_url)) kept.push(item);
      }
    }
    for (const change of carried.changes ?? []) {
      if (!changes.has(change.id)) changes.set(change.id, change);
    }
  }
  return { drafts, attachments, changes: [...changes.values()], mentionsOnly: [...mentionsOnly] };
}

/**
 * The drafts files of one session of a user: `tag` is this session's (unique), `live` the
 * tags of the user's other sessions still running, whose files are read but not taken.
 */
export function sessionDrafts(
  keepDir: string,
  user: KeptFor,
  tag: string,
  live: readonly string[],
): SessionDrafts {
  const shared = offlineFiles({ state: keepDir, cache: keepDir }, "parley ssh", user);
  const folder = dirname(shared.carry);
  const stem = basename(shared.carry, ".json");
  const fileOf = (t: string) => join(folder, `${stem}.${t}.json`);
  let names: string[] = [];
  try {
    // The user's one file from before sessions had their own, and every session's file.
    names = readdirSync(folder).filter(
      (name) => name === `${stem}.json` || (name.startsWith(`${stem}.`) && name.endsWith(".json")),
    );
  } catch {
    // No folder yet: nothing was kept.
  }
  const paths = names.map((name) => join(folder, name));
  const carried = mergeCarried(paths.map((carry) => loadCarriedOver({ ...shared, carry })));
  const own = fileOf(tag);
  const liveFiles = new Set(live.map(fileOf));
  const taken = paths.filter((path) => path !== own && !liveFiles.has(path));
  return {
    files: { ...shared, carry: own },
    carried,
    release() {
      // Only once this session's own file holds what it took over (it saved at least once).
      if (!existsSync(own)) return;
      for (const path of taken) rmSync(path, { force: true });
    },
  };
}
