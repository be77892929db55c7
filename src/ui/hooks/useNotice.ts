// The status bar's notice: confirmations fade after 5 s; errors stay until the next one
// or the next action.
import { useEffect } from "react";
import type { Notice, StatusLine } from "../status.ts";
import { useStore } from "../store.ts";

export function useNotice(status: StatusLine): Notice {
  const notice = useStore(status.notice);
  useEffect(() => {
    if (notice?.kind !== "info") return;
    const timer = setTimeout(status.clear, 5000);
    return () => clearTimeout(timer);
  }, [notice, status]);
  return notice;
}
