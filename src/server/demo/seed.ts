// Seeds the demo conversations once per database: scripted chats plus a busy team channel
// of 600+ messages, spread over the last days. Deterministic apart from the clock: the
// timestamps end a few minutes before the first start.
import { type IdPrefix, idAt, type Random } from "../ids.ts";
import type { Store } from "../store/index.ts";
import { between, pick, seededRandom } from "./random.ts";
import {
  type Extras,
  type Line,
  REACTION_NAMES,
  SCRIPTS,
  type Script,
  TEAM_GROUP,
  TEAM_LINES,
  TEAM_SERVICES,
} from "./scripts.ts";
import { contactId, type DemoUsername } from "./users.ts";

const SEEDED = "demo_seeded";
const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;
const TEAM_SIZE = 620;

type Planned = { sender: DemoUsername; text: string; at: number; extras: Extras };

/** Seeds once: not when already done, nor into a database that has conversations of its own. */
export function seedDemoConversations(store: Store, now: number): void {
  store.transaction(() => {
    if (store.meta.get(SEEDED) || store.conversations.any()) return;
    const seeder = createSeeder(store, now, seededRandom(20240611));
    for (const script of SCRIPTS) seeder.add(script, timeline(script, now, seeder.random));
    seeder.add(
      { with: TEAM_GROUP, startDaysAgo: 7, endMinutesAgo: 3, lines: [] },
      teamChannel(now, seeder.random),
      now - 2 * HOUR,
    );
    store.meta.set(SEEDED, String(now));
  });
}

function createSeeder(store: Store, now: number, random: Random) {
  let counter = 0;
  const newId = (prefix: IdPrefix, at: number) => idAt(prefix, at * 1000, counter++, random);

  function add(script: Script, planned: Planned[], aliceOpenedAt?: number): void {
    const first = planned[0]?.at ?? now - DAY;
    const last = planned.at(-1)?.at ?? first;
    const createdAt = first - between(random, 1, 3) * HOUR;
    const target = script.with;
    const members = "group" in target ? target.members : target.contact;
    const conversationId = newId("conv_", createdAt);
    if ("group" in target) {
      store.users.insertGroup(
        target.group,
        target.group.slice(4),
        createdAt - 30 * DAY,
        members.map(contactId),
      );
      store.conversations.insert(conversationId, { groupId: target.group }, createdAt);
      for (const member of members)
        store.conversations.addMember(conversationId, contactId(member), null);
    } else {
      const [a, b] = target.contact.map(contactId) as [string, string];
      store.conversations.insert(conversationId, { pairKey: [a, b].sort().join("|") }, createdAt);
      store.conversations.addMember(conversationId, a, b);
      store.conversations.addMember(conversationId, b, a);
    }

    const unread = script.alice?.unread ?? 0;
    const openedByAlice =
      aliceOpenedAt ?? (unread > 0 ? planned[planned.length - unread]!.at - 30 : last + 60);
    const folder = "group" in target ? target.group.slice(4) : target.contact.join("-");
    for (const line of planned) {
      const messageId = newId("msg_", line.at);
      const unseen =
        line.sender !== "alice" && members.includes("alice") && line.at > openedByAlice;
      store.messages.insert({
        id: messageId,
        conversationId,
        senderId: contactId(line.sender),
        body: line.text,
        createdAt: line.at,
        readAt: unseen ? null : Math.min(now, line.at + between(random, 30, 900)),
      });
      store.users.touch(contactId(line.sender), line.at);
      const file = line.extras.file;
      if (file) {
        const [filename, fileType, fileSize] = file;
        store.messages.addAttachments(
          messageId,
          [
            {
              id: newId("att_", line.at),
              filename,
              file_url: `https://files.example.com/${folder}/${filename}`,
              file_type: fileType,
              file_size: fileSize,
            },
          ],
          line.at,
        );
      }
      for (const [name, users] of Object.entries(line.extras.react ?? {})) {
        store.messages.setReaction(messageId, name, users);
      }
      if (line.extras.pin) store.conversations.setPinnedMessage(conversationId, messageId);
    }
    store.conversations.setActivity(conversationId, last);

    for (const member of members) {
      const id = contactId(member);
      const own = member === "alice" ? script.alice : script.settings?.[member];
      store.conversations.setOpened(
        conversationId,
        id,
        member === "alice" ? openedByAlice : last + 60,
      );
      if (own?.pinned) store.conversations.setPinned(conversationId, id, true);
      if (own?.muted) store.conversations.setMuted(conversationId, id, true);
    }
    const archivedDaysAgo = script.alice?.archivedDaysAgo;
    if (archivedDaysAgo !== undefined) {
      store.conversations.setArchived(
        conversationId,
        contactId("alice"),
        now - archivedDaysAgo * DAY,
      );
    }
  }

  return { add, random };
}

