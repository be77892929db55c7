// Seeds the demo conversations once per database: scripted chats plus a busy team channel
// of 600+ messages, spread over the last days. Deterministic apart from the clock: the
// timestamps end a few minutes before the first start.
import { type IdPrefix, idAt, type Random } from "../ids.ts";
import type { DemoData, Store } from "../store/store.ts";
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

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;
const TEAM_SIZE = 620;

type Planned = { sender: DemoUsername; text: string; at: number; extras: Extras };

/** Seeds once: not when already done, nor into a database that has conversations of its own. */
export async function seedDemoConversations(store: Store, now: number): Promise<void> {
  await store.demo.seedOnce(() => {
    const seeder = createSeeder(now, seededRandom(20240611));
    for (const script of SCRIPTS) seeder.add(script, timeline(script, now, seeder.random));
    seeder.add(
      { with: TEAM_GROUP, startDaysAgo: 7, endMinutesAgo: 3, lines: [] },
      teamChannel(now, seeder.random),
      now - 2 * HOUR,
    );
    return seeder.data;
  });
}

function createSeeder(now: number, random: Random) {
  let counter = 0;
  const newId = (prefix: IdPrefix, at: number) => idAt(prefix, at * 1000, counter++, random);
  const data: DemoData = {
    groups: [],
    conversations: [],
    memberships: [],
    messages: [],
    attachments: [],
    reactions: [],
    activity: {},
  };

  function add(script: Script, planned: Planned[], aliceOpenedAt?: number): void {
    const first = planned[0]?.at ?? now - DAY;
    const last = planned.at(-1)?.at ?? first;
    const createdAt = first - between(random, 1, 3) * HOUR;
    const target = script.with;
    const members = "group" in target ? target.members : target.contact;
    const conversationId = newId("conv_", createdAt);
    const conversation: DemoData["conversations"][number] = {
      id: conversationId,
      group_id: null,
      pair_key: null,
      pinned_message_id: null,
      last_active_at: last,
      created_at: createdAt,
    };
    data.conversations.push(conversation);
    const unread = script.alice?.unread ?? 0;
    const openedByAlice =
      aliceOpenedAt ?? (unread > 0 ? planned[planned.length - unread]!.at - 30 : last + 60);
    const archivedDaysAgo = script.alice?.archivedDaysAgo;
    const membership = (member: DemoUsername, contact: string | null) => {
      const own = member === "alice" ? script.alice : script.settings?.[member];
      data.memberships.push({
        user_id: contactId(member),
        conversation_id: conversationId,
        contact_id: contact,
        is_pinned: own?.pinned ?? false,
        is_muted: own?.muted ?? false,
        archived_at:
          member === "alice" && archivedDaysAgo !== undefined ? now - archivedDaysAgo * DAY : null,
        last_opened_at: member === "alice" ? openedByAlice : last + 60,
      });
    };
    if ("group" in target) {
      data.groups.push({
        id: target.group,
        name: target.group.slice(4),
        created_at: createdAt - 30 * DAY,
        members: members.map(contactId),
      });
      conversation.group_id = target.group;
      for (const member of members) membership(member, null);
    } else {
      const [a, b] = target.contact;
      conversation.pair_key = [contactId(a), contactId(b)].sort().join("|");
      membership(a, contactId(b));
      membership(b, contactId(a));
    }

    const folder = "group" in target ? target.group.slice(4) : target.contact.join("-");
    for (const line of planned) {
      const messageId = newId("msg_", line.at);
      const unseen =
        line.sender !== "alice" && members.includes("alice") && line.at > openedByAlice;
      data.messages.push({
        id: messageId,
        conversation_id: conversationId,
        sender_id: contactId(line.sender),
        body: line.text,
        created_at: line.at,
        read_at: unseen ? null : Math.min(now, line.at + between(random, 30, 900)),
      });
      const sender = contactId(line.sender);
      data.activity[sender] = Math.max(data.activity[sender] ?? 0, line.at);
      const file = line.extras.file;
      if (file) {
        const [filename, fileType, fileSize] = file;
        data.attachments.push({
          id: newId("att_", line.at),
          message_id: messageId,
          filename,
          file_url: `https://files.example.com/${folder}/${filename}`,
          file_type: fileType,
          file_size: fileSize,
          created_at: line.at,
        });
      }
      Object.entries(line.extras.react ?? {}).forEach(([name, users], index) => {
        if (users.length > 0) {
          data.reactions.push({
            message_id: messageId,
            name,
            position: index + 1,
            usernames: users,
          });
        }
      });
      if (line.extras.pin) conversation.pinned_message_id = messageId;
    }
  }

  return { add, random, data };
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
