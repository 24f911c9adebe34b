/**
 * Status reads: the V2 status and statuses endpoints, the V1 status answer after staging, and
 * pollers. Concurrent look-ups share one query (importProcessStatusReader).
 */
import { batcher } from '../../infra/batcher.ts';
import { type Queryable, sql } from '../../infra/db/db.ts';
import type { ImportProcessStatus } from '../../vocabulary/import-process-states.ts';
import type { LatestError, LatestEvent } from '../process-transitions.queries.ts';

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
