import { type Queryable, sql } from '../infra/db/db.ts';

/** What a claim on a key's shared bucket brought: whole tokens, and when a chunk is there again. */
export interface TokenClaim {
  granted: number;
  /** 0 when the bucket still holds what was asked; else the ms until it will, at the key's rate. */
  waitMs: number;
}

// One round trip: the function locks the key's row, refills it, grants and takes the tokens out
// (src/infra/db/migrations/0021.do.fleet-limits.sql).
const claim = sql('rateLimitClaim', 'SELECT granted, wait_ms FROM rate_limit_claim($1, $2, $3, $4)');

/** Takes up to `wanted` tokens from the key's bucket, whose burst is one second's worth. */
export async function claimRateLimitTokens(
  db: Queryable,
  opts: { key: string; rate: number; wanted: number },
): Promise<TokenClaim> {
  const { rows } = await db.query<{ granted: number; wait_ms: number }>(claim, [
    opts.key,
    opts.rate,
    opts.rate,
    opts.wanted,
  ]);
  return { granted: rows[0].granted, waitMs: rows[0].wait_ms };
}
