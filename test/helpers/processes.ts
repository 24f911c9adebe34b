import { recordTransition, scheduleImportProcess } from '../../src/account-import/import-process.queries.ts';
import {
  IMPORT_PROCESS_EVENTS,
  type ImportProcessStatus,
} from '../../src/account-import/import-process-status.ts';
import { type Db, sql } from '../../src/infra/db/db.ts';

const EVENT_FOR: Record<ImportProcessStatus, string> = {
  STAGED: IMPORT_PROCESS_EVENTS.STAGED,
  PENDING: IMPORT_PROCESS_EVENTS.CREATED,
  IN_PROGRESS: IMPORT_PROCESS_EVENTS.STARTED,
  PROCESSED: IMPORT_PROCESS_EVENTS.PROCESSED,
  CANCELLED: IMPORT_PROCESS_EVENTS.CANCELLED,
  DRY_RUN_SUCCEEDED: IMPORT_PROCESS_EVENTS.DRY_RUN_SUCCEEDED,
  ERRORED: IMPORT_PROCESS_EVENTS.ERRORED,
  DRY_RUN_ERRORED: IMPORT_PROCESS_EVENTS.DRY_RUN_ERRORED,
};

/**
 * Stages a process through the data layer and moves it to `status` (for tests of the status
 * and admin endpoints that do not need a worker). PROCESSED gets an account row.
 */
export async function stageProcess(
  db: Db,
  supplier: string,
  external: string,
  status: ImportProcessStatus = 'PENDING',
) {
  await scheduleImportProcess(db, {
    supplier,
    externalAccountNumber: external,
    payload: { import_supplier: supplier, external_account_number: external },
    isDryRun: status.startsWith('DRY_RUN'),
    scheduleWindowStart: new Date(),
    scheduleWindowEnd: new Date(Date.now() + 4 * 86400e3),
    explicitWindow: false,
  });
  if (status === 'PENDING') return null;
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      sql('', 'SELECT id FROM import_processes WHERE import_supplier = $1 AND external_account_number = $2'),
      [supplier, external],
    );
    let accountId: string | null = null;
    let accountNumber: string | null = null;
    if (status === 'PROCESSED') {
      accountNumber = `A-${Math.floor(Math.random() * 0xffffffff)
        .toString(16)
        .toUpperCase()
        .padStart(8, '0')}`;
      const acc = await tx.query<{ id: string }>(
        sql(
          '',
          'INSERT INTO accounts (number, import_supplier, external_account_number) VALUES ($1, $2, $3) RETURNING id',
        ),
        [accountNumber, supplier, external],
      );
      accountId = acc.rows[0].id;
    }
    const failed = status === 'ERRORED' || status === 'DRY_RUN_ERRORED';
    await recordTransition(tx, rows[0].id, {
      status,
      event: EVENT_FOR[status],
      accountId,
      error: failed
        ? {
            code: 'meter_point_on_another_account',
            detail: 'The meter point is already on an account.',
            domain: 'account_import',
          }
        : null,
    });
    return accountNumber;
  });
}
