// Sends that have not landed, as the messages pane lays them out: what state each is in,
// and why, said once for a run of sends held back by the same reason.
import { describe, expect, it } from "vitest";
import { type Item, layoutItem } from "../../src/ui/messages/message-lines.ts";
import type { OutboxEntry } from "../../src/ui/queries/outbox.ts";

const GONE = "Cannot reach http://127.0.0.1:4317 (connection refused).";

function send(n: number, status: OutboxEntry["status"], error?: string): Item {
  const entry: OutboxEntry = {
    id: `c${n}`,
    conversationId: "conv_1",
    text: `message ${n}`,
    attachments: [],
    idempotencyKey: `k${n}`,
    status,
    ...(error !== undefined && { error }),
    submittedAt: 1_700_000_000 + n,
  };
  return { kind: "outbox", key: `out:k${n}`, entry };
}

/** The pane's text for `items` in order, each laid out after the one before it. */
function pane(items: Item[]): string[] {
  return items.flatMap((item, i) =>
    layoutItem(item, items[i - 1], { width: 100, me: "alice", now: 1_700_000_000 }).map((line) =>
      line.map((s) => s.text).join(""),
    ),
  );
}

const reasons = (lines: string[]) =>
  lines.filter((l) => l.includes("Cannot reach")).map((l) => l.trim());

describe("sends not on the server yet", () => {
  it("say why once for a run waiting on the same reason, under the first", () => {
    const lines = pane([
      send(1, "waiting", GONE),
      send(2, "waiting", GONE),
      send(3, "waiting", GONE),
    ]);
    expect(reasons(lines)).toEqual([`◷ ${GONE}`]);
    // Waiting is no failure: no red ✗ on any of them (issue 40, trip 13).
    expect(lines.filter((l) => l.includes("✗"))).toEqual([]);
    expect(lines.findIndex((l) => l.includes(GONE))).toBeLessThan(
      lines.findIndex((l) => l.includes("message 2")),
    );
    // Each still says what it is and what d does.
    expect(lines.filter((l) => l.includes("d drops"))).toHaveLength(3);
    expect(lines.filter((l) => /message [123]/.test(l))).toHaveLength(3);
  });

  it("say it again where the reason or the state changes", () => {
    const refused = "The server refused this message: it is too long.";
    const lines = pane([
      send(1, "waiting", GONE),
      send(2, "failed", refused),
      send(3, "waiting", GONE),
      send(4, "failed", refused),
      send(5, "failed", refused),
    ]);
    expect(reasons(lines)).toHaveLength(2);
    expect(lines.filter((l) => l.includes(refused))).toHaveLength(2);
    expect(lines.filter((l) => l.includes("Enter retries"))).toHaveLength(3);
  });
});
