import type { Queryable } from './db.ts';

export interface StatisticsRefresher {
  /** Counts rows just claimed and, when a refresh is due, starts ANALYZE in the background. */
  claimed(rows: number): void;
  /** The ANALYZE in flight, if any; it never rejects (a failure is logged). */
  readonly pending: Promise<void> | null;
}

export interface StatisticsRefresherOptions {
  /** The table to ANALYZE (a trusted identifier, never user input). */
  table: string;
  /**
   * Refresh after this many rows claimed since the last refresh; the number doubles after each
   * refresh by count...
   */
  everyClaims: number;
  /** ...or once this long has passed since it, if anything was claimed meanwhile. */
  everyMs: number;
  /** true: the first claim of anything refreshes at once; false: the clock starts now. */
  atFirstClaim: boolean;
  logger: { warn(obj: Record<string, unknown>, msg: string): void };
  /** What is logged when the ANALYZE fails. */
  failureMessage: string;
}

/**
 * Keeps a queue table's planner statistics fresh for a claiming loop: PGlite has no autovacuum
 * (and a server may have it off), and with stale statistics a claim sorts every due row instead of
 * reading the first few in index order. The ANALYZE runs in the background, one at a time, so the
 * loop goes on claiming meanwhile; await `pending` when stopping.
 *
 * The count doubles because what goes stale is the table's shape, and a table that has grown by a
 * few thousand rows from empty has changed shape, one that has grown by as many from a million has
 * not: a push analyzes after 2,000, 4,000, 8,000… rows, not every 2,000 (an ANALYZE is a sample of
 * the table, a tenth of a second on a big one, which a delivery every 2,000 paid 50 µs of), and the
 * time limit keeps a long push's statistics fresh.
 *
 * Another process holding the table's lock (another worker process's refresher, autovacuum, an
 * index being built) makes this one wait at most LOCK_WAIT_MS, then give up: with 8 worker
 * processes on 16 cores, ANALYZEs of the deliveries queued behind each other were 3 % of the
 * database's waits during a push (docs/performance.md). One given up is not a refresh: the
 * rows claimed still count, the count does not double, and the next claim after RETRY_MS tries
 * again.
 */
const LOCK_WAIT_MS = 100;
const RETRY_MS = 1_000;

const lockNotAvailable = (err: unknown) => (err as { code?: unknown } | null)?.code === '55P03';

export function statisticsRefresher(db: Queryable, opts: StatisticsRefresherOptions): StatisticsRefresher {
  let claimedSinceAnalyze = 0;
  let threshold = opts.everyClaims;
  let lastAnalyze = opts.atFirstClaim ? 0 : Date.now();
  let notBefore = 0;
  let analyzing: Promise<void> | null = null;
  return {
    claimed(rows) {
      claimedSinceAnalyze += rows;
      if (analyzing || Date.now() < notBefore) return;
      const byCount = claimedSinceAnalyze >= threshold;
      const due = byCount || (claimedSinceAnalyze > 0 && Date.now() - lastAnalyze >= opts.everyMs);
      if (!due) return;
      const taken = claimedSinceAnalyze;
      claimedSinceAnalyze = 0;
      const refreshed = () => {
        if (byCount) threshold *= 2;
        lastAnalyze = Date.now();
      };
      // One implicit transaction: the lock timeout is this ANALYZE's alone.
      analyzing = db
        .exec(`SET LOCAL lock_timeout = '${LOCK_WAIT_MS}ms'; ANALYZE ${opts.table}`)
        .then(refreshed, (err) => {
          if (lockNotAvailable(err)) {
            claimedSinceAnalyze += taken;
            notBefore = Date.now() + RETRY_MS;
            return;
          }
          refreshed();
          opts.logger.warn({ err }, opts.failureMessage);
        })
        .finally(() => {
          analyzing = null;
        });
    },
    get pending() {
      return analyzing;
    },
  };
}
