// Mentions in the conversation list, and the "mentions" notify mode: a row whose unread
// messages name you carries an `@` beside its count; `M` goes round all / mentions / none,
// and a muted conversation set to mentions rings for a message naming you, and only that.
import { describe, expect, it } from "vitest";
import { keys } from "../../src/ui/queries/query-keys.ts";
import { until } from "../wait.ts";
import { harnessEachTest } from "./harness.tsx";
import {
  apiFor,
  conversationWith,
  firstInboxAnswer,
  selectRow,
  sidebarNames,
  trueColourForFile,
} from "./helpers.ts";

const each = harnessEachTest();

trueColourForFile();

/** The sidebar's first line of the row named `name`. */
const rowOf = (screen: string, name: string) =>
  screen.split("\n").find((line) => new RegExp(`^│[▸• ](?:\\S+ )?${name}\\s`, "u").test(line)) ??
  "";

describe("mentions in the list", () => {
  it("marks a row whose unread messages name you, beside the count", async () => {
    const h = await each.start();
    const carol = apiFor(h.server, 2);
    await h.waitFor((s) => s.includes("● online") && s.includes("#launch"), "the list");
    const launch = await conversationWith(carol, "launch");
    const design = await conversationWith(carol, "design");
    await carol.messages.send({ conversation_id: launch.id, message: "@alice ready to ship?" });
    await carol.messages.send({ conversation_id: design.id, message: "mockups v3 are up" });
    const screen = await h.waitFor(
      (s) => /@●\d/.test(rowOf(s, "#launch")) && /●2/.test(rowOf(s, "#design")),
      "both rows' news",
    );
    expect(rowOf(screen, "#design")).not.toContain("@●");
    // The mark stands out as well as reading as one: inverse, in the mention colour.
    const mark = h.looks("@●").at(0)!;
    expect(mark.inverse).toBe(true);
    expect(mark.bold).toBe(true);
  });

  it("M: a muted conversation set to mentions rings only for a message naming you", async () => {
    const h = await each.start();
    const erin = apiFor(h.server, 4);
    await h.waitFor((s) => s.includes("● online") && sidebarNames(s).includes("#lunch"), "#lunch");
    await firstInboxAnswer(h);
    // #lunch starts muted: M goes on to all (unmuted), then to mentions (muted again).
    await selectRow(h, "#lunch");
    await h.press("M");
    await h.waitFor((s) => s.includes("Unmuted #lunch."), "unmuted");
    await h.press("M");
    let screen = await h.waitFor(
      (s) => s.includes("#lunch: only messages that name you ring."),
      "mentions only",
    );
    expect(rowOf(screen, "#lunch")).toContain("🔕@ #lunch");
    const lunch = await conversationWith(erin, "lunch");
    expect(lunch.is_muted).toBe(false); // erin's own setting, not alice's
    await until(async () => {
      const mine = await conversationWith(apiFor(h.server), "lunch");
      return mine.is_muted;
    }, "muted on the server for alice");

    await erin.messages.send({ conversation_id: lunch.id, message: "pizza instead?" });
    await erin.messages.send({ conversation_id: lunch.id, message: "@alice you in?" });
    await h.waitFor(() => h.sequences.some((s) => s.includes("777;notify")), "a notification");
    await h.waitFor(() => {
      const inbox = JSON.stringify(h.queryClient.getQueryData(keys.messages.inbox()));
      return inbox.includes("pizza instead?") && h.queryClient.isFetching() === 0;
    }, "both messages in, and no request in flight");
    const notifications = h.sequences.filter((s) => s.includes("]777;"));
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toContain("@alice you in?");

    // M again: muted, nothing rings; and once more: all.
    await h.press("M");
    screen = await h.waitFor((s) => s.includes("#lunch: muted, nothing rings."), "none");
    expect(rowOf(screen, "#lunch")).toContain("🔕 #lunch");
    await h.press("M");
    await h.waitFor((s) => s.includes("Unmuted #lunch."), "all again");
  });
});
