// The people-facing text the binding table makes:
// - `label` makes the binding head a help row: its keys as the help shows them, then `does`.
//   The help sums several bindings up in one row (↑ ↓ / k j are four), so the others in
//   that row have no label; their `does` is for the reader of the table.
// - `readme` puts the row in the README's key table too, with more words where the README
//   has room for them (`true`: as the help says it).
// - `hint` gives the binding's short form for a status-bar line; `HINTS` says which
//   bindings each line shows, in its order.
// Where a binding lives is independent of where the help shows it: `SECTION` maps scopes to
// the help's headings, `SECTIONS` orders them.
import { COMPOSER_COMMANDS } from "../composer/commands.ts";
import type { Binding, HintLine, Scope } from "../keys/binding.ts";
import { activeBindings, BINDINGS, type BindingId } from "../keys/bindings.ts";

export const SECTIONS = [
  "anywhere",
  "not typing",
  "conversations",
  "messages",
  "prompts and dialogs",
  "composer",
  "composer commands",
] as const;
export type Section = (typeof SECTIONS)[number];

export const SECTION: Record<Scope, Section> = {
  anywhere: "anywhere",
  panes: "anywhere",
  "not typing": "not typing",
  conversations: "conversations",
  messages: "messages",
  composer: "composer",
  completion: "composer",
  search: "prompts and dialogs",
  "message search": "prompts and dialogs",
  "new conversation": "prompts and dialogs",
  attach: "prompts and dialogs",
  reactions: "prompts and dialogs",
  links: "prompts and dialogs",
  "reaction name": "prompts and dialogs",
  reactors: "prompts and dialogs",
  confirm: "prompts and dialogs",
  help: "prompts and dialogs",
  "too small": "anywhere",
};

export type HelpRow = { keys: string; does: string };
export type HelpSection = { where: Section; rows: HelpRow[] };

function sections(
  table: readonly Binding[],
  row: (binding: Binding) => HelpRow | undefined,
): HelpSection[] {
  return SECTIONS.map((where) => ({
    where,
    rows: table.flatMap((b) => {
      const shown = SECTION[b.scope] === where ? row(b) : undefined;
      return shown ? [shown] : [];
    }),
  })).filter((section) => section.rows.length > 0);
}

/**
 * The help overlay's table: every labelled binding in use (the person's own keys in place),
 * by section; then the composer's commands.
 */
export function helpSections(): HelpSection[] {
  return [
    ...sections(activeBindings(), (b) =>
      b.label === undefined ? undefined : { keys: b.label, does: b.does },
    ),
    {
      where: "composer commands",
      rows: COMPOSER_COMMANDS.map((c) => ({ keys: c.usage, does: c.does })),
    },
  ];
}

/** The mouse, for the help's last section (no key: the dispatcher routes it by position). */
export const MOUSE_HELP: HelpRow[] = [
  { keys: "wheel", does: "scroll the pane under the pointer" },
  { keys: "click", does: "select a conversation or message, focus its pane" },
  { keys: "Shift+drag", does: "select text, in most terminals (mouse: false turns it off)" },
];

/** The README's "Keys" table, as markdown (test/e2e/help.test.ts holds the README to it). */
export function readmeKeyTable(): string {
  const rows = sections(BINDINGS, (b) => {
    if (b.readme === undefined || b.label === undefined) return undefined;
    const more = b.readme === true ? {} : b.readme;
    return { keys: more.keys ?? b.label, does: more.does ?? b.does };
  });
  const lines = ["| where | key | does |", "|---|---|---|"];
  for (const section of rows) {
    for (const row of section.rows) lines.push(`| ${section.where} | ${row.keys} | ${row.does} |`);
  }
  return `${lines.join("\n")}\n`;
}

function hintLine(
  table: readonly Binding[],
  line: HintLine,
  ids: readonly BindingId[],
  lead?: string,
): string {
  const parts = ids.map((id) => {
    const text = table.find((b) => b.id === id)?.hint?.[line];
    if (text === undefined) throw new Error(`${id} has no hint for the ${line} line`);
    return text;
  });
  return (lead ? [lead, ...parts] : parts).join(" · ");
}

/** Which bindings each status-bar line shows, in its order (and words before them). */
const HINT_LINES: Record<HintLine, { ids: readonly BindingId[]; lead?: string }> = {
  sidebar: {
    ids: [
      "conversation.up",
      "conversation.open",
      "conversation.pin",
      "conversation.mute",
      "conversation.archive",
      "conversation.delete",
      "conversation.search",
      "app.newConversation",
      "app.help",
    ],
  },
  messages: {
    ids: [
      "message.up",
      "message.react",
      "message.edit",
      "message.delete",
      "message.pin",
      "message.copy",
      "message.open",
      "message.attach",
      "message.search",
      "message.first",
      "message.back",
      // Not "? help": the header says it, and the line must fit 120 columns.
    ],
  },
  composer: {
    ids: [
      "composer.send",
      "composer.newLine",
      "composer.editLast",
      "composer.externalEditor",
      "composer.back",
      "global.nextPane",
    ],
  },
  completion: { ids: ["completion.take", "completion.next", "completion.close"] },
  editing: { ids: ["composer.send", "composer.back"], lead: "editing your message" },
  react: { ids: ["reaction.previous", "reaction.toggle", "reaction.name", "reaction.close"] },
  links: { ids: ["link.previous", "link.pick", "link.close"] },
  help: { ids: ["help.up", "help.close"] },
  new: {
    ids: ["newConversation.down", "newConversation.start", "newConversation.cancel"],
    lead: "new conversation",
  },
};

let hinted: { of: readonly Binding[]; lines: Record<HintLine, string> } | undefined;

/** The status bar's lines of keys for the focused pane, an edit in progress, or a dialog. */
export function hintLines(): Record<HintLine, string> {
  const table = activeBindings();
  if (hinted?.of === table) return hinted.lines;
  const lines = Object.fromEntries(
    Object.entries(HINT_LINES).map(([line, { ids, lead }]) => [
      line,
      hintLine(table, line as HintLine, ids, lead),
    ]),
  ) as Record<HintLine, string>;
  hinted = { of: table, lines };
  return lines;
}

/**
 * The status bar's hint line: the open dialog's keys, else the completion list's while it
 * shows (Tab, Enter and Esc are its then, not the composer's), else the focused pane's.
 */
export function hintsFor(
  dialog: string | undefined,
  focus: "sidebar" | "messages" | "composer",
  editing: boolean,
  completing = false,
): string {
  const lines = hintLines();
  if (dialog === "react" || dialog === "links" || dialog === "help" || dialog === "new") {
    return lines[dialog];
  }
  if (focus !== "composer") return lines[focus];
  return completing ? lines.completion : editing ? lines.editing : lines.composer;
}
