// The session (session.ts) as React context: the provider above the screen and the hooks
// that read it.
import { createContext, type ReactNode, useContext } from "react";
import { createStore } from "../model/store.ts";
import { useStore } from "./observable.ts";
import type { Session } from "./session.ts";

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession needs a SessionProvider above it");
  return session;
}

export const useApi = () => useSession().api;
export const useMe = () => useStore(useSession().me);
export const useContacts = () => useStore(useSession().contacts);
export const useStatusLine = () => useSession().status;

const NO_MENTIONS_ONLY = createStore<ReadonlySet<string>>(new Set());

/**
 * Whether conversation `id` is set to ring on mentions only (`M`). Read where a pane may be
 * drawn without a session (a test's): there, none is.
 */
export function useMentionsOnly(id: string | undefined): boolean {
  const session = useContext(SessionContext);
  const ids = useStore(session?.mentionsOnly ?? NO_MENTIONS_ONLY);
  return id !== undefined && ids.has(id);
}
