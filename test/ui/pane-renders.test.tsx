// A new message renders the message pane once. The search's count of messages walked was
// set after every change of the items, even with no search under way: React rendered the
// pane again, to the same result, and Ink drew the whole frame again, once per batch of a
// burst (found by counting the pane's renders through one).
import { Text } from "ink";
import { render } from "ink-testing-library";
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/api/schema.ts";
import type { Item } from "../../src/ui/messages/message-lines.ts";
import { useMessageSearch } from "../../src/ui/messages/use-message-search.ts";
import { until } from "../wait.ts";

const item = (n: number): Item => ({
  kind: "message",
  key: `m${n}`,
  message: { id: `m${n}`, message: `message ${n}`, created_at: n } as Message,
});

const paging = {
  hasOlder: false,
  isLoadingOlder: false,
  loadOlder: () => {},
  hasNewer: false,
  isLoadingNewer: false,
  loadNewer: () => {},
};

describe("the message pane's search, with no search under way", () => {
  it("adds no render of its own when messages arrive", async () => {
    let renders = 0;
    function Pane({ items }: { items: readonly Item[] }) {
      renders++;
      const search = useMessageSearch(items, paging);
      return <Text>{`${items.length} ${search.search === null ? "no search" : "search"}`}</Text>;
    }
    let items = [item(1)];
    const app = render(<Pane items={items} />);
    await until(() => app.lastFrame()?.includes("1 no search"), "the first frame");
    const before = renders;
    for (let n = 2; n <= 6; n++) {
      items = [...items, item(n)];
      app.rerender(<Pane items={items} />);
      await until(() => app.lastFrame()?.includes(`${n} no search`), `message ${n}`);
    }
    // Effects run after each commit; give a second render the chance to come.
    await new Promise((resolve) => setImmediate(resolve));
    expect(renders - before).toBe(5);
    app.unmount();
  });
});
