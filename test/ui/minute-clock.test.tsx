// Labels that depend on the time of day move on with the clock, though nothing else about
// them changes: the sidebar's "2m" and the message pane's "Today" / "Yesterday". The clock
// is faked; Ink renders for real.

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render } from "ink-testing-library";
import type { ReactElement, ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Api } from "../../src/api/client.ts";
import { Conversation, Message } from "../../src/api/schema.ts";
import {
  type ChatActions,
  ChatActionsContext,
  type ChatState,
  ChatStateContext,
} from "../../src/ui/chat/chat-context.tsx";
import { Sidebar } from "../../src/ui/conversations/sidebar.tsx";
import { KeypressProvider } from "../../src/ui/keys/dispatcher.tsx";
import { cachedLayout, type Item } from "../../src/ui/messages/message-lines.ts";
import { MessagePane } from "../../src/ui/messages/message-pane.tsx";
import {
  createSessionState,
  DEFAULT_POLL_PACE,
  newSessionIdentity,
  type Session,
} from "../../src/ui/screen/session.ts";
import { SessionProvider } from "../../src/ui/screen/session-context.tsx";

const MINUTE = 60_000;
/** Local time, as Unix milliseconds. */
const at = (day: number, hours: number, minutes: number, seconds = 0) =>
  new Date(2026, 10, day, hours, minutes, seconds).getTime();
const seconds = (ms: number) => Math.floor(ms / 1000);
const noop = () => {};

let view: ReturnType<typeof render> | undefined;

/** The chat screen's contexts, with nothing focused and nothing to do. */
function OnChatScreen(props: { conversations: Conversation[]; children: ReactNode }) {
  const state = {
    focus: "composer",
    dialog: null,
    me: "alice",
    open: undefined,
    editing: null,
    browser: {
      conversations: props.conversations,
      list: {
        conversations: props.conversations,
        isLoading: false,
        error: null,
        hasMore: false,
        loadMore: noop,
      },
      filter: "all",
      search: null,
      prompting: false,
      selectedId: undefined,
      openId: undefined,
      lastOpenedBefore: null,
    },
  } as unknown as ChatState;
  // No key is pressed here: the panes' key handlers act on nothing.
  const actions = {
    conversations: { onKey: {} },
    messages: { onKey: {} },
  } as unknown as ChatActions;
  return (
    <ChatStateContext.Provider value={state}>
      <ChatActionsContext.Provider value={actions}>{props.children}</ChatActionsContext.Provider>
    </ChatStateContext.Provider>
  );
}

beforeEach(() => {
  // Timers and Date only: React and Ink schedule their work with setImmediate.
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "Date"] });
});

afterEach(() => {
  view?.unmount();
  view = undefined;
  vi.useRealTimers();
});

/** Lets React and Ink render what the last timers changed. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

async function show(element: ReactElement): Promise<() => string> {
  view = render(element);
  await settle();
  return () => view?.lastFrame() ?? "";
}

function message(id: string, createdAt: number): Message {
  return Message.parse({
    id,
    conversation_id: "c1",
    contact: { id: "u2", username: "bob" },
    message: `message ${id}`,
    created_at: seconds(createdAt),
  });
}

/** A session whose server has no messages: a row shows only its name and its time. */
function quietSession(): Session {
  return {
    api: {
      messages: { list: async () => ({ data: [], has_more: false }) },
    } as unknown as Api,
    baseUrl: "http://test",
    me: newSessionIdentity("alice"),
    pollPace: DEFAULT_POLL_PACE,
    ...createSessionState(),
  };
}

describe("the minute clock", () => {
  it("turns a sidebar row's 2m into 3m when the minute turns", async () => {
    vi.setSystemTime(at(20, 15, 30, 10));
    const session = quietSession();
    const conversation = Conversation.parse({
      id: "c1",
      group_id: "g1",
      last_active_at: seconds(at(20, 15, 28, 0)),
    });
    const frame = await show(
      <QueryClientProvider client={new QueryClient()}>
        <SessionProvider session={session}>
          <KeypressProvider>
            <OnChatScreen conversations={[conversation]}>
              <Sidebar width={40} height={10} />
            </OnChatScreen>
          </KeypressProvider>
        </SessionProvider>
      </QueryClientProvider>,
    );
    expect(frame()).toMatch(/g1 +2m/);
    await vi.advanceTimersByTimeAsync(MINUTE);
    await settle();
    expect(frame()).toMatch(/g1 +3m/);
  });

  it("turns the pane's Today into Yesterday after midnight", async () => {
    vi.setSystemTime(at(20, 23, 58, 30));
    const messages = [message("m1", at(19, 9, 0)), message("m2", at(20, 23, 50))];
    const frame = await show(
      <SessionProvider session={quietSession()}>
        <KeypressProvider>
          <OnChatScreen conversations={[]}>
            <MessagePane
              width={50}
              height={12}
              pinned={null}
              history={{
                messages,
                isLoading: false,
                hasOlder: false,
                isLoadingOlder: false,
                loadOlder: noop,
                hasNewer: false,
                isLoadingNewer: false,
                loadNewer: noop,
                toNewest: noop,
              }}
            />
          </OnChatScreen>
        </KeypressProvider>
      </SessionProvider>,
    );
    expect(frame()).toMatch(/Yesterday[\s\S]*Today/);
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    await settle();
    expect(frame()).not.toContain("Today");
    expect(frame()).toMatch(/Thursday[\s\S]*Yesterday/);
  });

  it("keys the layout cache on the day, so a message laid out yesterday is not Today", () => {
    const item: Item = { kind: "message", key: "m3", message: message("m3", at(20, 23, 50)) };
    const ctx = { width: 40, me: "alice" };
    const label = (now: number) => cachedLayout(item, undefined, { ...ctx, now })[0]![0]!.text;
    expect(label(seconds(at(20, 23, 55)))).toContain("Today");
    expect(label(seconds(at(20, 23, 59)))).toContain("Today");
    expect(label(seconds(at(21, 0, 1)))).toContain("Yesterday");
  });
});
