// Log lines an attacker can cause (failed sign-ins, refused and timed-out connections),
// rate-limited so that a flood cannot fill the disk: a burst of lines, then a steady
// trickle, and one line saying how many were left out.

export type LimitedLog = (line: string) => void;

export function limitedLog(
  log: (line: string) => void,
  {
    perSecond = 20,
    burst = 100,
    name = "parley ssh",
  }: { perSecond?: number; burst?: number; name?: string } = {},
): LimitedLog {
  let tokens = burst;
  let last = Date.now();
  let dropped = 0;
  let report: NodeJS.Timeout | undefined;
  const tellDropped = () => {
    report = undefined;
    if (dropped === 0) return;
    log(`${name}: ${dropped} more such line${dropped === 1 ? "" : "s"} not logged (too many)`);
    dropped = 0;
  };
  return (line) => {
    const now = Date.now();
    tokens = Math.min(burst, tokens + ((now - last) / 1000) * perSecond);
    last = now;
    if (tokens >= 1) {
      tokens -= 1;
      log(line);
      return;
    }
    dropped++;
    report ??= setTimeout(tellDropped, 1000);
    report.unref();
  };
}
