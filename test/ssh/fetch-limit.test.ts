// A `parley ssh` session's requests to the embedded API: a few at once, the rest queued,
// so that twenty sessions starting hold tens of connections instead of hundreds. The
// event stream is never queued, and a request given up while queued takes no turn.

import { describe, expect, it } from "vitest";
import { limitedFetch } from "../../src/ssh/fetch-limit.ts";
import { until } from "../wait.ts";

/** A fetch whose answers come when the test says. */
function heldFetch() {
  const calls: { url: string; answer: () => void }[] = [];
  const fetch = ((input: string | URL | Request) =>
    new Promise<Response>((resolve) => {
      calls.push({ url: String(input), answer: () => resolve(new Response("ok")) });
    })) as typeof globalThis.fetch;
  return { fetch, calls };
}

describe("a session's requests", () => {
  it("go a few at a time, the rest in order as each one is answered", async () => {
    const { fetch, calls } = heldFetch();
    const limited = limitedFetch(2, fetch);
    const answered: string[] = [];
    const requests = ["a", "b", "c", "d"].map((url) => limited(url).then(() => answered.push(url)));
    await until(() => calls.length === 2, "two requests out");
    expect(calls.map((c) => c.url)).toEqual(["a", "b"]);

    calls[1]!.answer();
    await until(() => calls.length === 3, "the third one out");
    expect(calls[2]!.url).toBe("c");
    calls[0]!.answer();
    calls[2]!.answer();
    await until(() => calls.length === 4, "the last one out");
    calls[3]!.answer();
    await Promise.all(requests);
    expect(answered).toEqual(["b", "a", "c", "d"]);
  });

  it("let the event stream through even when every turn is taken", async () => {
    const { fetch, calls } = heldFetch();
    const limited = limitedFetch(1, fetch);
    void limited("poll");
    void limited("events", { headers: { accept: "text/event-stream" } });
    await until(() => calls.length === 2, "the stream beside the poll");
    expect(calls.map((c) => c.url)).toEqual(["poll", "events"]);
  });

  it("drop a queued request that is given up, without taking its turn", async () => {
    const { fetch, calls } = heldFetch();
    const limited = limitedFetch(1, fetch);
    void limited("first");
    const stop = new AbortController();
    const given = limited("given up", { signal: stop.signal });
    const next = limited("next");
    stop.abort(new Error("timed out"));
    await expect(given).rejects.toThrow("timed out");
    calls[0]!.answer();
    await until(() => calls.length === 2, "the next one out");
    expect(calls[1]!.url).toBe("next");
    calls[1]!.answer();
    await next;
  });
});
