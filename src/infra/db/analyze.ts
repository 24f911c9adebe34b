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
 * SKIP_LOCKED: when another ANALYZE of the table is running (another worker process's refresher,
 * autovacuum's), this one is skipped instead of queueing behind it: that one is refreshing the
 * same statistics. With 8 worker processes on 16 cores, queued ANALYZEs of the deliveries were
 * 3 % of the database's waits during a push (docs/performance.md).
 */
export function statisticsRefresher(db: Queryable, opts: StatisticsRefresherOptions): StatisticsRefresher {
  let claimedSinceAnalyze = 0;
  let threshold = opts.everyClaims;
  let lastAnalyze = opts.atFirstClaim ? 0 : Date.now();
  let analyzing: Promise<void> | null = null;
  return {
    claimed(rows) {
      claimedSinceAnalyze += rows;
      const byCount = claimedSinceAnalyze >= threshold;
      const due = byCount || (claimedSinceAnalyze > 0 && Date.now() - lastAnalyze >= opts.everyMs);
      if (!due || analyzing) return;
      if (byCount) threshold *= 2;
      claimedSinceAnalyze = 0;
      lastAnalyze = Date.now();
      analyzing = db
        .exec(`ANALYZE (SKIP_LOCKED) ${opts.table}`)
        .catch((err) => opts.logger.warn({ err }, opts.failureMessage))
        .finally(() => {
          analyzing = null;
        });
    },
    get pending() {
      return analyzing;
    },
  };
}
