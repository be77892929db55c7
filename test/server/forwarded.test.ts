// Who a request is from behind a reverse proxy (src/server/forwarded.ts): X-Forwarded-For
// is read only from a trusted proxy, from the right, and never lets a visitor pick the
// address their own connections count against.
import { describe, expect, it } from "vitest";
import { clientAddress, trustedProxies } from "../../src/server/forwarded.ts";

describe("the visitor's address behind a proxy", () => {
  const proxies = trustedProxies(["127.0.0.1, 10.0.0.0/8", "::1"]);

  it("is the connection's own without a trusted proxy, whatever the header says", () => {
    expect(clientAddress("203.0.113.7", "198.51.100.1", proxies)).toBe("203.0.113.7");
    expect(clientAddress("127.0.0.1", "198.51.100.1", trustedProxies())).toBe("127.0.0.1");
    expect(clientAddress("::ffff:203.0.113.7", undefined, proxies)).toBe("203.0.113.7");
  });

  it("is the right-most address no trusted proxy vouches for", () => {
    expect(clientAddress("127.0.0.1", "203.0.113.7", proxies)).toBe("203.0.113.7");
    // The visitor wrote the left one; the proxy appended the right one.
    expect(clientAddress("127.0.0.1", "198.51.100.1, 203.0.113.7", proxies)).toBe("203.0.113.7");
    // Two proxies: the inner one (10.1.2.3) passed on what the outer one was told.
    expect(clientAddress("::ffff:127.0.0.1", "203.0.113.7,10.1.2.3", proxies)).toBe("203.0.113.7");
    expect(clientAddress("::1", ["198.51.100.1", "2001:db8::5, 10.0.0.1"], proxies)).toBe(
      "2001:db8::5",
    );
  });

  it("stops at the hop that passed on something that is not an address", () => {
    expect(clientAddress("127.0.0.1", "", proxies)).toBe("127.0.0.1");
    expect(clientAddress("127.0.0.1", "\x1b[31mred, 10.0.0.9", proxies)).toBe("10.0.0.9");
    expect(clientAddress("127.0.0.1", "203.0.113.7:4000", proxies)).toBe("127.0.0.1");
    // Nothing but trusted proxies: the left-most of them.
    expect(clientAddress("127.0.0.1", "10.0.0.2, 10.0.0.1", proxies)).toBe("10.0.0.2");
  });

  it("takes addresses and ranges only, saying which entry is wrong", () => {
    expect(trustedProxies(["10.0.0.0/8"]).has("10.200.0.1")).toBe(true);
    expect(trustedProxies(["10.0.0.0/8"]).has("11.0.0.1")).toBe(false);
    expect(trustedProxies(["fd00::/8"]).has("fd12::1")).toBe(true);
    expect(trustedProxies([]).none).toBe(true);
    for (const wrong of ["localhost", "10.0.0.0/33", "10.0.0.0/8/1", "::1/x", "1.2.3"]) {
      expect(() => trustedProxies([wrong])).toThrow(
        `--trust-proxy takes IP addresses or ranges (127.0.0.1, 10.0.0.0/8, ::1), not "${wrong}".`,
      );
    }
  });
});
