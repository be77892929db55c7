// Mentions and what rings: a message mentions you when it says `@you` by user name (not
// inside a longer name or an e-mail address); the `notify` setting, global and per
// conversation, decides which news rings the bell and notifies.
import { splitQuote } from "./quote.ts";

export type NotifyLevel = "all" | "mentions" | "none";

export type NotifySettings = {
  /** The config file's `notify`: default `all`. */
  level?: NotifyLevel;
  /** The config file's `notifyConversations`, by conversation id, over `level`. */
  conversations?: Readonly<Record<string, NotifyLevel>>;
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether `text` mentions `me` (`@alice`, case-insensitive, as a whole name). */
export function mentions(text: string, me: string | undefined): boolean {
  if (!me) return false;
  // A reply's quote of a message that named you is not a mention of you (model/quote.ts).
  const { reply } = splitQuote(text);
  return new RegExp(`(?<![\\w.@+-])@${escapeRegExp(me)}(?![\\w-])`, "iu").test(reply);
}

/** The level that applies in `conversationId`. */
export function notifyLevel(settings: NotifySettings | undefined, conversationId: string) {
  return settings?.conversations?.[conversationId] ?? settings?.level ?? "all";
}

/** Whether news in a conversation that is not muted rings and notifies. */
export function shouldNotify(
  settings: NotifySettings | undefined,
  message: { conversation_id: string; message: string },
  me: string | undefined,
): boolean {
  switch (notifyLevel(settings, message.conversation_id)) {
    case "all":
      return true;
    case "mentions":
      return mentions(message.message, me);
    case "none":
      return false;
  }
}
