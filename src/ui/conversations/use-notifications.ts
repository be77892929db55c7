// Rings the terminal bell and sends a desktop notification (OSC 777 / OSC 9, which reach
// the person's own machine across SSH) when a message from someone else arrives in a
// conversation that is not muted and not the one on screen. Muted conversations never
// notify, but for a message naming you in one set to "mentions" (`M`: mentionsOnly). Each
// switch is in the config file (`bell`, `notifications`), and `notify` (all, mentions,
// none; per conversation in `notifyConversations`) says which news counts.
import { useEffect, useRef } from "react";
import type { Message } from "../../api/schema.ts";
import { mentions, shouldNotify } from "../model/mentions.ts";
import { splitQuote } from "../model/quote.ts";
import { useFetchMutedIds, useFindConversation } from "../queries/conversations.ts";
import { useIsLive } from "../queries/live.ts";
import { useInbox } from "../queries/previews.ts";
import { useMe, useSession } from "../screen/session-context.tsx";
import { notify } from "../screen/terminal-out.ts";
import { conversationName } from "./names.ts";

export function useNotifications(openId: string | undefined): void {
  const session = useSession();
  const me = useMe();
  const findConversation = useFindConversation();
  const inbox = useInbox();
  const fetchMutedIds = useFetchMutedIds();
  // Live, a mute made elsewhere comes as an event: the cache knows it, no need to ask.
  const live = useIsLive();
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!inbox) return;
    // The first answer is history, not news.
    if (seen.current === null) {
      seen.current = new Set(inbox.map((m) => m.id));
      return;
    }
    const fresh: Message[] = [];
    // Muted, but set to ring when named (`M`): these ring whatever the mute says.
    const named = new Set<string>();
    const mentionsOnly = session.mentionsOnly.get();
    for (const m of inbox) {
      if (seen.current.has(m.id)) continue;
      seen.current.add(m.id);
      if (m.contact.username === me || m.conversation_id === openId) continue;
      if (mentionsOnly.has(m.conversation_id)) {
        if (!mentions(m.message, me)) continue;
        named.add(m.id);
        fresh.push(m);
      } else if (shouldNotify(session.notify, m, me)) fresh.push(m);
    }
    if (fresh.length === 0) return;
    const options = session.notify ?? { bell: true, desktop: true };
    void (live ? Promise.resolve(undefined) : fetchMutedIds()).then((mutedIds) => {
      for (const m of newestOfEach(fresh)) {
        const conversation = findConversation(m.conversation_id);
        // The server's answer, else what the cache knows.
        const muted = mutedIds ? mutedIds.has(m.conversation_id) : conversation?.is_muted;
        if (muted && !named.has(m.id)) continue;
        const where = conversation
          ? conversationName(conversation, session.contacts.get())
          : "parley";
        const title = where.startsWith("#")
          ? `${m.contact.username} in ${where}`
          : m.contact.username;
        notify(
          session.terminal,
          title,
          splitQuote(m.message).reply || "sent an attachment",
          options,
        );
      }
    });
  }, [inbox, me, openId, findConversation, session, fetchMutedIds, live]);
}

/**
 * One notification per conversation for what arrived at once (a burst of a bot's 300
 * messages rings once), the newest of each, oldest conversation first. `fresh` is newest first.
 */
function newestOfEach(fresh: readonly Message[]): Message[] {
  const seen = new Set<string>();
  const newest: Message[] = [];
  for (const m of fresh) {
    if (seen.has(m.conversation_id)) continue;
    seen.add(m.conversation_id);
    newest.push(m);
  }
  return newest.reverse();
}
