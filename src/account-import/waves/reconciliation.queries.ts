/**
 * A wave's reconciliation (decision 0069): what Ferry stores for the wave's accounts, compared
 * with what the source system holds (the supplier's expectations), account by account, in SQL
 * over sets: nothing of the wave is loaded into memory, so a wave of a million accounts costs a
 * few joins and aggregates, not a million objects.
 *
 * Stored measures are read from the stored records each time, never from a copy: the ledger
 * balance is the account's balance after every imported transaction (follow-ups included), the
 * transactions are every stored transaction of the account (historical and follow-ups), the
 * meter points those stored under it. The counts and totals come from one statement, so from one
 * snapshot: a follow-up committing meanwhile is in all of them or in none.
 */
import { type Db, type Queryable, type Sql, sql } from '../../infra/db/db.ts';

export const MEASURES = [
  'accounts',
  'meter_points',
  'ledger_balance',
  'transactions',
  'transactions_total',
] as const;
export type Measure = (typeof MEASURES)[number];
/** The measures compared account by account (`accounts` is only a total). */
export const ACCOUNT_MEASURES = [
  'ledger_balance',
  'meter_points',
  'transactions',
  'transactions_total',
] as const;
export type AccountMeasure = (typeof ACCOUNT_MEASURES)[number];

/**
 * Per external account number of wave ($1 supplier, $2 wave): the stored measures (null columns
 * when no account of the wave was imported under it) and the expected ones (null when the
 * expectations do not give it, `expected` false when they do not list the account), and the kind
 * of the comparison. Money is rounded to pence for output: every stored and uploaded amount has at
 * most two decimal places, so the rounding changes no value.
 */
const compared = (after = '') => `
  stored AS (
    SELECT p.external_account_number, a.id AS account_id, a.balance
      FROM import_processes p JOIN accounts a ON a.id = p.account_id
     WHERE p.import_supplier = $1 AND p.wave = $2 ${after && `AND p.external_account_number > ${after}`}
  ), stored_meter_points AS (
    SELECT m.account_id, count(*) AS n FROM meter_points m JOIN stored s ON s.account_id = m.account_id
     GROUP BY m.account_id
  ), stored_transactions AS (
    SELECT t.account_id, count(*) AS n, sum(t.amount) AS total
      FROM transactions t JOIN stored s ON s.account_id = t.account_id
     GROUP BY t.account_id
  ), measured AS (
    SELECT s.external_account_number, s.balance AS ledger_balance,
           coalesce(mp.n, 0) AS meter_points, coalesce(t.n, 0) AS transactions,
           coalesce(t.total, 0) AS transactions_total
      FROM stored s
      LEFT JOIN stored_meter_points mp ON mp.account_id = s.account_id
      LEFT JOIN stored_transactions t ON t.account_id = s.account_id
  ), expected AS (
    SELECT * FROM wave_expectations WHERE import_supplier = $1 AND wave = $2
       ${after && `AND external_account_number > ${after}`}
  ), compared AS (
    SELECT coalesce(e.external_account_number, m.external_account_number) AS external_account_number,
           e.external_account_number IS NOT NULL AS is_expected,
           m.external_account_number IS NOT NULL AS is_stored,
           e.ledger_balance AS expected_ledger_balance, m.ledger_balance AS stored_ledger_balance,
           e.meter_points AS expected_meter_points, m.meter_points AS stored_meter_points,
           e.transactions AS expected_transactions, m.transactions AS stored_transactions,
           e.transactions_total AS expected_transactions_total, m.transactions_total AS stored_transactions_total,
           CASE
             WHEN m.external_account_number IS NULL THEN 'missing'
             WHEN e.external_account_number IS NULL THEN 'unexpected'
             WHEN e.ledger_balance <> m.ledger_balance OR e.meter_points <> m.meter_points
               OR e.transactions <> m.transactions OR e.transactions_total <> m.transactions_total
               THEN 'differing'
             ELSE 'matched'
           END AS kind
      FROM expected e FULL JOIN measured m ON m.external_account_number = e.external_account_number
  )`;

