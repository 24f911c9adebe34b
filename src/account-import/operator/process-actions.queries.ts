/**
 * The operator's actions on import processes: cancel or retry one process, or every process a
 * filter matches. The state table decides where each may happen (a process in another state
 * is refused, or skipped in bulk); process-transitions.queries.ts writes the moves.
 */
import { type Db, sql } from '../../infra/db/db.ts';
import { allows, type ImportProcessStatus } from '../../vocabulary/import-process-states.ts';
import { type EventLog, type EventProcess, logProcessEvents } from '../process-event-log.ts';
import { recordTransition, recordTransitions } from '../process-transitions.queries.ts';
import { filteredQueries, type ProcessFilter } from './process-filter.queries.ts';

const lockPage = filteredQueries(
  'lockImportProcessesByFilter',
  (where, n) =>
    `SELECT p.id, p.status, p.import_supplier, p.external_account_number FROM import_processes p
      WHERE ${where} p.id > $${n}
      ORDER BY p.id
      LIMIT $${n + 1}
        FOR UPDATE`,
);

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

/** What an operator's cancel or retry says in its event. */
const BY_OPERATOR = { by: 'operator' } as const;
const BULK_EVENT_DATA = { ...BY_OPERATOR, bulk: true } as const;

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
      const moved: string[] = [];
      for (const row of page) {
        if (allows(row.status, action)) {
          moved.push(row.id);
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
      // The page's moves in one statement.
      await recordTransitions(tx, moved, action, { data: BULK_EVENT_DATA });
      out.changed += moved.length;
      return { page, changed };
    });
    logProcessEvents(opts.log, action, rows.changed, { bulk: true });
    out.pages++;
    out.matched += rows.page.length;
    if (rows.page.length < pageSize) return out;
    cursor = rows.page[rows.page.length - 1].id;
  }
}

export type OperatorActionOutcome = 'done' | 'not_found' | 'wrong_state';

const lockForOperator = sql(
  'lockImportProcessForOperator',
  'SELECT id, status FROM import_processes WHERE import_supplier = $1 AND external_account_number = $2 FOR UPDATE',
);

/** Cancels or retries one process, under its row lock, where the state table allows it. */
async function operatorTransition(
  db: Db,
  supplier: string,
  external: string,
  trigger: BulkTrigger,
): Promise<{ outcome: OperatorActionOutcome; status?: ImportProcessStatus }> {
  return db.transaction(async (tx) => {
    const row = (
      await tx.query<{ id: string; status: ImportProcessStatus }>(lockForOperator, [supplier, external])
    ).rows[0];
    if (!row) return { outcome: 'not_found' };
    if (!allows(row.status, trigger)) return { outcome: 'wrong_state', status: row.status };
    await recordTransition(tx, row.id, trigger, { data: BY_OPERATOR });
    return { outcome: 'done' };
  });
}

export const cancelImportProcess = (db: Db, supplier: string, external: string) =>
  operatorTransition(db, supplier, external, 'cancel');

export const retryImportProcess = (db: Db, supplier: string, external: string) =>
  operatorTransition(db, supplier, external, 'retry');
