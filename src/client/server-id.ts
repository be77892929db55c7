// Which server an address is: parley's server says it with every answer (the header
// Parley-Server-Id, made with its database), so two instances of one database behind
// different addresses (a load balancer, a failover) are one server, and the client's
// drafts, queued changes and kept lists follow the server, not the address. Learned once
// per address and remembered in $XDG_STATE_HOME/parley/servers.json; a server that sends
// no such header (another implementation of the API) is known by its address.
import { join } from "node:path";
import { httpFetch } from "../api/http.ts";
import type { Paths } from "../config.ts";
import { logLine, readIfExists, writePrivateFile } from "./files.ts";

export const SERVER_ID_HEADER = "parley-server-id";
/** How long a first start against an address never seen waits to learn which server it is. */
const ASK_TIMEOUT_MS = 3000;
const ID = /^[0-9a-zA-Z_-]{1,64}$/;

const file = (paths: Pick<Paths, "state">) => join(paths.state, "servers.json");

function remembered(paths: Pick<Paths, "state">): Record<string, string> {
  try {
    const kept = JSON.parse(readIfExists(file(paths)) ?? "{}");
    return typeof kept === "object" && kept !== null ? kept : {};
  } catch {
    return {};
  }
}

function remember(paths: Pick<Paths, "state">, baseUrl: string, id: string): void {
  try {
    writePrivateFile(
      file(paths),
      `${JSON.stringify({ ...remembered(paths), [baseUrl]: id }, null, 2)}\n`,
    );
  } catch {
    // Remembering is a convenience; a read-only home must not stop the client.
  }
}

/**
 * The server's id, from one unauthenticated request (every answer carries it, a 401 too);
 * undefined when the server does not answer in time or sends none.
 */
export async function askServerId(
  baseUrl: string,
  timeoutMs = ASK_TIMEOUT_MS,
): Promise<string | undefined> {
  try {
    const response = await httpFetch(new URL("/v1/conversations?limit=1", baseUrl), {
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    const id = response.headers.get(SERVER_ID_HEADER) ?? undefined;
    return id !== undefined && ID.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

const identityOf = (id: string) => `parley-server ${id}`;

export const USER_HEADER = "parley-user";
const USERNAME = /^[a-z0-9][a-z0-9._-]{0,31}$/;

/**
 * Who `token` signs in as, from parley's server (the header Parley-User of an authenticated
 * answer); undefined when it does not answer in time, refuses the token or sends none.
 */
export async function askUsername(
  baseUrl: string,
  token: string,
  timeoutMs = ASK_TIMEOUT_MS,
): Promise<string | undefined> {
  try {
    const response = await httpFetch(new URL("/v1/conversations?limit=1", baseUrl), {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    const name = response.ok ? (response.headers.get(USER_HEADER) ?? undefined) : undefined;
    return name !== undefined && USERNAME.test(name) ? name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What the kept files of `baseUrl` are keyed by: the server's id when known (remembered, or
 * asked now for an address never seen), else the address itself. `check` asks again later,
 * and remembers a changed answer for the next start.
 */
export async function serverIdentity(
  paths: Pick<Paths, "state">,
  baseUrl: string,
  ask: (baseUrl: string) => Promise<string | undefined> = askServerId,
): Promise<{ identity: string; check(log: string): Promise<void> }> {
  const known = remembered(paths)[baseUrl];
  const id = known ?? (await ask(baseUrl));
  if (id !== undefined && id !== known) remember(paths, baseUrl, id);
  return {
    identity: id === undefined ? baseUrl : identityOf(id),
    async check(log) {
      const now = await ask(baseUrl);
      if (now === undefined || now === id) return;
      remember(paths, baseUrl, now);
      logLine(
        log,
        `${baseUrl} is now another server (${now}); its kept work is used from the next start`,
      );
    },
  };
}