/** Exported for the benchmark's EXPLAIN (bench/reconcile.ts). */
export const selectReconciliation = sql(
  'selectWaveReconciliation',
  `WITH ${compared()}
   SELECT count(*) FILTER (WHERE is_expected) AS expected,
          count(*) FILTER (WHERE is_stored) AS imported,
          count(*) FILTER (WHERE kind = 'matched') AS matched,
          count(*) FILTER (WHERE kind = 'differing') AS differing,
          count(*) FILTER (WHERE kind = 'missing') AS missing,
          count(*) FILTER (WHERE kind = 'unexpected') AS unexpected,
          coalesce(sum(expected_meter_points), 0) AS expected_meter_points,
          coalesce(sum(stored_meter_points), 0) AS stored_meter_points,
          round(coalesce(sum(expected_ledger_balance), 0), 2)::text AS expected_ledger_balance,
          round(coalesce(sum(stored_ledger_balance), 0), 2)::text AS stored_ledger_balance,
          coalesce(sum(expected_transactions), 0) AS expected_transactions,
          coalesce(sum(stored_transactions), 0) AS stored_transactions,
          round(coalesce(sum(expected_transactions_total), 0), 2)::text AS expected_transactions_total,
          round(coalesce(sum(stored_transactions_total), 0), 2)::text AS stored_transactions_total,
          round(coalesce(sum(stored_ledger_balance), 0) - coalesce(sum(expected_ledger_balance), 0), 2)::text
            AS difference_ledger_balance,
          round(coalesce(sum(stored_transactions_total), 0) - coalesce(sum(expected_transactions_total), 0), 2)::text
            AS difference_transactions_total,
          count(expected_meter_points) AS given_meter_points, count(expected_ledger_balance) AS given_ledger_balance,
          count(expected_transactions) AS given_transactions,
          count(expected_transactions_total) AS given_transactions_total
     FROM compared`,
);

/**
 * One page of the accounts that do not match, after external account number $3, in its order:
 * each page compares only the accounts after the previous one.
 */
const selectDifferencePage = sql(
  'selectWaveDifferencePage',
  `WITH ${compared('$3')}
   SELECT external_account_number, kind,
          round(expected_ledger_balance, 2)::text AS expected_ledger_balance,
          round(stored_ledger_balance, 2)::text AS stored_ledger_balance,
          expected_meter_points, stored_meter_points, expected_transactions, stored_transactions,
          round(expected_transactions_total, 2)::text AS expected_transactions_total,
          round(stored_transactions_total, 2)::text AS stored_transactions_total
     FROM compared
    WHERE kind <> 'matched'
    ORDER BY external_account_number
    LIMIT $4`,
);

const selectWaveRecord = sql(
  'selectWave',
  `SELECT expectations_uploaded_at, expected_accounts, approved_at, approved_by, approval,
          rolled_back_at, rolled_back_by
     FROM waves WHERE import_supplier = $1 AND wave = $2`,
);

export interface MeasureTotal {
  measure: Measure;
  /** Counts as numbers, money as decimal strings (pence); null when no expectation gives the measure. */
  expected: number | string | null;
  stored: number | string;
  difference: number | string | null;
}

export interface ReconciliationCounts {
  expected: number;
  imported: number;
  matched: number;
  differing: number;
  missing: number;
  unexpected: number;
}

export interface Reconciliation {
  accounts: ReconciliationCounts;
  totals: MeasureTotal[];
  /** True when nothing is missing, unexpected or differing (and expectations were uploaded). */
  clean: boolean;
}

type Row = Record<string, string>;

const noJit = sql('reconciliationWithoutJit', 'SET LOCAL jit = off');

/**
 * Runs a reconciliation statement with PostgreSQL's JIT compiler off. The planner cannot know how
 * many rows the per-account aggregates return, guesses hundreds of millions, and JIT-compiles the
 * plan: a second of compiling for a statement that then runs in a third of one (20,000 accounts).
 * In a transaction of its own, or the caller's.
 */
