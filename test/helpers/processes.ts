import { recordTransition } from '../../src/account-import/process-transitions.queries.ts';
import { scheduleImportProcess } from '../../src/account-import/scheduling/scheduling.queries.ts';
import { type Db, sql } from '../../src/infra/db/db.ts';
import type {
  ImportProcessStatus,
  ImportProcessTrigger,
} from '../../src/vocabulary/import-process-states.ts';

/** The triggers of the state table that take a new (PENDING) process to each state, shortest first. */
const PATH_FROM_PENDING: Record<ImportProcessStatus, ImportProcessTrigger[]> = {
  STAGED: ['stage'],
  PENDING: [],
  IN_PROGRESS: ['claim'],
  PROCESSED: ['create_in_request'],
  CANCELLED: ['cancel'],
  DRY_RUN_SUCCEEDED: ['claim', 'dry_run_succeed'],
  ERRORED: ['fail_in_request'],
  DRY_RUN_ERRORED: ['claim', 'dry_run_fail'],
};

/**
 * Stages a process through the data layer and moves it to `status` through the state table
 * (for tests of the status and admin endpoints that do not need a worker). PROCESSED gets an
 * account row.
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
    const error = failed
      ? {
          code: 'meter_point_on_another_account',
          detail: 'The meter point is already on an account.',
          domain: 'account_import',
        }
      : null;
    const path = PATH_FROM_PENDING[status];
    for (const [i, trigger] of path.entries()) {
      const last = i === path.length - 1;
      await recordTransition(tx, rows[0].id, trigger, last ? { accountId, error } : {});
    }
    return accountNumber;
  });
}
