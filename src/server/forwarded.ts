// Who a request is from when it came through a reverse proxy: the proxy's address is the
// TCP peer, and the visitor's is in X-Forwarded-For, which anyone can send. So it is read
// only when the peer is a proxy the operator named (`--trust-proxy`), and from the right:
// each proxy appends the address it was reached from, so the right-most address that is
// not a trusted proxy's is the first one no trusted proxy vouches for. Anything left of it
// is whatever the visitor wrote.
import { BlockList, isIP } from "node:net";

export type TrustedProxies = {
  /** Whether `address` (as a connection gives it) is one of the named proxies. */
  has(address: string): boolean;
  /** No proxy named: X-Forwarded-For is never read. */
  none: boolean;
};

/** An IPv4 address mapped into IPv6 (a dual-stack socket's) is itself. */
export function plainAddress(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
}

/**
 * `--trust-proxy` as given: addresses and CIDR ranges (127.0.0.1, 10.0.0.0/8, ::1),
 * separated by commas, the flag repeatable. Throws, naming the entry, for anything else.
 */
export function trustedProxies(given: readonly string[] = []): TrustedProxies {
  const list = new BlockList();
  let count = 0;
  for (const entry of given.flatMap((part) => part.split(","))) {
    const text = entry.trim();
    if (text === "") continue;
    const [address = "", bits, extra] = text.split("/");
    const family = isIP(address);
    const prefix = bits === undefined ? undefined : Number(bits);
    const max = family === 6 ? 128 : 32;
    if (
      family === 0 ||
      extra !== undefined ||
      (prefix !== undefined && !(/^\d{1,3}$/.test(bits!) && prefix <= max))
    ) {
      throw new Error(
        `--trust-proxy takes IP addresses or ranges (127.0.0.1, 10.0.0.0/8, ::1), not "${text.slice(0, 60)}".`,
      );
    }
    const type = family === 6 ? "ipv6" : "ipv4";
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, prefix, type);
    count++;
  }
  return {
    none: count === 0,
    has(address) {
      const plain = plainAddress(address);
      const family = isIP(plain);
      return family !== 0 && list.check(plain, family === 6 ? "ipv6" : "ipv4");
    },
  };
}

/**
 * The visitor's address: `peer` itself unless it is a trusted proxy; then, walking
 * X-Forwarded-For from the right, the first address that is not a trusted proxy's. An
 * entry that is not an address stops the walk at the hop that passed it on; a header
 * of trusted proxies only gives its left-most.
 */
export function clientAddress(
  peer: string,
  forwardedFor: string | readonly string[] | undefined,
  trusted: TrustedProxies,
): string {
  let address = plainAddress(peer);
  if (trusted.none || forwardedFor === undefined || !trusted.has(address)) return address;
  const hops = (typeof forwardedFor === "string" ? [forwardedFor] : forwardedFor)
    .join(",")
    .split(",")
    .map((hop) => hop.trim());
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = plainAddress(hops[i]!);
    if (isIP(hop) === 0) return address;
    address = hop;
    if (!trusted.has(hop)) return hop;
  }
  return address;
}
