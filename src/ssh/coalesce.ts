// Only the last of a storm of values matters (a window dragged to a new size sends
// hundreds of window-changes): the first is applied at once, then at most one every
// `everyMs`, always the latest, and the last one always arrives.

export function latestOnly<T>(
  apply: (value: T) => void,
  everyMs: number,
  now: () => number = () => Date.now(),
) {
  let appliedAt = Number.NEGATIVE_INFINITY;
  let pending: { value: T } | undefined;
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    if (!pending) return;
    const { value } = pending;
    pending = undefined;
    appliedAt = now();
    apply(value);
  };
  return {
    push(value: T): void {
      pending = { value };
      if (timer) return;
      const wait = appliedAt + everyMs - now();
      if (wait <= 0) flush();
      else {
        timer = setTimeout(flush, wait);
        timer.unref();
      }
    },
    stop(): void {
      clearTimeout(timer);
      timer = undefined;
      pending = undefined;
    },
  };
}
