import { asCreationError } from '../../accounts/account-creation-error.ts';
import { type CreateAccountInput, createAccount, createAccounts } from '../../accounts/create-account.ts';
import { type Db, isDbUnavailableError, withTransientRetry } from '../../infra/db/db.ts';
import type { ImportProcessTrigger } from '../../vocabulary/import-process-states.ts';
import { recordTransition } from '../process-transitions.queries.ts';
import { type ClaimedProcess, lockOwnedProcess, lockOwnedProcesses, markProcessed } from './queue.queries.ts';

const DOMAIN = 'account_import';

/** What the worker did with one process: the state table's trigger, and the error code of a failure. */
export interface ImportOutcome {
  trigger: ImportProcessTrigger;
  errorCode?: string;
}

/** Rolls a dry run back to its savepoint after the complete creation ran. */
class DryRunRollback extends Error {}

const creationInput = (p: ClaimedProcess, today: string, dryRun: boolean): CreateAccountInput => ({
  importProcessId: p.id,
  supplier: p.import_supplier,
  externalAccountNumber: p.external_account_number,
  payload: p.payload,
  sendWelcomeEmail: p.send_welcome_emails && !dryRun,
  // Accounts of no wave have no approval to wait for: their e-mails are never held.
  holdWelcomeEmailForWave: p.hold_welcome_emails ? p.wave : null,
  today,
});

/**
 * Creates a batch of claimed accounts (no dry runs) in one transaction of a fixed number of
 * statements, each writing its table for every account of the batch: the fast path. Every
 * process still held is PROCESSED in the same commit. Returns false, having changed nothing,
 * when any account of the batch fails (an identifier taken, two accounts of the batch sharing
 * one, any error but the database being unavailable, which is thrown): the caller then splits
 * the batch, down to processImport for single accounts, which settles each account's outcome.
 * Otherwise returns the processes it created accounts for (those whose lease it still held).
 */
export async function processImportBatch(
  db: Db,
  batch: ClaimedProcess[],
  opts: { workerId: string; today: string },
): Promise<ClaimedProcess[] | false> {
  try {
    return await withTransientRetry(() =>
      db.transaction(async (tx) => {
        const owned = new Set(
          (
            await tx.query<{ id: string }>(lockOwnedProcesses, [batch.map((p) => p.id), opts.workerId])
          ).rows.map((r) => r.id),
        );
        const mine = batch.filter((p) => owned.has(p.id));
        const created = await createAccounts(
          tx,
          mine.map((p) => creationInput(p, opts.today, false)),
        );
        const marked = await tx.query(markProcessed, [
          mine.map((p) => p.id),
          created.map((c) => c.accountId),
          new Date(),
        ]);
        // Under the row locks every process is IN_PROGRESS; should one not be, nothing commits.
        if (marked.rowCount !== mine.length) throw new Error('the state table refuses create for a process');
        return mine;
      }),
    );
  } catch (err) {
    if (isDbUnavailableError(err)) throw err;
    return false;
  }
}

/**
 * Creates one claimed account in one transaction: the lease is re-checked under a row lock
 * (a worker whose lease expired and was re-claimed elsewhere does nothing), the account and
 * its records are inserted, and the process moves to PROCESSED, all committed together, so an
 * account is created exactly once whatever happens to the worker. A dry run does the same
 * work inside a savepoint that is rolled back. Transient database errors retry with backoff.
 * Returns what happened, once committed (null: the lease was lost, nothing happened).
 */
export async function processImport(
  db: Db,
  claimed: ClaimedProcess,
  opts: { workerId: string; today: string },
): Promise<ImportOutcome | null> {
  const dryRun = claimed.is_dry_run || claimed.dry_run_only;
  return withTransientRetry(() =>
    db.transaction(async (tx): Promise<ImportOutcome | null> => {
      const owned = await tx.query(lockOwnedProcess, [claimed.id, opts.workerId]);
      if (owned.rowCount === 0) return null; // the lease was lost: another worker has the process
      await tx.exec('SAVEPOINT account_creation');
      try {
        const created = await createAccount(tx, creationInput(claimed, opts.today, dryRun));
        if (dryRun) throw new DryRunRollback();
        await tx.exec('RELEASE SAVEPOINT account_creation');
        await recordTransition(tx, claimed.id, 'create', { accountId: created.accountId });
        return { trigger: 'create' };
      } catch (err) {
        const failure = err instanceof DryRunRollback ? null : asCreationError(err);
        if (!(err instanceof DryRunRollback) && !failure) throw err;
        await tx.exec('ROLLBACK TO SAVEPOINT account_creation');
        if (!failure) {
          await recordTransition(tx, claimed.id, 'dry_run_succeed');
          return { trigger: 'dry_run_succeed' };
        }
        const error = { code: failure.code, detail: failure.message, domain: DOMAIN };
        const trigger = dryRun ? 'dry_run_fail' : 'fail';
        await recordTransition(tx, claimed.id, trigger, { error });
        return { trigger, errorCode: failure.code };
      }
    }),
  );
}
