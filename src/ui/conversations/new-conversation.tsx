// The prompt for a new conversation: a person's user name, completed from the people the
// server knows (queries/contacts.ts) and the contacts seen in messages, or a group's name
// (team, #team) or id (grp_…). Contact ids stay the server's business: one typed (ct_…) still works, and on a
// server that does not list people (a foreign one) the people seen so far are offered and
// typed text goes as a contact id, as before.
import { Text } from "ink";
import { useEffect, useRef, useState } from "react";
import type { PeopleFound } from "../../api/client.ts";
import type { Person } from "../../api/schema.ts";
import { useLineInput, usePromptKeys } from "../composer/line-input.tsx";
import { PromptBox } from "../composer/prompt-box.tsx";
import type { ScreenCell } from "../composer/terminal-cursor.tsx";
import { useTheme } from "../look/theme.ts";
import { personName, suggestPeople, typedTarget } from "../model/contact-book.ts";
import { useFindGroup, useFindPeople, usePeopleSearch } from "../queries/contacts.ts";
import { NEW_CONVERSATION_ROWS } from "../screen/layout.ts";
import { useContacts, useMe } from "../screen/session-context.tsx";
import { screenText } from "../text/sanitize.ts";
import { truncate } from "../text/width.ts";

type Props = {
  width: number;
  /** The screen cell of the prompt's top-left corner. */
  origin?: ScreenCell;
  /** A contact id, or a group id (`grp_…`). */
  onSubmit: (id: string) => void;
  onCancel: () => void;
};

/** A line under the text instead of the people: looking a name up, or nobody has it. */
type Note = { kind: "finding" | "unknown"; text: string };

/**
 * Which person Enter starts (-1: the text as typed): the one picked with ↑↓ Tab, else, on a
 * server that lists people, the one a name typed in part completes to (its whole name
 * first, else the best match, listed first), so that what is marked is what Enter takes.
 * A server that does not list people takes typed text as a contact id: nothing is marked.
 */
function marked(
  suggestions: readonly Person[],
  picked: string | undefined,
  typed: string,
  listsPeople: boolean,
): number {
  const at = suggestions.findIndex((p) => p.id === picked);
  const text = typed.trim().toLowerCase();
  if (at >= 0 || !listsPeople || text === "" || text.startsWith("grp_")) return at;
  const whole = suggestions.findIndex((p) => personName(p).toLowerCase() === text);
  return whole >= 0 ? whole : suggestions.length > 0 ? 0 : -1;
}

export function NewConversation({ width, onSubmit, onCancel, origin }: Props) {
  const theme = useTheme();
  const me = useMe();
  const contacts = useContacts();
  const [value, setValue] = useState("");
  // The text as of the last key: Enter typed in the same read as the text sees it all.
  const latest = useRef("");
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const [note, setNote] = useState<Note | undefined>(undefined);
  // Enter may find the name after a moment: typing since, or closing, means something else.
  const typedSince = useRef(0);
  useEffect(
    () => () => {
      typedSince.current = Number.NaN;
    },
    [],
  );
  const line = useLineInput("", (next) => {
    latest.current = next;
    setValue(next);
    setPicked(undefined);
    setNote(undefined);
    typedSince.current++;
  });
  const search = usePeopleSearch(value);
  const findPeople = useFindPeople();
  const findGroup = useFindGroup();
  const suggestions = suggestPeople(value, search.people, contacts.values(), me);
  const listsPeople = search.supported !== false;
  const at = marked(suggestions, picked, value, listsPeople);

  const submitTyped = async (text: string) => {
    if (text.startsWith("grp_")) {
      onSubmit(text);
      return;
    }
    let found: PeopleFound | undefined;
    if (search.supported !== false) {
      const asked = typedSince.current;
      setNote({ kind: "finding", text });
      found = await findPeople(text);
      if (typedSince.current !== asked) return;
    }
    // A server that could not say (it failed just now) is taken as one that does not list
    // people: the text goes as it is, as before.
    const people = [...(found?.people ?? []), ...contacts.values()];
    const target = typedTarget(text, people, found?.supported === true);
    if ("id" in target) {
      onSubmit(target.id);
      return;
    }
    // Nobody of that name: a group of theirs, perhaps (#team, or team).
    const asked = typedSince.current;
    setNote({ kind: "finding", text });
    const group = await findGroup(text).catch(() => undefined);
    if (typedSince.current !== asked) return;
    if (group !== undefined) return onSubmit(group);
    // Typed and Entered in one read, before the list showed it: the name it completes to.
    const completed = found?.supported ? suggestPeople(text, people, [], me)[0] : undefined;
    if (completed) onSubmit(completed.id);
    else setNote({ kind: "unknown", text: target.unknown });
  };

  usePromptKeys(line, "new conversation", {
    "newConversation.cancel": onCancel,
    "newConversation.down": () =>
      setPicked(suggestions[Math.min(suggestions.length - 1, at + 1)]?.id),
    "newConversation.up": () => setPicked(at > 0 ? suggestions[at - 1]?.id : undefined),
    "newConversation.start": () => {
      // Enter again while a name is being looked up would start it twice.
      if (note?.kind === "finding") return;
      const text = latest.current.trim();
      // A pick holds for the text it was made on (text and Enter may come in one read).
      if (at >= 0 && latest.current === value) onSubmit(suggestions[at]!.id);
      else if (text !== "") void submitTyped(text);
    },
    // Everything else is typing, for the text input only: no global key may see it.
    "newConversation.type": line.type,
  });

  const below = (text: string, color?: string) => (
    <Text color={color} wrap="truncate-end">
      {truncate(`  ${text}`, width - 4)}
    </Text>
  );
  return (
    <PromptBox
      width={width}
      height={NEW_CONVERSATION_ROWS}
      origin={origin}
      label="new conversation with: "
      state={line.state}
      placeholder={listsPeople ? "a person's or a group's name" : "ct_… or grp_…"}
      hint={
        listsPeople
          ? "type a name · ↑↓ Tab pick · Enter starts the one marked ▸ · Esc cancels"
          : "↑↓ Tab pick someone seen in messages, or type a contact id · Enter starts · Esc cancels"
      }
    >
      {note?.kind === "unknown"
        ? below(`No one and no group of yours called "${screenText(note.text)}" here`, theme.error)
        : note?.kind === "finding"
          ? below(`looking for "${screenText(note.text)}"…`, theme.dim)
          : suggestions.map((p, i) => (
              <Text key={p.id} inverse={i === at} wrap="truncate-end">
                {truncate(`${i === at ? "▸ " : "  "}${screenText(personName(p))}`, width - 4)}
              </Text>
            ))}
      {note === undefined &&
      suggestions.length === 0 &&
      search.supported === true &&
      value.trim() === ""
        ? below("nobody else here yet (an operator adds people: parley users add NAME)", theme.dim)
        : null}
    </PromptBox>
  );
}
