/**
 * A fleet lease: one process of all those on one database holds a named lease at a time, for
 * work that needs doing once, not once per process (decision 0102). The holder renews it while
 * it works; a holder that dies is replaced once its lease runs out, one that stops hands it back
 * at once. The lease saves work, it does not guard it: what the holder does must stay correct
 * when, for a moment, two processes believe they hold it (a stalled holder, clocks), as webhook
 * fan-out does under its endpoints' row locks.
 *
 * Asking costs a statement only when the answer may have changed: the holder renews when a
 * third of its lease is left, another process asks again when the lease it last saw runs out.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Db, sql } from './db/db.ts';

/**
 * Takes lease $1 for holder $2 for $3 seconds when it is free, run out, or already $2's; answers
 * the holder after the statement and how many ms its lease has left, by the database's clock.
 */
const takeLease = sql(
  'takeFleetLease',
  `WITH taken AS (
     INSERT INTO fleet_leases AS l (name, holder, until)
     VALUES ($1, $2, now() + make_interval(secs => $3))
     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
      WHERE l.holder = excluded.holder OR l.until < now()
     RETURNING holder, until
   )
   SELECT holder, (extract(epoch FROM until - now()) * 1000)::float8 AS left_ms FROM taken
   UNION ALL
   SELECT holder, (extract(epoch FROM until - now()) * 1000)::float8 FROM fleet_leases
    WHERE name = $1 AND NOT EXISTS (SELECT 1 FROM taken)`,
);

const releaseLease = sql('releaseFleetLease', 'DELETE FROM fleet_leases WHERE name = $1 AND holder = $2');

export interface FleetLease {
  /** This process's name in the lease table. */
  readonly holder: string;
  /** Whether this process holds the lease now (taking or renewing it when it is time to ask). */
  held(): Promise<boolean>;
  /** Hands the lease back if this process holds it, so that another takes it at once. */
  release(): Promise<void>;
}

export interface FleetLeaseOptions {
  /** How long a taking or a renewal lasts: how long work waits for a holder that died. */
  seconds: number;
  /** ms since some fixed point; performance.now unless a test fixes it. */
  now?: () => number;
}

export function fleetLease(db: Db, name: string, opts: FleetLeaseOptions): FleetLease {
  const now = opts.now ?? (() => performance.now());
  const holder = `${hostname()}:${process.pid}:${name}:${randomBytes(3).toString('hex')}`;
  /** Whether the last answer made this process the holder, and when (by this clock) to ask again. */
  let mine = false;
  let askAt = Number.NEGATIVE_INFINITY;
  let asking: Promise<boolean> | null = null;

  async function ask(): Promise<boolean> {
    const { rows } = await db.query<{ holder: string; left_ms: number }>(takeLease, [
      name,
      holder,
      opts.seconds,
    ]);
    const row = rows[0];
    mine = row?.holder === holder;
    // The holder asks again when a third of its lease is left; another process when the lease
    // it saw runs out (and at once if the row was gone: released between the two reads).
    const left = row ? Math.max(0, row.left_ms) : 0;
    askAt = now() + (mine ? (left * 2) / 3 : left);
    return mine;
  }

  return {
    holder,
    held() {
      if (now() < askAt) return Promise.resolve(mine);
      // Concurrent callers share one statement.
      asking ??= ask().finally(() => {
        asking = null;
      });
      return asking;
    },
    async release() {
      if (!mine) return;
      mine = false;
      askAt = Number.NEGATIVE_INFINITY;
      await db.query(releaseLease, [name, holder]);
    },
  };
}
