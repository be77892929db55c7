// The small parts that keep `parley ssh` standing under a flood: the delay for repeated
// failed sign-ins, the rate-limited log, and the escaping of what clients send.

import { afterEach, describe, expect, it, vi } from "vitest";
import { logEscape, logQuote } from "../../src/log-escape.ts";
import { parseAuthorizedKeys } from "../../src/ssh/auth.ts";
import { failureTracker } from "../../src/ssh/failures.ts";
import { newHostKey } from "../../src/ssh/host-key.ts";
import { limitedLog } from "../../src/ssh/log-limit.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("failed sign-ins", () => {
  it("are answered at once at first, then ever more slowly, per address, and forgotten", () => {
    let now = 0;
    const failures = failureTracker(() => now);
    const delays: number[] = [];
    for (let i = 0; i < 12; i++) {
      delays.push(failures.delayFor("10.0.0.1"));
      void failures.failed("10.0.0.1");
    }
    expect(delays).toEqual([0, 0, 0, 0, 0, 250, 500, 1000, 2000, 4000, 8000, 10_000]);
    expect(failures.delayFor("10.0.0.2")).toBe(0);
    now += 11 * 60_000;
    expect(failures.delayFor("10.0.0.1")).toBe(0);
  });
});

describe("the rate-limited log", () => {
  it("lets a burst through, then says how many lines it left out", () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const log = limitedLog((line) => lines.push(line), { perSecond: 2, burst: 5 });
    for (let i = 0; i < 1000; i++) log(`line ${i}`);
    expect(lines).toHaveLength(5);
    vi.advanceTimersByTime(1000);
    expect(lines.at(-1)).toBe("parley ssh: 995 more such lines not logged (too many)");
    log("after a while");
    expect(lines.at(-1)).toBe("after a while");
  });
});

describe("log escaping", () => {
  it("shows every control character escaped and keeps a value on one line", () => {
    const hostile = 'x\x1b]0;owned\x07\x1b[2J\x9b31m\r\nparley ssh: fake\u202e"\\';
    const escaped = logQuote(hostile);
    expect(escaped).toBe(
      '"x\\x1b]0;owned\\x07\\x1b[2J\\x9b31m\\x0d\\x0aparley ssh: fake\\u202e\\"\\\\"',
    );
    expect(escaped).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    expect(logEscape("é ünïcode ok")).toBe("é ünïcode ok");
    expect(logEscape("a".repeat(500), 10)).toBe(`${"a".repeat(10)}…`);
  });
});

describe("an authorized_keys file", () => {
  it("gives each key the user its line names, and skips what parley cannot enforce", () => {
    const one = newHostKey().public;
    const two = newHostKey().public;
    const parsed = parseAuthorizedKeys(
      [
        "# the team",
        `parley-user="alice" ${one} alice@laptop`,
        `parley-user=bob ${two}`,
        `parley-user="carol",from="10.0.0.1" ${two}`,
        `from="10.0.0.1" ${one}`,
        `command="echo \\"hi there\\"" ${one}`,
        one,
        "not a key at all",
      ].join("\n"),
    );
    expect(parsed.keys.map((k) => [k.user, k.key.getPublicSSH().toString("base64")])).toEqual([
      ["alice", one.split(" ")[1]],
      ["bob", two.split(" ")[1]],
    ]);
    expect(parsed.skipped).toBe(4);
    expect(parsed.unnamed).toBe(1);
  });
});
