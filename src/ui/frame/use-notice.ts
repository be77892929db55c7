// The status bar's notice: confirmations fade after 5 s, errors after 8 s or at the next
// key pressed once they have been seen, so an old error does not hide the key hints.
import { useEffect } from "react";
import { PRIORITY, useKeypress } from "../keys/dispatcher.tsx";
import { useStore } from "../screen/observable.ts";
import type { Notice, StatusLine } from "../screen/status-line.ts";

export const INFO_MS = 5000;
export const ERROR_MS = 8000;
/** An error this fresh stays through a key: it may be what that very key caused. */
const SEEN_MS = 500;

/** How long a notice stays on its own. */
export function noticeLifetime(notice: NonNullable<Notice>): number {
  return notice.kind === "info" ? INFO_MS : ERROR_MS;
}

/** Whether a key pressed at `now` ends this notice. */
export function endsAtKey(notice: Notice, now: number): boolean {
  return notice !== null && notice.kind !== "info" && now - notice.at >= SEEN_MS;
}

export function useNotice(status: StatusLine): Notice {
  const notice = useStore(status.notice);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(
      () => {
        if (status.notice.get() === notice) status.clear();
      },
      Math.max(0, noticeLifetime(notice) - (Date.now() - notice.at)),
    );
    return () => clearTimeout(timer);
  }, [notice, status]);
  // Above every other handler, and it never takes the key: it only notices it.
  useKeypress(
    () => {
      if (endsAtKey(status.notice.get(), Date.now())) status.clear();
      return false;
    },
    { priority: PRIORITY.watcher, isActive: notice !== null && notice.kind !== "info" },
  );
  return notice;
}
