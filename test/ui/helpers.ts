// Helpers for tests of the whole client: the server's side over its API, and the screen
// read as a person reads it (rows of the sidebar by name, the cursor, the composer).
import chalk from "chalk";
import { afterAll, beforeAll } from "vitest";
import { type Api, createApi } from "../../src/api/client.ts";
import type { Conversation, Message } from "../../src/api/schema.ts";
import type { RunningServer } from "../../src/server/index.ts";
import { keys } from "../../src/ui/queries/query-keys.ts";
import { type Harness, KEYS } from "./harness.tsx";

export function apiFor(server: RunningServer, user = 0): Api {
  return createApi({ baseUrl: server.url, token: server.demoUsers[user]!.token });
}

export async function conversationWith(api: Api, name: string): Promise<Conversation> {
  for await (const page of api.conversations.pages({ limit: 100 })) {
    const found = page.data.find(
      (c) => c.contact_id === `ct_${name}` || c.group_id === `grp_${name}`,
    );
    if (found) return found;
  }
  throw new Error(`no conversation with ${name}`);
}

/** The newest message of the conversation with `name`, as `api`'s user sees it. */
export async function newestMessage(api: Api, name: string): Promise<Message | undefined> {
  const { id } = await conversationWith(api, name);
  return (await api.messages.list({ conversation_id: id, limit: 1 })).data[0];
}

/** Types `text` in the composer, sends it, and waits until it shows, sent. */
export async function sendOwn(h: Harness, text: string) {
  await h.type(text);
  await h.press(KEYS.enter);
  await h.waitFor((s) => s.includes(text) && !s.includes("sending…"), "the message, sent");
}

/** The message pane's title line: the conversation's name, then what the pane says on the right. */
export const titleLine = (screen: string) => screen.split("\n")[2] ?? "";

/** What the right side of the screen shows (the sidebar's previews left out). */
export const paneText = (screen: string) =>
  screen
    .split("\n")
    .map((line) => line.split("││")[1] ?? "")
    .join("\n");

/** The message lines marked as selected, as one text. */
export const markedLines = (screen: string) =>
  screen
    .split("\n")
    .filter((line) => line.includes("│▌"))
    .join("\n");

/** Rows of the sidebar, top to bottom, as the names they show. */
export function sidebarNames(screen: string): string[] {
  return screen
    .split("\n")
    .map((line) => /^│[▸• ](?:[📌🔕📦@]+ )?(\S+)/u.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && !/^\d/.test(name));
}

/** The index of the selected sidebar row among the rows shown. */
export const sidebarCursor = (screen: string) =>
  screen
    .split("\n")
    .filter((line) => /^│[▸• ](?:[📌🔕📦]+ )?\S/u.test(line) && !/^│[▸• ]\s*\d/u.test(line))
    .findIndex((line) => line.startsWith("│▸"));

/** Types `line` into the composer and presses Enter. */
export async function enterLine(h: Harness, line: string) {
  await h.type(line);
  await h.press(KEYS.enter);
}

/** Enters `line`, and waits for the status bar's one line about it: "Not attached: `why`". */
export async function refusedAttach(h: Harness, line: string, why: string) {
  await enterLine(h, line);
  return h.waitFor((s) => s.includes(`Not attached: ${why}`), `the refusal (${why})`);
}

/** Until the first inbox answer is in: it is history, only what arrives after it is news. */
export async function firstInboxAnswer(h: Harness) {
  await h.waitFor(
    () => h.queryClient.getQueryData(keys.messages.inbox()) !== undefined,
    "the first inbox answer",
  );
}

/** Moves the sidebar cursor to the row named `name`, up or down. */
export async function selectRow(h: Harness, name: string) {
  const selected = new RegExp(`│▸(?:[📌🔕📦@]+ )?${name}\\s`, "u");
  await h.waitFor(
    (s) => sidebarNames(s).includes(name) && s.includes("│▸"),
    `${name} in the sidebar, and a row selected`,
  );
  const cursorRow = (s: string) => s.split("\n").find((line) => /^[│║]▸/.test(line));
  const selectedName = (s: string) =>
    /^[│║]▸(?:[📌🔕📦@]+ )?(\S+)/u.exec(cursorRow(s) ?? "")?.[1] ?? "";
  for (let i = 0; i < 20 && !selected.test(h.screen()); i++) {
    const screen = h.screen();
    const before = cursorRow(screen);
    const names = sidebarNames(screen);
    // The list may have reordered since (news moves a row up): go the way the row is.
    const up = names.indexOf(name) < names.indexOf(selectedName(screen));
    await h.press(up ? "k" : "j");
    // One step at a time: the next key only once the screen shows this one.
    await h.waitFor((s) => cursorRow(s) !== before, "the cursor to move");
  }
  await h.waitFor((s) => selected.test(s), `${name} selected`);
}

/**
 * Opens the conversation named `name` and waits until its messages are on screen: a key
 * for a message pressed while the pane still says "loading…" finds no message to act on.
 */
export async function openFirst(h: Harness, name: string) {
  await selectRow(h, name);
  await h.press(KEYS.enter);
  await h.waitFor(
    (s) => s.includes(`Message ${name}`) && !s.includes("loading…"),
    "the composer, and the messages loaded",
  );
}

/**
 * Colours and inverse as a true-colour terminal gets them, for the whole test file: the
 * test runner's output is no terminal, so chalk, which Ink styles with, would print none.
 */
export function trueColourForFile(): void {
  const level = chalk.level;
  beforeAll(() => {
    chalk.level = 3;
  });
  afterAll(() => {
    chalk.level = level;
  });
}
