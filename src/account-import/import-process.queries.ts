/**
 * Import processes as stored: status reads (batched), transitions by the state table, operator
 * cancel and retry, a process's detail. Scheduling lives in import-process-scheduling.queries.ts.
 */
import { batcher } from '../infra/batcher.ts';
import { type Db, type Queryable, sql } from '../infra/db/db.ts';
import {
  allows,
  IMPORT_PROCESS_TRANSITIONS,
  type ImportProcessStatus,
  type ImportProcessTrigger,
} from '../vocabulary/import-process-states.ts';

export interface LatestError {
  code: string;
  detail: string;
  domain: string;
}

export interface LatestEvent {
  event: string;
  occurred_at: string;
  data: Record<string, unknown> | null;
}

/** A process's status, its datetimes already in the wire form (`YYYY-MM-DDTHH:MM:SSZ`). */
export interface ImportProcessStatusRow {
  id: string;
  status: ImportProcessStatus;
  account_number: string | null;
  latest_error: LatestError | null;
  latest_event: LatestEvent;
  created_at: string;
  modified_at: string;
}

/** The interface's datetime form, written by PostgreSQL: a poll then parses and formats no Date. */
const wire = (timestamp: string) =>
  `to_char((${timestamp}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

const selectStatuses = sql(
  'selectImportProcessStatuses',
  `SELECT k.i, p.id, p.status, a.number AS account_number, p.latest_error,
          coalesce(jsonb_set(p.latest_event, '{occurred_at}',
                             to_jsonb(${wire("(p.latest_event->>'occurred_at')::timestamptz")})),
                   p.latest_event) AS latest_event,
          ${wire('p.created_at')} AS created_at, ${wire('p.modified_at')} AS modified_at
     FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(supplier, external, i)
     JOIN import_processes p ON p.import_supplier = k.supplier AND p.external_account_number = k.external
     LEFT JOIN accounts a ON a.id = p.account_id`,
);

/** The status rows of processes by (supplier, external number), in the order asked; null where none. */
export async function findImportProcessStatuses(
  db: Queryable,
  keys: [string, string][],
): Promise<(ImportProcessStatusRow | null)[]> {
  const { rows } = await db.query<ImportProcessStatusRow & { i: string }>(selectStatuses, [
    keys.map((k) => k[0]),
    keys.map((k) => k[1]),
  ]);
  const found: (ImportProcessStatusRow | null)[] = keys.map(() => null);
  for (const { i, ...row } of rows) found[Number(i) - 1] = row;
  return found;
}

export async function findImportProcessStatus(
  db: Queryable,
  supplier: string,
  external: string,
): Promise<ImportProcessStatusRow | null> {
  return (await findImportProcessStatuses(db, [[supplier, external]]))[0];
}

/**
 * findImportProcessStatus for pollers: concurrent look-ups share one query (one round trip,
 * one result), which is where a status poll spends most of its time. One query in flight: the
 * polls arriving meanwhile all go in the next, so fewer, larger queries (64 connections: ≈ 87 µs
 * of CPU a poll against ≈ 95 with two in flight and ≈ 105 with four; docs/performance.md).
 */
export function importProcessStatusReader(
  db: Queryable,
): (supplier: string, external: string) => Promise<ImportProcessStatusRow | null> {
  const load = batcher(
    async (keys: [string, string][]) =>
      (await findImportProcessStatuses(db, keys)).map((value) => ({ status: 'fulfilled' as const, value })),
    { maxBatch: 100, maxInFlight: 1 },
  );
  return (supplier, external) => load([supplier, external]);
}

const updateStates = sql(
  'updateImportProcessStates',
  `UPDATE import_processes
      SET status = $2, latest_error = $3, latest_event = $4, modified_at = $5,
          account_id = coalesce($6, account_id), locked_by = NULL, locked_until = NULL
    WHERE id = ANY($1::bigint[]) AND status = ANY($7::text[])`,
);
const insertEvents = sql(
  'insertImportProcessEvents',
  `INSERT INTO import_process_events (import_process_id, event, occurred_at, data)
   SELECT id, $2, $3, $4 FROM unnest($1::bigint[]) AS id`,
);

/** What a transition records beside its state and event name. */
export interface TransitionDetails {
  data?: Record<string, unknown> | null;
  error?: LatestError | null;
  accountId?: string | null;
}

/**
 * Moves processes as `trigger` does in the state table and appends the event that says so, in
 * two statements however many (call inside a transaction, with the processes' rows locked). A
 * trigger the table refuses in a process's state changes nothing and throws: callers check
 * `allows` first.
 */
export async function recordTransitions(
  tx: Queryable,
  processIds: string[],
  trigger: ImportProcessTrigger,
  details: TransitionDetails = {},
): Promise<void> {
  if (processIds.length === 0) return;
  const { from, to, event } = IMPORT_PROCESS_TRANSITIONS[trigger];
  const now = new Date();
  const data: Record<string, unknown> | null = details.data ?? (details.error ? { ...details.error } : null);
  const latestEvent: LatestEvent = { event, occurred_at: now.toISOString(), data };
  const updated = await tx.query(updateStates, [
    processIds,
    to,
    details.error ?? null,
    latestEvent,
    now,
    details.accountId ?? null,
    from,
  ]);
  if (updated.rowCount !== processIds.length) {
    throw new Error(
      `import processes ${processIds.join(', ')}: the state table refuses ${trigger} in their state`,
    );
  }
  await tx.query(insertEvents, [processIds, event, now, data]);
}

/** recordTransitions for one process. */
export const recordTransition = (
  tx: Queryable,
  processId: string,
  trigger: ImportProcessTrigger,
  details: TransitionDetails = {},
): Promise<void> => recordTransitions(tx, [processId], trigger, details);

export type OperatorActionOutcome = 'done' | 'not_found' | 'wrong_state';

const lockForOperator = sql(
  'lockImportProcessForOperator',
  'SELECT id, status FROM import_processes WHERE import_supplier = $1 AND external_account_number = $2 FOR UPDATE',
);

async function operatorTransition(
  db: Db,
  supplier: string,
  external: string,
  action: { trigger: 'cancel' | 'retry'; data: Record<string, unknown> },
): Promise<{ outcome: OperatorActionOutcome; status?: ImportProcessStatus }> {
  return db.transaction(async (tx) => {
    const row = (
      await tx.query<{ id: string; status: ImportProcessStatus }>(lockForOperator, [supplier, external])
    ).rows[0];
    if (!row) return { outcome: 'not_found' };
    if (!allows(row.status, action.trigger)) return { outcome: 'wrong_state', status: row.status };
    await recordTransition(tx, row.id, action.trigger, { data: action.data });
    return { outcome: 'done' };
  });
}

export const cancelImportProcess = (db: Db, supplier: string, external: string) =>
  operatorTransition(db, supplier, external, { trigger: 'cancel', data: { by: 'operator' } });

export const retryImportProcess = (db: Db, supplier: string, external: string) =>
  operatorTransition(db, supplier, external, { trigger: 'retry', data: { retried_by: 'operator' } });

const selectDetail = sql(
  'selectImportProcessDetail',
  `SELECT p.id, p.import_supplier, p.external_account_number, p.status, p.payload, p.is_dry_run,
          p.schedule_window_start, p.schedule_window_end, p.attempts, p.latest_error, p.latest_event,
          p.created_at, p.modified_at, a.number AS account_number, a.created_at AS account_created_at
     FROM import_processes p LEFT JOIN accounts a ON a.id = p.account_id
    WHERE p.import_supplier = $1 AND p.external_account_number = $2`,
);
const selectEvents = sql(
  'selectImportProcessEvents',
  'SELECT event, occurred_at, data FROM import_process_events WHERE import_process_id = $1 ORDER BY id',
);

/** A process as selectDetail reads it (the admin API and the dashboard show it). */
export interface ImportProcessDetailRow {
  id: string;
  import_supplier: string;
  external_account_number: string;
  status: ImportProcessStatus;
  payload: Record<string, unknown>;
  is_dry_run: boolean;
  schedule_window_start: Date;
  schedule_window_end: Date;
  attempts: number;
  latest_error: LatestError | null;
  latest_event: LatestEvent;
  created_at: Date;
  modified_at: Date;
  account_number: string | null;
  account_created_at: Date | null;
}

export async function findImportProcessDetail(db: Db, supplier: string, external: string) {
  const row = (await db.query<ImportProcessDetailRow>(selectDetail, [supplier, external])).rows[0];
  if (!row) return null;
  const events = (
    await db.query<{ event: string; occurred_at: Date; data: Record<string, unknown> | null }>(selectEvents, [
      row.id,
    ])
  ).rows;
  return { ...row, events };
}
