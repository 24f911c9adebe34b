/**
 * A fleet lease: one process of all those on one database holds a named lease at a time, for
 * work that needs doing once, not once per process (decision 0102). The holder renews it on a
 * timer, whether its work is busy or idle; a holder that dies, or stops and hands it back, is
 * replaced when another process next asks: once the lease that process last saw has run out.
 * The lease saves work, it does not guard it: what the holder does must stay correct when, for a
 * moment, two processes believe they hold it (a stalled holder), as webhook fan-out does under
 * its endpoints' row locks.
 *
 * Asking costs a statement only when the answer may have changed: the holder renews when a
 * third of its lease is left, another process asks again when the lease it last saw runs out.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { type Db, sql } from './db/db.ts';

/**
 * Takes lease $1 for holder $2 for $3 seconds when it is free, run out, or already $2's. Answers
 * whether this statement took it and how many ms the lease has left, whoever holds it, by the
 * database's clock (no row: another process took a free lease at the same moment).
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
   SELECT true AS taken, (extract(epoch FROM until - now()) * 1000)::float8 AS left_ms FROM taken
   UNION ALL
   SELECT false, (extract(epoch FROM until - now()) * 1000)::float8 FROM fleet_leases
    WHERE name = $1 AND NOT EXISTS (SELECT 1 FROM taken)`,
);

const releaseLease = sql('releaseFleetLease', 'DELETE FROM fleet_leases WHERE name = $1 AND holder = $2');

export interface FleetLease {
  /** This process's name in the lease table. */
  readonly holder: string;
  /** Whether this process holds the lease now (taking or renewing it when it is time to ask). */
  held(): Promise<boolean>;
  /**
   * Hands the lease back if this process holds it: free for whichever process asks next. Final:
   * held() answers false from then on, and nothing renews.
   */
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
  /** The holder's renewal, due when a third of its lease is left. */
  let renewal: NodeJS.Timeout | undefined;
  let released = false;

  /** Renews in `ms`; a renewal that fails (the database away) is tried again within a second. */
  function renewIn(ms: number) {
    renewal = setTimeout(
      () =>
        void refresh().catch(() => {
          if (mine && !released) renewIn(Math.min(1_000, (opts.seconds * 1000) / 6));
        }),
      ms,
    );
    renewal.unref();
  }

  async function ask(): Promise<boolean> {
    clearTimeout(renewal);
    const { rows } = await db.query<{ taken: boolean; left_ms: number }>(takeLease, [
      name,
      holder,
      opts.seconds,
    ]);
    const row = rows[0];
    mine = row?.taken === true;
    // The holder asks again when a third of its lease is left; another process when the lease it
    // saw runs out (at most a lease's length: a clock set back must not silence it), and at once
    // when it saw no row.
    const left = row ? Math.min(Math.max(0, row.left_ms), opts.seconds * 1000) : 0;
    const wait = mine ? (left * 2) / 3 : left;
    askAt = now() + wait;
    if (mine && !released) renewIn(wait);
    return mine;
  }

  /** Asks now; concurrent callers share one statement. */
  function refresh(): Promise<boolean> {
    asking ??= ask().finally(() => {
      asking = null;
    });
    return asking;
  }

  function held(): Promise<boolean> {
    if (released) return Promise.resolve(false);
    return now() < askAt ? Promise.resolve(mine) : refresh();
  }

  return {
    holder,
    held,
    async release() {
      released = true;
      clearTimeout(renewal);
      // An ask in flight may be about to make this process the holder.
      await asking?.catch(() => {});
      clearTimeout(renewal);
      if (!mine) return;
      mine = false;
      askAt = Number.NEGATIVE_INFINITY;
      await db.query(releaseLease, [name, holder]);
    },
  };
}
