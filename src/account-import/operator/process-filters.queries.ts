import { type Db, type Queryable, type Sql, sql } from '../../infra/db/db.ts';
import { allows, type ImportProcessStatus } from '../../vocabulary/import-process-states.ts';
import { wireDatetime } from '../../vocabulary/wire-datetime.ts';
import { recordTransition } from '../import-process.queries.ts';
import { type EventLog, type EventProcess, logProcessEvents } from '../process-event-log.ts';
import { sqlStates } from '../process-state-sql.ts';

/** The operator's process filter: every part optional, the parts given must all hold. */
export interface ProcessFilter {
  supplier?: string;
  status?: ImportProcessStatus;
  error_code?: string;
}

const FILTER_PARTS = [
  ['supplier', 'p.import_supplier'],
  ['status', 'p.status'],
  ['error_code', "(p.latest_error->>'code')"],
] as const;

/**
 * One statement per combination of filter parts (eight per shape), so each is a plain
 * `col = $n` the planner matches to an index (migration 0010) instead of `$n IS NULL OR ...`.
 * The SQL is made of the fixed fragments above; values are always parameters.
 */
function filteredQueries(name: string, build: (where: string, next: number) => string) {
  const cache = new Map<string, Sql>();
  return (filter: ProcessFilter): { query: Sql; params: unknown[] } => {
    const used = FILTER_PARTS.filter(([key]) => filter[key] !== undefined);
    const key = used.map(([k]) => k).join('+') || 'all';
    let query = cache.get(key);
    if (!query) {
      const where = used.map(([, column], i) => `${column} = $${i + 1}`);
      query = sql(`${name}_${key}`, build(where.length ? `${where.join(' AND ')} AND` : '', used.length + 1));
      cache.set(key, query);
    }
    return { query, params: used.map(([k]) => filter[k]) };
  };
}

const listPage = filteredQueries(
  'listImportProcessesByFilter',
  (where, n) =>
    `SELECT p.id, p.import_supplier, p.external_account_number, p.status, p.is_dry_run, p.attempts,
            p.latest_error, a.number AS account_number, p.created_at, p.modified_at
       FROM import_processes p LEFT JOIN accounts a ON a.id = p.account_id
      WHERE ${where} p.id > $${n}
      ORDER BY p.id
      LIMIT $${n + 1}`,
);

const lockPage = filteredQueries(
  'lockImportProcessesByFilter',
  (where, n) =>
    `SELECT p.id, p.status, p.import_supplier, p.external_account_number FROM import_processes p
      WHERE ${where} p.id > $${n}
      ORDER BY p.id
      LIMIT $${n + 1}
        FOR UPDATE`,
);

/** A process as the operator's lists and exports show it (no payload: see the process detail). */
export interface ProcessListItem {
  import_supplier: string;
  external_account_number: string;
  status: ImportProcessStatus;
  is_dry_run: boolean;
  attempts: number;
  latest_error: { code: string; detail: string; domain?: string } | null;
  service_account_number: string | null;
  created_at: string;
  modified_at: string;
}

type ListRow = Omit<ProcessListItem, 'service_account_number' | 'created_at' | 'modified_at'> & {
  id: string;
  account_number: string | null;
  created_at: Date;
  modified_at: Date;
};

const toItem = (r: ListRow): ProcessListItem => ({
  import_supplier: r.import_supplier,
  external_account_number: r.external_account_number,
  status: r.status,
  is_dry_run: r.is_dry_run,
  attempts: r.attempts,
  latest_error: r.latest_error,
  service_account_number: r.account_number,
  created_at: wireDatetime(r.created_at) as string,
  modified_at: wireDatetime(r.modified_at) as string,
});

/**
 * One page of the filtered list after `cursor` (the id of the previous page's last process; '0'
 * from the start), and the cursor of the next page.
 */
