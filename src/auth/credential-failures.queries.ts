import { type Queryable, sql } from '../infra/db/db.ts';

// Times on the server's clock: every process of the fleet counts the same window.

// An index range scan of (address, failed_at): at most `max` entries read.
const recentFailures = sql(
  'credentialFailuresRecent',
  `SELECT count(*)::int AS failures,
          (extract(epoch FROM min(failed_at) + $2 * interval '1 millisecond' - now()) * 1000)::float8 AS wait_ms
     FROM (SELECT failed_at FROM credential_failures
            WHERE address = $1 AND failed_at > now() - $2 * interval '1 millisecond'
            ORDER BY failed_at DESC LIMIT $3) recent`,
);

// The address's expired rows go with each new one, so an address holds about one window's failures.
const insertFailure = sql(
  'credentialFailureInsert',
  `WITH expired AS (
     DELETE FROM credential_failures WHERE address = $1 AND failed_at <= now() - $2 * interval '1 millisecond'
   )
   INSERT INTO credential_failures (address) VALUES ($1)`,
);

// Bounded: a purge after a flood of addresses takes a few rounds instead of one long statement.
const purgeExpired = sql(
  'credentialFailuresPurge',
  `DELETE FROM credential_failures
    WHERE ctid = ANY (ARRAY(SELECT ctid FROM credential_failures
                             WHERE failed_at <= now() - $1 * interval '1 millisecond' LIMIT $2))`,
);

/**
 * The address's failures within the window (at most `max` counted), and the ms until the oldest
 * of the `max` latest leaves it.
 */
export async function recentCredentialFailures(
  db: Queryable,
  opts: { address: string; windowMs: number; max: number },
): Promise<{ failures: number; waitMs: number }> {
  const { rows } = await db.query<{ failures: number; wait_ms: number | null }>(recentFailures, [
    opts.address,
    opts.windowMs,
    opts.max,
  ]);
  return { failures: rows[0].failures, waitMs: rows[0].wait_ms ?? 0 };
}

export async function insertCredentialFailure(
  db: Queryable,
  opts: { address: string; windowMs: number },
): Promise<void> {
  await db.query(insertFailure, [opts.address, opts.windowMs]);
}

/** Deletes up to `limit` expired failures of any address; returns how many went. */
export async function purgeExpiredCredentialFailures(
  db: Queryable,
  opts: { windowMs: number; limit: number },
): Promise<number> {
  return (await db.query(purgeExpired, [opts.windowMs, opts.limit])).rowCount;
}