async function withoutJit<R>(q: Queryable | Db, statement: Sql, params: unknown[]): Promise<R[]> {
  const run = async (tx: Queryable) => {
    await tx.query(noJit);
    return (await tx.query<R>(statement, params)).rows;
  };
  return 'transaction' in q ? q.transaction(run) : run(q);
}

/** The wave's counts and totals, from one snapshot. */
export async function reconcileWave(q: Queryable, supplier: string, wave: string): Promise<Reconciliation> {
  const [r] = await withoutJit<Row>(q, selectReconciliation, [supplier, wave]);
  const n = (v: string) => Number(v);
  const accounts = {
    expected: n(r.expected),
    imported: n(r.imported),
    matched: n(r.matched),
    differing: n(r.differing),
    missing: n(r.missing),
    unexpected: n(r.unexpected),
  };
  const count = (measure: Measure, expected: number, stored: number): MeasureTotal => ({
    measure,
    expected,
    stored,
    difference: stored - expected,
  });
  const money = (measure: Measure): MeasureTotal => ({
    measure,
    expected: r[`expected_${measure}`],
    stored: r[`stored_${measure}`],
    difference: r[`difference_${measure}`],
  });
  // A measure no expectation gives is not compared: its expected total is unknown, not 0.
  const given = (total: MeasureTotal): MeasureTotal =>
    total.measure === 'accounts' || n(r[`given_${total.measure}`]) > 0
      ? total
      : { ...total, expected: null, difference: null };
  const totals = [
    count('accounts', accounts.expected, accounts.imported),
    count('meter_points', n(r.expected_meter_points), n(r.stored_meter_points)),
    money('ledger_balance'),
    count('transactions', n(r.expected_transactions), n(r.stored_transactions)),
    money('transactions_total'),
  ].map(given);
  const clean = accounts.expected > 0 && accounts.differing + accounts.missing + accounts.unexpected === 0;
  return { accounts, totals, clean };
}

export interface AccountDifference {
  external_account_number: string;
  kind: 'missing' | 'unexpected' | 'differing';
  /** Differing: the measures that differ; missing and unexpected: every measure known on either side. */
  measures: { measure: AccountMeasure; expected: number | string | null; stored: number | string | null }[];
}

function differenceOf(row: Row): AccountDifference {
  const value = (v: string | null | undefined, money: boolean) =>
    v === null || v === undefined ? null : money ? v : Number(v);
  const measures = ACCOUNT_MEASURES.map((measure) => {
    const money = measure === 'ledger_balance' || measure === 'transactions_total';
    return {
      measure,
      expected: value(row[`expected_${measure}`], money),
      stored: value(row[`stored_${measure}`], money),
    };
  }).filter((m) =>
    row.kind === 'differing' ? m.expected !== null && m.stored !== null && m.expected !== m.stored : true,
  );
  return {
    external_account_number: row.external_account_number,
    kind: row.kind as AccountDifference['kind'],
    measures:
      row.kind === 'differing' ? measures : measures.filter((m) => m.expected !== null || m.stored !== null),
  };
}

/** Every account that does not match, in external account number order, a page at a time. */
export async function* waveDifferences(
  q: Queryable,
  supplier: string,
  wave: string,
  pageSize = 5_000,
): AsyncGenerator<AccountDifference> {
  let after = '';
  for (;;) {
    const rows = await withoutJit<Row>(q, selectDifferencePage, [supplier, wave, after, pageSize]);
    for (const row of rows) yield differenceOf(row);
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1].external_account_number;
  }
}

export interface WaveRecord {
  expectations_uploaded_at: Date | null;
  expected_accounts: string | null;
  approved_at: Date | null;
  approved_by: string | null;
  approval: unknown;
  rolled_back_at: Date | null;
  rolled_back_by: string | null;
}

/** What happened to the wave as a whole; null when nothing has (no expectations, approval, rollback). */
export async function waveRecord(q: Queryable, supplier: string, wave: string): Promise<WaveRecord | null> {
  const { rows } = await q.query<WaveRecord>(selectWaveRecord, [supplier, wave]);
  return rows[0] ?? null;
}
