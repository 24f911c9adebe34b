/**
 * Rolling back a wave before its approval (decision 0070): every account its processes created
 * and every row of them deleted, its processes CANCELLED with their ROLLED_BACK event, in one
 * transaction, so the same book can be pushed again. Refused once the wave is approved, and once
 * any of its customers was sent a welcome e-mail (a customer Ferry has written to cannot be
 * un-migrated silently). A dry run takes the same locks and checks and answers the counts.
 */
import { apiError, notFound } from '../../errors/error-catalogue.ts';
import { recordSupplierEvent } from '../../events/event-feed.ts';
import type { Db } from '../../infra/db/db.ts';
import { findSupplier } from '../../suppliers/suppliers.queries.ts';
import { SUPPLIER_EVENTS } from '../../vocabulary/event-types.ts';
import { waveApprovedError } from './wave-approval.ts';
import { lockWaveRecord, recordRollback } from './wave-record.queries.ts';
import {
  countRollbackRows,
  deleteWaveAccounts,
  lockRollbackProcesses,
  type RollbackCounts,
  sentWelcomeEmails,
} from './wave-rollback.queries.ts';

/** How many accounts a welcome_emails_sent refusal names (the total is given too). */
const NAMED_ACCOUNTS = 1000;

export interface WaveRollback {
  dry_run: boolean;
  /** Processes moved (or that would move) to CANCELLED. */
  processes: number;
  /** Rows deleted (or that would be) per table, accounts included. */
  rows: Omit<RollbackCounts, 'processes'>;
  rolled_back_at: Date | null;
}

export async function rollBackWave(
  db: Db,
  opts: { supplier: string; wave: string; dryRun: boolean; by: string },
): Promise<WaveRollback> {
  const { supplier, wave, dryRun, by } = opts;
  return db.transaction(async (tx) => {
    if (!(await findSupplier(tx, supplier))) throw notFound('No import supplier has that code.');
    if ((await lockWaveRecord(tx, supplier, wave, { create: !dryRun })).approved)
      throw waveApprovedError(wave);
    await lockRollbackProcesses(tx, supplier, wave);
    const sent = await sentWelcomeEmails(tx, supplier, wave, NAMED_ACCOUNTS);
    if (sent.total > 0) {
      throw apiError(
        'welcome_emails_sent',
        `${sent.total} of wave ${wave}'s customers were sent their welcome e-mail: the wave cannot be rolled back.`,
        { body: { emails_sent: sent.total, external_account_numbers: sent.externalAccountNumbers } },
      );
    }
    if (dryRun) {
      const { processes, ...rows } = await countRollbackRows(tx, supplier, wave);
      return { dry_run: true, processes, rows, rolled_back_at: null };
    }
    const { processes, ...rows } = await deleteWaveAccounts(tx, supplier, wave, { by });
    const at = await recordRollback(tx, supplier, wave, by, { processes, rows });
    await recordSupplierEvent(tx, {
      supplier,
      type: SUPPLIER_EVENTS.WAVE_ROLLED_BACK,
      data: { wave, processes, rows },
    });
    return { dry_run: false, processes, rows, rolled_back_at: at };
  });
}
