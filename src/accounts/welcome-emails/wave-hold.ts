/**
 * Welcome e-mails held for a wave (decision 0070): account creation writes a held row while the
 * wave is not approved, and the approval releases the wave's held rows. Both read or change the
 * wave's approval under one advisory lock per wave, shared by account creation and exclusive for
 * the approval, so no held row is written after its wave's approval released the others.
 */
import { type Queryable, sql } from '../../infra/db/db.ts';

/** The advisory locks of wave approvals: the first key names the family, the second the wave. */
const WAVE_APPROVAL_LOCKS = 70_0001;

/**
 * The SQL that takes wave ($supplier, $wave)'s approval lock until the transaction ends;
 * `supplier` and `wave` are SQL expressions (parameters or columns), never input text. Two waves
 * whose hashes collide share a lock: they wait for each other, nothing worse.
 */
export function waveApprovalLock(supplier: string, wave: string, mode: 'shared' | 'exclusive'): string {
  const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  return `${fn}(${WAVE_APPROVAL_LOCKS}, hashtext(${supplier} || '/' || ${wave}))`;
}

const lockWavesShared = sql(
  'lockWavesAgainstApproval',
  `SELECT ${waveApprovalLock('w.supplier', 'w.wave', 'shared')}
     FROM unnest($1::text[], $2::text[]) AS w(supplier, wave)
    ORDER BY w.supplier, w.wave`,
);

/** Account creation, before it writes held rows for these waves (pairs may repeat). */
export async function lockWavesAgainstApproval(
  tx: Queryable,
  waves: readonly { supplier: string; wave: string }[],
): Promise<void> {
  const distinct = new Map(waves.map((w) => [`${w.supplier}/${w.wave}`, w]));
  if (distinct.size === 0) return;
  const pairs = [...distinct.values()];
  await tx.query(lockWavesShared, [pairs.map((w) => w.supplier), pairs.map((w) => w.wave)]);
}

const lockWaveExclusive = sql(
  'lockWaveForApproval',
  `SELECT ${waveApprovalLock('$1::text', '$2::text', 'exclusive')}`,
);

/** The approval, before it records itself and releases the wave's held rows. */
export async function lockWaveForApproval(tx: Queryable, supplier: string, wave: string): Promise<void> {
  await tx.query(lockWaveExclusive, [supplier, wave]);
}

/** Releases the held welcome e-mails of wave $2 of supplier $1: due now. Counts them. */
const releaseHeld = sql(
  'releaseHeldWelcomeEmails',
  `UPDATE email_outbox o SET held_for_wave = NULL, next_attempt_at = now()
     FROM accounts a
    WHERE o.held_for_wave = $2 AND a.id = o.account_id AND a.import_supplier = $1`,
);

export async function releaseHeldWelcomeEmails(
  tx: Queryable,
  supplier: string,
  wave: string,
): Promise<number> {
  return (await tx.query(releaseHeld, [supplier, wave])).rowCount ?? 0;
}
