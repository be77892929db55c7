// The small pieces that are easier to pin down directly than over HTTP.
import { describe, expect, it } from "vitest";
import { escapeForLog } from "../../src/log-escape.ts";
import { createIdMaker } from "../../src/server/ids.ts";
import { errorForLog } from "../../src/server/log.ts";
import { isLoopback, printServeBanner } from "../../src/server/main.ts";
import { createPageCache } from "../../src/server/page-cache.ts";
import { createRateLimiter } from "../../src/server/rate-limit.ts";

describe("ids", () => {
  it("sort in creation order, also within one millisecond and when the clock steps back", () => {
    let ms = 1_700_000_000_000;
    const next = createIdMaker(() => ms);
    const ids = [next("msg_"), next("msg_"), next("msg_")];
    ms -= 5000;
    ids.push(next("msg_"));
    ms += 10_000;
    ids.push(next("msg_"));
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every((id) => /^msg_[0-9a-z]{19}$/.test(id))).toBe(true);
  });
});

describe("page cache", () => {
  it("keeps a page until the version moves, and never one a write overlapped", async () => {
    let version = 0;
    const cache = createPageCache(() => String(version));
    let builds = 0;
    const build = async () => `page ${++builds}`;
    const text = async () => Buffer.from(await cache.get("k", build)).toString();
    expect(await text()).toBe("page 1");
    expect(await text()).toBe("page 1");
    version++;
    expect(await text()).toBe("page 2");
    // A write lands while the page is read (another instance's, heard by NOTIFY): the page
    // is answered but not kept, as it may predate the write.
    const overlapped = await cache.get("k2", async () => {
      version++;
      return "maybe stale";
    });
    expect(Buffer.from(overlapped).toString()).toBe("maybe stale");
    expect(Buffer.from(await cache.get("k2", build)).toString()).toBe("page 3");
  });
});

describe("page cache, bounded in bytes", () => {
  it("drops the oldest pages to stay within its bytes, and keeps no page over an eighth", async () => {
    const cache = createPageCache(() => "v", 100, 800);
    let builds = 0;
    const page = (bytes: number) => async () => {
      builds++;
      return "x".repeat(bytes);
    };
    for (const key of "abcdefgh") await cache.get(key, page(100));
    expect(builds).toBe(8);
    // Full at 800 bytes: one more page pushes out the oldest, "a", and only that.
    await cache.get("i", page(100));
    await cache.get("b", page(100));
    await cache.get("i", page(100));
    expect(builds).toBe(9);
    await cache.get("a", page(100));
    expect(builds).toBe(10);
    // A page over 100 bytes is answered, never kept.
    expect((await cache.get("big", page(101))).byteLength).toBe(101);
    await cache.get("big", page(101));
    expect(builds).toBe(12);
  });
});

describe("rate limiter", () => {
  it("allows a burst, then the sustained rate, and says how long to wait", () => {
    let ms = 0;
    const limiter = createRateLimiter({ perSecond: 2, burst: 3 }, () => ms);
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a")]).toEqual([0, 0, 0]);
    expect(limiter.take("a")).toBe(1);
    expect(limiter.take("b")).toBe(0);
    ms += 500;
    expect(limiter.take("a")).toBe(0);
    expect(limiter.take("a")).toBe(1);
  });
});

describe("serve banner", () => {
  const server = {
    url: "http://0.0.0.0:4317",
    host: "0.0.0.0",
    port: 4317,
    demoUsers: [
      { username: "alice", token: "t1", contactId: "ct_alice" },
      { username: "bob", token: "t2", contactId: "ct_bob" },
    ],
    eventStreams: () => 0,
    revalidateTokens: async () => {},
    close: async () => {},
  };

  it("prints the base URL, one token line per demo user, and warns off loopback", () => {
    const out: string[] = [];
    const err: string[] = [];
    const lines = printServeBanner(
      server,
      { demo: true },
      (l) => out.push(l),
      (l) => err.push(l),
    );
    expect(lines).toEqual([
      "export PARLEY_BASE_URL=http://0.0.0.0:4317",
      "export PARLEY_TOKEN=t1  # alice",
      "export PARLEY_TOKEN=t2  # bob",
    ]);
    expect(out).toEqual(lines);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/warning/);
    const quiet: string[] = [];
    printServeBanner(
      { ...server, host: "127.0.0.1" },
      { demo: false },
      () => {},
      (l) => quiet.push(l),
    );
    expect(quiet).toEqual([]);
    // Loopback, but not the default address: said too (--help: "anything else warns").
    const v6: string[] = [];
    printServeBanner(
      { ...server, host: "::1", url: "http://[::1]:4317" },
      { demo: true },
      () => {},
      (l) => v6.push(l),
    );
    expect(v6).toEqual([
      "warning: listening on ::1, not 127.0.0.1: only this machine can connect, and anyone on it can sign in with the demo tokens above.",
    ]);
  });

  it("knows which hosts are loopback", () => {
    for (const host of [
      "127.0.0.1",
      "127.1.2.3",
      "::1",
      "[::1]",
      "localhost",
      "::ffff:127.0.0.1",
    ]) {
      expect(isLoopback(host), host).toBe(true);
    }
    for (const host of ["0.0.0.0", "::", "192.168.1.5", "example.com", "128.0.0.1"]) {
      expect(isLoopback(host), host).toBe(false);
    }
  });
});

describe("log escaping", () => {
  it("shows C0, C1, DEL and backslash as escapes, and leaves other text alone", () => {
    expect(escapeForLog("\u001b]0;x\u0007\u001b[2J\u009b1m\u007f\r\n\t\\ é 😀")).toBe(
      "\\x1b]0;x\\x07\\x1b[2J\\x9b1m\\x7f\\x0d\\x0a\\x09\\\\ é 😀",
    );
  });

  it("keeps an error's frames on their own lines, and its message on one", () => {
    const error = new Error("bad\n\u001b[2Jthing");
    const lines = errorForLog(error).split("\n");
    expect(lines[0]).toBe("Error: bad\\x0a\\x1b[2Jthing");
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((line) => line.startsWith("    at "))).toBe(true);
    expect(errorForLog("plain \u0007")).toBe("plain \\x07");
  });
});
