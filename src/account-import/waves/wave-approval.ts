/**
 * The operator's approval of a wave (decision 0070): final, given only when the wave reconciles
 * (or when forced), and the moment the wave's held welcome e-mails are released.
 */
import { lockWaveForApproval, releaseHeldWelcomeEmails } from '../../accounts/welcome-emails/wave-hold.ts';
import { apiError, notFound } from '../../errors/error-catalogue.ts';
import { recordSupplierEvent } from '../../events/event-feed.ts';
import type { Db } from '../../infra/db/db.ts';
import { findSupplier } from '../../suppliers/suppliers.queries.ts';
import { SUPPLIER_EVENTS } from '../../vocabulary/event-types.ts';
import { reconcileWave } from './reconciliation.queries.ts';
import { lockWaveRecord, recordApproval, type WaveApproval } from './wave-record.queries.ts';

/** Who the admin API's acts are recorded as: the one operator credential has no other name. */
export const OPERATOR = 'operator';

export const waveApprovedError = (wave: string) =>
  apiError('wave_approved', `Wave ${wave} is approved: approval is final.`);

export interface ApprovedWave extends WaveApproval {
  /** Held welcome e-mails released by this approval. */
  released_emails: number;
}

/**
 * Approves wave `wave` of `supplier` in one transaction, under the wave's row lock: refused when
 * it is approved already (409 wave_approved) or when its reconciliation, taken under that lock,
 * is not clean and `force` is not set (409 reconciliation_differences, with the accounts and
 * totals). Records who, when and the reconciliation, and releases the wave's held e-mails.
 */
export async function approveWave(
  db: Db,
  opts: { supplier: string; wave: string; force: boolean; by: string },
): Promise<ApprovedWave> {
  const { supplier, wave, force, by } = opts;
  return db.transaction(async (tx) => {
    if (!(await findSupplier(tx, supplier))) throw notFound('No import supplier has that code.');
    if ((await lockWaveRecord(tx, supplier, wave, { create: true })).approved) throw waveApprovedError(wave);
    const { accounts, totals, clean } = await reconcileWave(tx, supplier, wave);
    if (!clean && !force) {
      throw apiError(
        'reconciliation_differences',
        accounts.expected === 0
          ? `Wave ${wave} has no expectations to reconcile with: upload them, or approve with {"force": true}.`
          : `Wave ${wave} does not reconcile: ${accounts.missing} missing, ${accounts.unexpected} unexpected, ${accounts.differing} differing.`,
        { body: { accounts, totals } },
      );
    }
    await lockWaveForApproval(tx, supplier, wave);
    const approved = await recordApproval(tx, supplier, wave, by, { accounts, totals, forced: !clean });
    const released = await releaseHeldWelcomeEmails(tx, supplier, wave);
    await recordSupplierEvent(tx, {
      supplier,
      type: SUPPLIER_EVENTS.WAVE_APPROVED,
      data: { wave, forced: !clean, accounts, released_emails: released },
    });
    return { ...approved, released_emails: released };
  });
}
