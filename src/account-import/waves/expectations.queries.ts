/**
 * Storing a wave's expectations: the upload replaces the previous one whole, in one transaction,
 * streamed in batches (a few thousand lines in memory, whatever the upload's length). A bad line
 * stores nothing of the upload: every error is collected (up to MAX_REPORTED_ERRORS) and the
 * transaction rolled back.
 */
import { ApiError, validationFailed } from '../../errors/error-catalogue.ts';
import { type ErrorItem, item } from '../../errors/error-items.ts';
import { type Db, type Queryable, sql } from '../../infra/db/db.ts';
import { type Expectation, readExpectation } from './expectations.ts';

export const MAX_EXPECTATION_LINES = 2_000_000;
const MAX_REPORTED_ERRORS = 100;
const BATCH_LINES = 5_000;

const selectWaveLock = sql(
  'selectWaveForExpectations',
  'SELECT approved_at FROM waves WHERE import_supplier = $1 AND wave = $2 FOR UPDATE',
);
const insertWave = sql(
  'insertWave',
  'INSERT INTO waves (import_supplier, wave) VALUES ($1, $2) ON CONFLICT DO NOTHING',
);
const deleteExpectations = sql(
  'deleteWaveExpectations',
  'DELETE FROM wave_expectations WHERE import_supplier = $1 AND wave = $2',
);
/** A batch of lines; those whose account an earlier batch gave already are not returned. */
const insertExpectations = sql(
  'insertWaveExpectations',
  `INSERT INTO wave_expectations
          (import_supplier, wave, external_account_number, ledger_balance, meter_points, transactions,
           transactions_total, transactions_net)
   SELECT $1, $2, e.external_account_number, e.ledger_balance, e.meter_points, e.transactions,
          e.transactions_total, e.transactions_net
     FROM jsonb_to_recordset($3::jsonb) AS e(external_account_number text, ledger_balance numeric,
          meter_points integer, transactions integer, transactions_total numeric, transactions_net numeric)
   ON CONFLICT DO NOTHING
   RETURNING external_account_number`,
);
const markUploaded = sql(
  'markWaveExpectationsUploaded',
  `UPDATE waves SET expectations_uploaded_at = now(), expected_accounts = $3
    WHERE import_supplier = $1 AND wave = $2`,
);

export const waveApproved = (wave: string) =>
  new ApiError('wave_approved', `Wave ${wave} is approved: approval is final.`);

const repeated = (line: number, first: number | null) =>
  item(
    `${line}.external_account_number`,
    'repeated_external_account_number',
    first === null
      ? 'This account is given on an earlier line too.'
      : `This account is given on line ${first} too.`,
  );

/**
 * Replaces the expectations of wave `wave` of `supplier` with `lines` (the upload's lines, from
 * 1; blank lines are skipped but counted). Answers how many accounts it holds; throws a
 * validation failure listing the bad lines (storing nothing), or 409 wave_approved.
 */
export async function replaceExpectations(
  db: Db,
  supplier: string,
  wave: string,
  lines: AsyncIterable<string>,
): Promise<{ accounts: number }> {
  return db.transaction(async (tx) => {
    await tx.query(insertWave, [supplier, wave]);
    const { rows } = await tx.query<{ approved_at: Date | null }>(selectWaveLock, [supplier, wave]);
    if (rows[0]?.approved_at) throw waveApproved(wave);
    await tx.query(deleteExpectations, [supplier, wave]);
    const errors: ErrorItem[] = [];
    let batch: { line: number; value: Expectation }[] = [];
    let stored = 0;
    let lineNo = 0;
    const flush = async () => {
      // Once a line is bad nothing is stored, but repeats within a batch are still named.
      if (batch.length > 0)
        stored += await insertBatch(tx, supplier, wave, batch, errors, errors.length === 0);
      batch = [];
    };
    for await (const raw of lines) {
      lineNo++;
      if (lineNo > MAX_EXPECTATION_LINES) {
        errors.push(
          item(String(lineNo), 'too_many_expectation_lines', `At most ${MAX_EXPECTATION_LINES} lines.`),
        );
        break;
      }
      if (errors.length >= MAX_REPORTED_ERRORS || raw.trim() === '') continue;
      const read = readExpectation(raw, lineNo);
      if (read.ok) batch.push({ line: lineNo, value: read.value });
      else errors.push(...read.errors);
      if (batch.length >= BATCH_LINES) await flush();
    }
    await flush();
    if (errors.length > 0) {
      const lineOf = (e: ErrorItem) => Number.parseInt(e.attr, 10);
      throw validationFailed(
        'validation_error',
        errors.sort((x, y) => lineOf(x) - lineOf(y)).slice(0, MAX_REPORTED_ERRORS),
        'Some lines of the expectations are not valid; nothing was stored.',
      );
    }
    await tx.query(markUploaded, [supplier, wave, stored]);
    return { accounts: stored };
  });
}

/**
 * Inserts a batch (when `store`); each line repeating an account (in this batch, or, when stored,
 * in an earlier one) is an error.
 */
async function insertBatch(
  tx: Queryable,
  supplier: string,
  wave: string,
  batch: { line: number; value: Expectation }[],
  errors: ErrorItem[],
  store: boolean,
): Promise<number> {
  const firstLine = new Map<string, number>();
  const offered: Expectation[] = [];
  for (const { line, value } of batch) {
    const first = firstLine.get(value.external_account_number);
    if (first !== undefined) errors.push(repeated(line, first));
    else {
      firstLine.set(value.external_account_number, line);
      offered.push(value);
    }
  }
  if (!store) return 0;
  const { rows } = await tx.query<{ external_account_number: string }>(insertExpectations, [
    supplier,
    wave,
    JSON.stringify(offered),
  ]);
  if (rows.length < offered.length) {
    const inserted = new Set(rows.map((r) => r.external_account_number));
    for (const e of offered) {
      if (!inserted.has(e.external_account_number))
        errors.push(repeated(firstLine.get(e.external_account_number) ?? 0, null));
    }
  }
  return rows.length;
}
