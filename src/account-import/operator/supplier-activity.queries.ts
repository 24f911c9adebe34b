/**
 * A supplier's activity for the operator's charts and tables: accounts created per minute, and
 * failed processes per error code.
 */
import { type Queryable, sql } from '../../infra/db/db.ts';
import type { ImportProcessStatus } from '../../vocabulary/import-process-states.ts';
import { sqlStates } from '../process-state-sql.ts';

const createdPerMinute = sql(
  'selectAccountsCreatedPerMinute',
  `SELECT date_trunc('minute', created_at) AS minute, count(*)::int AS created
     FROM accounts
    WHERE import_supplier = $1 AND created_at >= $2
    GROUP BY 1`,
);

/**
 * Accounts created per minute for the last `minutes` minutes (the current minute included),
 * oldest first, with a zero for each minute that created none: ready for a chart.
 */
export async function supplierProgress(db: Queryable, supplier: string, minutes: number, now = new Date()) {
  const until = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const since = new Date(until.getTime() - (minutes - 1) * 60_000);
  const { rows } = await db.query<{ minute: Date; created: number }>(createdPerMinute, [supplier, since]);
  const byMinute = new Map(rows.map((r) => [new Date(r.minute).getTime(), r.created]));
  const perMinute = Array.from({ length: minutes }, (_, i) => {
    const t = since.getTime() + i * 60_000;
    return { minute: new Date(t).toISOString(), created: byMinute.get(t) ?? 0 };
  });
  return {
    import_supplier: supplier,
    since: since.toISOString(),
    per_minute: perMinute,
    created: perMinute.reduce((sum, m) => sum + m.created, 0),
  };
}

const FAILED_STATES = ['ERRORED', 'DRY_RUN_ERRORED'] as const satisfies readonly ImportProcessStatus[];

const selectErrorCodeCounts = sql(
  'selectErrorCodeCountsBySupplier',
  `SELECT p.status, p.latest_error->>'code' AS code, count(*)::int AS processes
     FROM import_processes p
    WHERE p.import_supplier = $1 AND p.status IN (${sqlStates(FAILED_STATES)})
    GROUP BY 1, 2
    ORDER BY processes DESC, code, p.status
    LIMIT $2`,
);

export interface ErrorCodeCount {
  status: (typeof FAILED_STATES)[number];
  /** The latest error's code; null for a failed process that has none recorded. */
  code: string | null;
  processes: number;
}

/** A supplier's failed processes (ERRORED, DRY_RUN_ERRORED) per latest error code, most frequent first. */
export async function errorCodeCounts(
  db: Queryable,
  supplier: string,
  limit = 100,
): Promise<ErrorCodeCount[]> {
  return (await db.query<ErrorCodeCount>(selectErrorCodeCounts, [supplier, limit])).rows;
}