/** Times for a script: quick exchanges within a session, long pauses between sessions. */
function timeline(script: Script, now: number, random: Random): Planned[] {
  const sessions: Exclude<Line, "--">[][] = [[]];
  for (const line of script.lines) {
    if (line === "--") sessions.push([]);
    else sessions.at(-1)!.push(line);
  }
  const gaps = sessions.map((session) =>
    session.map((_, i) => (i === 0 ? 0 : between(random, 20, 240))),
  );
  const talking = gaps.flat().reduce((sum, gap) => sum + gap, 0);
  const start = now - script.startDaysAgo * DAY;
  const end = now - script.endMinutesAgo * MINUTE;
  const weights = sessions.slice(1).map(() => 0.5 + random());
  const weightSum = weights.reduce((sum, w) => sum + w, 0);
  const pauses = weights.map((w) => Math.floor(((end - start - talking) * w) / weightSum));
  let at = sessions.length === 1 ? end - talking : start;
  const planned: Planned[] = [];
  sessions.forEach((session, s) => {
    if (s > 0) at += pauses[s - 1]!;
    session.forEach(([sender, text, extras], i) => {
      at += gaps[s]![i]!;
      planned.push({ sender, text, at, extras: extras ?? {} });
    });
  });
  return planned;
}

/** The busy channel: a random walk back in time from a few minutes ago. */
function teamChannel(now: number, random: Random): Planned[] {
  const members = TEAM_GROUP.members;
  const planned: Planned[] = [];
  let at = now - 3 * MINUTE;
  let sender: DemoUsername = "bob";
  for (let i = 0; i < TEAM_SIZE; i++) {
    if (random() > 0.3)
      sender = pick(
        random,
        members.filter((m) => m !== sender),
      );
    const text = pick(random, TEAM_LINES).replace(/\{(\w+)\}/g, (_, key: string) => {
      if (key === "pr") return String(between(random, 400, 520));
      if (key === "svc") return pick(random, TEAM_SERVICES);
      if (key === "ms") return String(between(random, 80, 400));
      if (key === "ver") return `v1.${between(random, 4, 9)}.${between(random, 0, 12)}`;
      return pick(
        random,
        members.filter((m) => m !== sender),
      );
    });
    const extras: Extras = {};
    if (random() < 0.12) {
      const others = members.filter((m) => m !== sender);
      extras.react = {
        [pick(random, REACTION_NAMES)]: others.filter(() => random() < 0.35).slice(0, 3),
      };
      if (Object.values(extras.react)[0]!.length === 0)
        extras.react = { thumbsup: [pick(random, others)] };
    }
    if (random() < 0.012) {
      extras.file =
        random() < 0.7
          ? [`screenshot-${i}.png`, "image/png", between(random, 80_000, 900_000)]
          : [`notes-${i}.pdf`, "application/pdf", between(random, 40_000, 2_000_000)];
    }
    planned.push({ sender, text, at, extras });
    at -= random() < 1 / 35 ? between(random, 90, 840) * MINUTE : between(random, 15, 400);
  }
  return planned.reverse();
}
