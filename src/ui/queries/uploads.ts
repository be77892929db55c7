// The server's upload limits (GET /v1/files, parley's own): asked once the composer is in
// use, kept for a while; /attach PATH reads them from here before sending anything.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { UploadLimits } from "../../api/client.ts";
import type { Session } from "../screen/session.ts";
import { useSession } from "../screen/session-context.tsx";
import { keys } from "./query-keys.ts";

export function limitsOptions(session: Session) {
  return queryOptions({
    queryKey: [...keys.root, "files", "limits"] as const,
    queryFn: (): Promise<UploadLimits> => session.api.files.limits(),
    // The operator changes it with a restart at most.
    staleTime: 10 * 60_000,
  });
}

/**
 * The server's upload limit for the composer's hint: undefined until known, or without
 * uploads. Asked once `wanted` (the composer in use), not with the first frame.
 */
export function useUploadLimit(wanted: boolean): number | undefined {
  const session = useSession();
  const limits = useQuery({
    ...limitsOptions(session),
    enabled: wanted && session.files !== undefined,
  });
  return limits.data?.supported ? limits.data.maxBytes : undefined;
}
