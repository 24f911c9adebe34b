/**
 * The operator's acts on a wave as a whole, recorded in its `waves` row: the approval (final) and
 * the rollback. Each runs under the row's lock, as the supplier's expectations upload does, so an
 * approval, a rollback and an upload of one wave happen one after the other, never interleaved.
 */
import { type Queryable, sql } from '../../infra/db/db.ts';

const insertWave = sql(
  'insertWaveForOperator',
  'INSERT INTO waves (import_supplier, wave) VALUES ($1, $2) ON CONFLICT DO NOTHING',
);
const selectWaveLocked = sql(
  'selectWaveForOperator',
  'SELECT approved_at FROM waves WHERE import_supplier = $1 AND wave = $2 FOR UPDATE',
);

/**
 * Takes wave ($supplier, $wave)'s row lock (creating the row unless `create` is false: a dry run
 * writes nothing) and answers whether it is approved.
 */
export async function lockWaveRecord(
  tx: Queryable,
  supplier: string,
  wave: string,
  opts: { create: boolean },
): Promise<{ approved: boolean }> {
  if (opts.create) await tx.query(insertWave, [supplier, wave]);
  const { rows } = await tx.query<{ approved_at: Date | null }>(selectWaveLocked, [supplier, wave]);
  return { approved: Boolean(rows[0]?.approved_at) };
}

export interface WaveApproval {
  approved_at: Date;
  approved_by: string;
  approval: { accounts: unknown; totals: unknown; forced: boolean };
}

const updateApproval = sql(
  'recordWaveApproval',
  `UPDATE waves SET approved_at = now(), approved_by = $3, approval = $4
    WHERE import_supplier = $1 AND wave = $2
   RETURNING approved_at, approved_by, approval`,
);

export async function recordApproval(
  tx: Queryable,
  supplier: string,
  wave: string,
  by: string,
  approval: WaveApproval['approval'],
): Promise<WaveApproval> {
  return (await tx.query<WaveApproval>(updateApproval, [supplier, wave, by, approval])).rows[0];
}

const updateRollback = sql(
  'recordWaveRollback',
  `UPDATE waves SET rolled_back_at = now(), rolled_back_by = $3, rollback = $4
    WHERE import_supplier = $1 AND wave = $2
   RETURNING rolled_back_at`,
);

export async function recordRollback(
  tx: Queryable,
  supplier: string,
  wave: string,
  by: string,
  rollback: Record<string, unknown>,
): Promise<Date> {
  return (await tx.query<{ rolled_back_at: Date }>(updateRollback, [supplier, wave, by, rollback])).rows[0]
    .rolled_back_at;
}
