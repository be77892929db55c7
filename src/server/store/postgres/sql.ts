// The driver: postgres (porsager/postgres), pure JavaScript. Timestamps are bigint
// columns read back as numbers (Unix seconds fit a double exactly).
import postgres from "postgres";

export type Q = postgres.Sql | postgres.TransactionSql;

export function connect(url: string, max: number): postgres.Sql {
  return postgres(url, {
    max,
    onnotice: () => {},
    types: {
      bigint: {
        to: 20,
        from: [20],
        serialize: (value: number) => String(value),
        parse: (value: string) => Number(value),
      },
    },
    // A connection idle this long is closed; a busy pool keeps its connections.
    idle_timeout: 60,
    connect_timeout: 10,
  }) as unknown as postgres.Sql;
}

/** Advisory lock keys: (PARLEY, what). */
export const PARLEY = 0x70726c79;
export const LOCK = { migrate: 1, seed: 2, demoReplies: 3 } as const;
/** (OWNERS, n): held by each instance for its life, n its own (postgres/idempotency.ts). */
export const OWNERS = 0x70726c7a;
