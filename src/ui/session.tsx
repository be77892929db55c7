// Who and where: the api client, the server's address, and who "you" are. Identity can
// be learned late (from the sender of your first message on a foreign server), so it is
// a store rather than a constant.
import { createContext, type ReactNode, useContext } from "react";
import type { Api } from "../api/client.ts";
import { type ContactBook, createContactBook } from "./contacts.ts";
import { createStatusLine, type StatusLine } from "./status.ts";
import { createStore, type Store, useStore } from "./store.ts";
import type { TerminalOut } from "./terminal.ts";

export type Session = {
  api: Api;
  baseUrl: string;
  me: Store<string | undefined>;
  /** Called once when the identity is first learned, to remember it on disk. */
  onIdentity?: (username: string) => void;
  notify?: { bell: boolean; desktop: boolean };
  /** The terminal itself, for the clipboard (OSC 52) and notifications. */
  terminal?: TerminalOut;
  status: StatusLine;
  contacts: ContactBook;
};

/** The per-session client state every Session carries. */
export function createSessionState(): { status: StatusLine; contacts: ContactBook } {
  return { status: createStatusLine(), contacts: createContactBook() };
}

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

export function newSessionIdentity(username?: string): Store<string | undefined> {
  return createStore(username);
}