export async function listProcessesPage(
  db: Queryable,
  filter: ProcessFilter,
  opts: { cursor: string; limit: number },
): Promise<{ results: ProcessListItem[]; next_cursor: string | null }> {
  const { query, params } = listPage(filter);
  const { rows } = await db.query<ListRow>(query, [...params, opts.cursor, opts.limit]);
  const full = rows.length === opts.limit;
  return { results: rows.map(toItem), next_cursor: full ? String(rows[rows.length - 1].id) : null };
}

export const EXPORT_PAGE_SIZE = 2_000;

/**
 * Every process the filter matches, in id order, one keyset page at a time (decision 0003):
 * memory stays at one page, and nothing is held between pages, so a slow reader blocks no one.
 */
export async function* walkProcesses(
  db: Queryable,
  filter: ProcessFilter,
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<ProcessListItem> {
  let cursor: string | null = '0';
  while (cursor !== null) {
    const page = await listProcessesPage(db, filter, { cursor, limit: pageSize });
    yield* page.results;
    cursor = page.next_cursor;
  }
}

export type BulkTrigger = 'cancel' | 'retry';

export interface BulkOutcome {
  action: BulkTrigger;
  matched: number;
  changed: number;
  skipped: number;
  /** The states of the skipped processes: the state table does not allow the action there. */
  skipped_by_status: Partial<Record<ImportProcessStatus, number>>;
  pages: number;
}

interface LockedRow {
  id: string;
  status: ImportProcessStatus;
  import_supplier: string;
  external_account_number: string;
}

const BULK_EVENT_DATA: Record<BulkTrigger, Record<string, unknown>> = {
  cancel: { by: 'operator', bulk: true },
  retry: { retried_by: 'operator', bulk: true },
};

export const BULK_PAGE_SIZE = 500;

/**
 * Cancels or retries every process the filter matches, one transaction per keyset page: each
 * page's rows are locked, and each moves only where the state table allows the trigger; the
 * others are counted as skipped. A failure stops the walk; the pages before it stay done.
 * Each page's events are logged once it committed.
 */
export async function bulkTransition(
  db: Db,
  filter: ProcessFilter,
  action: BulkTrigger,
  opts: { log: EventLog; pageSize?: number },
): Promise<BulkOutcome> {
  const pageSize = opts.pageSize ?? BULK_PAGE_SIZE;
  const out: BulkOutcome = { action, matched: 0, changed: 0, skipped: 0, skipped_by_status: {}, pages: 0 };
  const { query, params } = lockPage(filter);
  let cursor = '0';
  for (;;) {
    const rows = await db.transaction(async (tx) => {
      const page = (await tx.query<LockedRow>(query, [...params, cursor, pageSize])).rows;
      const changed: EventProcess[] = [];
      for (const row of page) {
        if (allows(row.status, action)) {
          await recordTransition(tx, row.id, action, { data: BULK_EVENT_DATA[action] });
          out.changed++;
          changed.push({
            supplier: row.import_supplier,
            externalAccountNumber: row.external_account_number,
            importProcessId: row.id,
          });
        } else {
          out.skipped++;
          out.skipped_by_status[row.status] = (out.skipped_by_status[row.status] ?? 0) + 1;
        }
      }
      return { page, changed };
    });
    logProcessEvents(opts.log, action, rows.changed, { bulk: true });
    out.pages++;
    out.matched += rows.page.length;
    if (rows.page.length < pageSize) return out;
    cursor = rows.page[rows.page.length - 1].id;
  }
}

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

const selectSupplierCodes = sql(
  'selectImportSupplierCodes',
  'SELECT code FROM import_suppliers ORDER BY code LIMIT $1',
);

/** The first `limit` supplier codes, for an answer that lists the allowed ones. */
export async function supplierCodes(db: Queryable, limit: number): Promise<string[]> {
  return (await db.query<{ code: string }>(selectSupplierCodes, [limit])).rows.map((r) => r.code);
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
