// Demo replies: when someone sends a message, the other side answers a few seconds later
// (in a group, a random other member), and now and then reacts instead or as well.
// Replies are written straight to the store, so they never trigger replies themselves, nor
// count as their writer being signed in. Nobody answers in the name of a person who is
// signed in (a request with their token in the last minute): they answer for themselves.
import type { Random } from "../ids.ts";
import { errorForLog } from "../log.ts";
import type { SentEvent, Store } from "../store/store.ts";
import type { Presence } from "./presence.ts";
import { pick } from "./random.ts";

type Topic = { match: RegExp; replies: readonly string[]; reaction?: string };

const TOPICS: readonly Topic[] = [
  {
    match: /^(hi|hey|hello|morning|good morning|yo|hiya)\b/i,
    replies: ["hey!", "morning! ☕", "hi 👋", "hey, what's up?", "hello hello"],
    reaction: "wave",
  },
  {
    match: /\b(thanks|thank you|thx|ty)\b/i,
    replies: ["anytime!", "no problem", "happy to help", "np 🙂"],
    reaction: "heart",
  },
  {
    match: /\b(lunch|coffee|pizza|tacos|food|hungry)\b/i,
    replies: ["I'm in!", "give me 10 minutes", "the usual place?", "yes please, I'm starving"],
    reaction: "yum",
  },
  {
    match: /\b(ship|deploy|release|launch|merge[d]?)\b/i,
    replies: [
      "ship it! 🚀",
      "let's do it",
      "QA gave the thumbs up, go for it",
      "I'll watch the dashboards",
    ],
    reaction: "rocket",
  },
  {
    match: /\b(bug|broken|error|crash|fail(s|ed|ing)?|down)\b/i,
    replies: [
      "ugh, looking now",
      "can you send me the logs?",
      "I think I know what that is",
      "on it",
    ],
    reaction: "eyes",
  },
  {
    match: /\b(meeting|call|sync|1:1|standup)\b/i,
    replies: [
      "sure, send me an invite",
      "works for me",
      "can we do 15 minutes later?",
      "I'll be there",
    ],
  },
  {
    match: /\b(haha|lol|😂|funny)\b/i,
    replies: ["😂", "haha", "stop, I'm crying"],
    reaction: "joy",
  },
  {
    match: /\b(done|finished|fixed|shipped)\b/i,
    replies: ["nice work!", "🎉", "amazing, thanks", "that was fast"],
    reaction: "tada",
  },
];

const ANSWERS = [
  "yes, I think so",
  "not sure, let me check",
  "probably tomorrow",
  "good question, I'll find out",
  "I'd say yes",
  "hmm, not yet",
  "let's ask in standup",
  "yep!",
];

const GENERIC = [
  "sounds good",
  "makes sense",
  "ok 👍",
  "nice",
  "agreed",
  "got it, thanks",
  "interesting, tell me more",
  "will do",
  "let me think about it",
  "sure thing",
  "ha, true",
  "I was just about to say that",
];

/** A plausible answer to `text`, and the reaction that fits it. */
export function replyTo(text: string, random: Random): { reply: string; reaction: string } {
  const topic = TOPICS.find((t) => t.match.test(text));
  if (text.trim().endsWith("?")) {
    return { reply: pick(random, ANSWERS), reaction: topic?.reaction ?? "eyes" };
  }
  const reaction = topic?.reaction ?? pick(random, ["thumbsup", "heart", "+1"]);
  return { reply: pick(random, topic?.replies ?? GENERIC), reaction };
}

export type DemoReplier = { onMessageSent(message: SentEvent): void; close(): void };

export function createDemoReplier(options: {
  store: Store;
  /** Unix seconds. */
  now: () => number;
  newId: (prefix: "msg_") => string;
  presence: Presence;
  delayMs: readonly [number, number];
  random: Random;
  log: (line: string) => void;
}): DemoReplier {
  const { store, random } = options;
  const timers = new Set<NodeJS.Timeout>();
  // One pending answer per conversation: a burst of messages gets one reply, not a flood.
  const pending = new Set<string>();
  let closed = false;

  async function answer(message: SentEvent): Promise<void> {
    const original = await store.messages.head(message.id);
    if (!original) return;
    const members = await store.conversations.members(message.conversationId);
    const others: typeof members = [];
    for (const member of members) {
      if (member.id !== message.senderId && !(await options.presence.signedIn(member.id))) {
        others.push(member);
      }
    }
    if (closed || others.length === 0) return;
    const replier = pick(random, others);
    const { reply, reaction } = replyTo(original.body, random);
    const roll = random();
    const react = roll < 0.25;
    const write = !(roll < 0.12);
    const now = options.now();
    if (react) await store.messages.addReaction(message.id, reaction, replier.username);
    if (write) {
      const id = options.newId("msg_");
      const sent = { id, conversationId: message.conversationId, senderId: replier.id };
      await store.messages.send({ ...sent, body: reply, createdAt: now }, []);
      await store.users.touch(replier.id, now);
    }
  }

  return {
    onMessageSent(message) {
      if (pending.has(message.conversationId)) return;
      pending.add(message.conversationId);
      const [min, max] = options.delayMs;
      const timer = setTimeout(
        () => {
          timers.delete(timer);
          pending.delete(message.conversationId);
          answer(message).catch((error: unknown) => {
            if (!closed) options.log(`demo reply failed: ${errorForLog(error)}`);
          });
        },
        min + random() * (max - min),
      );
      timers.add(timer);
    },
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      pending.clear();
    },
  };
}
