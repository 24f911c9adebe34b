/**
 * Staged processes: account data kept by the V1 create-or-update endpoint that no worker takes,
 * and the V1 process endpoint that turns it into an account in the request.
 */
import { type Queryable, sql } from '../../infra/db/db.ts';
import type { ImportProcessStatus } from '../../vocabulary/import-process-states.ts';
import { startSql } from '../process-state-sql.ts';

const stage = startSql('stage', { at: '$4::timestamptz' });

/** A new STAGED process for supplier $1 and external number $2, payload $3, at $4; none when it exists. */
export const insertStagedProcess = sql(
  'insertStagedImportProcess',
  `WITH created AS (
     INSERT INTO import_processes (import_supplier, external_account_number, payload, ${stage.columns})
     VALUES ($1, $2, $3, ${stage.values})
     ON CONFLICT (import_supplier, external_account_number) DO NOTHING
     RETURNING id, latest_event
   ), event AS (
     ${stage.events('created')}
   )
   SELECT id FROM created`,
);

export interface LockedProcess {
  id: string;
  status: ImportProcessStatus;
  payload: Record<string, unknown>;
  account_number: string | null;
}

const lockProcess = sql(
  'lockImportProcessForStaging',
  `SELECT p.id, p.status, p.payload, a.number AS account_number
     FROM import_processes p LEFT JOIN accounts a ON a.id = p.account_id
    WHERE p.import_supplier = $1 AND p.external_account_number = $2
      FOR UPDATE OF p`,
);

export async function lockImportProcess(
  tx: Queryable,
  supplier: string,
  external: string,
): Promise<LockedProcess | null> {
  return (await tx.query<LockedProcess>(lockProcess, [supplier, external])).rows[0] ?? null;
}

export const replaceStagedPayload = sql(
  'replaceStagedImportProcessPayload',
  'UPDATE import_processes SET payload = $2, is_dry_run = false, attempts = 0 WHERE id = $1',
);

export const supplierSendsWelcomeEmails = sql(
  'selectSupplierSendsWelcomeEmails',
  "SELECT coalesce((config->>'send_welcome_emails')::boolean, false) AS send FROM import_suppliers WHERE code = $1",
);
