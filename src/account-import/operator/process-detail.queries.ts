/** A process in full for the operator (the admin API and the dashboard): its record and every event. */
import type { MappingProfileRef } from '../../accounts/account-checks.ts';
import { type Db, sql } from '../../infra/db/db.ts';
import type { ImportProcessStatus } from '../../vocabulary/import-process-states.ts';
import type { LatestError, LatestEvent } from '../process-transitions.queries.ts';
import { mappingProfileColumn } from './process-lists.queries.ts';

const selectDetail = sql(
  'selectImportProcessDetail',
  `SELECT p.id, p.import_supplier, p.external_account_number, p.status, p.payload, p.is_dry_run,
          p.schedule_window_start, p.schedule_window_end, p.attempts, p.latest_error, p.latest_event,
          p.created_at, p.modified_at, a.number AS account_number, a.created_at AS account_created_at,
          ${mappingProfileColumn}
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
  mapping_profile: MappingProfileRef | null;
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
