// The people the server knows, for the new-conversation prompt (GET /v1/contacts, parley's
// own extension): asked once the typing pauses, each text's answer cached a while. The
// empty text is asked first, as the prompt opens: its answer is the list shown before
// anything is typed, and says whether the server has the endpoint at all. A server that
// does not (a foreign one) is asked nothing more; the prompt then offers the contacts
// seen in messages only. The names the server lists go in the contact book too, so that a
// conversation started with someone is called by their name before they have written.
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import type { PeopleFound } from "../../api/client.ts";
import { ApiError } from "../../api/errors.ts";
import type { Person } from "../../api/schema.ts";
import type { Session } from "../screen/session.ts";
import { useSession } from "../screen/session-context.tsx";
import { keys } from "./query-keys.ts";

/** How many people one answer lists (the prompt shows five; the rest are refined locally). */
const LIMIT = 10;
/** The typing pause after which the text is asked. */
const PAUSE_MS = 150;
/** How long an answer is used as it is before it is asked again. */
const FRESH_MS = 30_000;
/** The longest text the server searches for (longer cannot be a user name anyway). */
const MAX_TEXT = 64;

/** The text as it is asked and cached: names are matched in lower case. */
const searchText = (typed: string) => typed.trim().toLowerCase();

function peopleOptions(session: Session, text: string) {
  return queryOptions({
    queryKey: keys.contacts.search(text),
    queryFn: async () => {
      const found = await session.api.contacts.search(text, LIMIT);
      session.contacts.know(found.people);
      return found;
    },
    staleTime: FRESH_MS,
  });
}

export type PeopleSearch = {
  /** Whether the server lists people; undefined until it has answered (or when it failed). */
  supported: boolean | undefined;
  /** The server's people for the typed text, or for a text typed a moment before. */
  people: readonly Person[];
};

/** The server's people for what is typed (nothing is asked while not `enabled`). */
export function usePeopleSearch(typed: string, enabled = true): PeopleSearch {
  const session = useSession();
  const text = useSettled(searchText(typed), PAUSE_MS);
  const first = useQuery({ ...peopleOptions(session, ""), enabled });
  const supported = first.data?.supported;
  const asked = useQuery({
    ...peopleOptions(session, text),
    enabled: enabled && supported === true && text !== "" && text.length <= MAX_TEXT,
    // While the next text's answer is on its way, the last one stays (refined locally).
    placeholderData: keepPreviousData,
  });
  const answer = text === "" ? first.data : (asked.data ?? first.data);
  return { supported, people: answer?.people ?? [] };
}

/**
 * Asks for the people called `typed` now (from the cache when fresh): what Enter uses when
 * the typing has not paused long enough. Undefined when the server could not say.
 */
export function useFindPeople(): (typed: string) => Promise<PeopleFound | undefined> {
  const session = useSession();
  const queryClient = useQueryClient();
  return useCallback(
    async (typed) => {
      const text = searchText(typed);
      if (text.length > MAX_TEXT) return { supported: true, people: [], has_more: false };
      return queryClient.fetchQuery(peopleOptions(session, text)).catch(() => undefined);
    },
    [session, queryClient],
  );
}

/** `value`, once it has stayed the same for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** A group's name as `parley groups add` allows it; typed with or without a leading #. */
const GROUP_NAME = /^#?([a-z0-9][a-z0-9._-]{0,31})$/;

/**
 * The group a typed name is, for one of its members: `team` (or `#team`) is `grp_team`
 * when the server opens that group's conversation for them (it makes it the first time,
 * which is what Enter in the prompt is for). Undefined when there is no such group of
 * theirs; a failure to reach the server is thrown.
 */
export function useFindGroup(): (typed: string) => Promise<string | undefined> {
  const session = useSession();
  return useCallback(
    async (typed) => {
      const name = GROUP_NAME.exec(typed.trim().toLowerCase())?.[1];
      if (name === undefined) return undefined;
      const id = `grp_${name}`;
      try {
        await session.api.conversations.create({ group_id: id });
        return id;
      } catch (error) {
        if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
          return undefined;
        }
        throw error;
      }
    },
    [session],
  );
}
