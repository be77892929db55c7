// One client session: the Session the UI reads (api client, who you are, status line,
// contacts, poll pace) and the query client that holds its server state. Built the same
// way for the local client, each `parley ssh` session and the tests.
import {
  environmentManager,
  MutationCache,
  QueryCache,
  QueryClient,
  type QueryKey,
} from "@tanstack/react-query";
import { type ApiOptions, createApi } from "../api/client.ts";
import { keys } from "../ui/queries/query-keys.ts";
import { shareById } from "../ui/queries/share-by-id.ts";
import {
  type CarriedOver,
  createSessionState,
  DEFAULT_POLL_PACE,
  newSessionIdentity,
  type PollPace,
  type Session,
} from "../ui/screen/session.ts";
import type { StatusLine } from "../ui/screen/status-line.ts";
import type { TerminalOut } from "../ui/screen/terminal-out.ts";

export type ClientSessionOptions = {
  /** The server and token, and any tuning of requests (timeouts, retries). */
  api: ApiOptions;
  /** Who you are, when known; else learned from the conversations. */
  username?: string;
  /** What the header calls the server, where its address would mean nothing. */
  serverLabel?: string;
  /** Called once when the identity is first learned. */
  onIdentity?: (username: string) => void;
  notify?: Session["notify"];
  /** The terminal itself, for the clipboard and notifications. */
  terminal?: TerminalOut;
  /** Opens a link; only where parley runs on the person's own machine (src/client/opener.ts). */
  openUrl?: (url: string) => Promise<void>;
  /** The person's files for /attach PATH; only where parley runs on their own machine. */
  files?: Session["files"];
  /** Ctrl+Z; only where there is job control. */
  suspend?: () => void;
  /** Ctrl+G: the draft in $VISUAL / $EDITOR; only where the editor runs at the person's terminal. */
  editText?: Session["editText"];
  /** Default 2 s for the open conversation, 5 s for the list. */
  pollPace?: PollPace;
  /** Drafts and unsent changes left by the last run. */
  carried?: CarriedOver;
  offlineHint?: Session["offlineHint"];
};

export type ClientSession = { session: Session; queryClient: QueryClient };

export function createClientSession(options: ClientSessionOptions): ClientSession {
  const state = createSessionState(options.carried);
  const session: Session = {
    // An answer cut to a limit is said in the status bar (once per kind: see createApi).
    api: createApi({
      onLimit: (message) => state.status.error("Cut short", new Error(message)),
      ...options.api,
    }),
    baseUrl: options.api.baseUrl,
    serverLabel: options.serverLabel,
    me: newSessionIdentity(options.username),
    onIdentity: options.onIdentity,
    notify: options.notify,
    terminal: options.terminal,
    openUrl: options.openUrl,
    files: options.files,
    suspend: options.suspend,
    editText: options.editText,
    pollPace: options.pollPace ?? DEFAULT_POLL_PACE,
    offlineHint: options.offlineHint,
    ...state,
  };
  return { session, queryClient: createQueryClient(session.status) };
}

/** The lists of conversations and the inbox: a 404 for one means a wrong base URL. */
function isListing(key: QueryKey): boolean {
  const listing = [keys.conversations.lists(), keys.messages.inbox()];
  return listing.some((prefix) => prefix.every((part, i) => key[i] === part));
}

function createQueryClient(status: StatusLine): QueryClient {
  // TanStack Query takes any runtime without `window` for a server renderer, and then
  // never schedules refetchInterval timers (so no polling) and never garbage-collects.
  // A terminal client is a long-lived interactive client.
  environmentManager.setIsServer(() => false);
  return new QueryClient({
    queryCache: new QueryCache({
      onSuccess: () => status.noteQueryResult(null),
      onError: (error, query) => status.noteQueryResult(error, isListing(query.queryKey)),
    }),
    mutationCache: new MutationCache({
      onSuccess: () => status.noteQueryResult(null),
      onError: (error) => status.noteQueryResult(error),
    }),
    defaultOptions: {
      // The api client already retries reads with backoff; polling does the rest.
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        structuralSharing: shareById,
      },
      mutations: { retry: false },
    },
  });
}
