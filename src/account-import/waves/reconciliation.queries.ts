/**
 * A wave's reconciliation (decision 0069): what Ferry stores for the wave's accounts, compared
 * with what the source system holds (the supplier's expectations), account by account, in SQL
 * over sets: nothing of the wave is loaded into memory, so a wave of a million accounts costs a
 * few joins and aggregates, not a million objects.
 *
 * Stored measures are read from the stored records each time, never from a copy: the ledger
 * balance is the account's balance after every imported transaction (follow-ups included), the
 * transactions are every stored transaction of the account (historical and follow-ups: counted,
 * summed as sent, and summed signed by BALANCE_ADDING_TYPES), the meter points those stored under
 * it; measures.ts defines each (decision 0082). The counts and totals come from one statement, so from one
 * snapshot: a follow-up committing meanwhile is in all of them or in none.
 */
import { BALANCE_ADDING_TYPES } from '../../accounts/payload/ledgers/ledger-balance.ts';
import { type Db, type Queryable, type Sql, sql } from '../../infra/db/db.ts';
import {
  ACCOUNT_MEASURES,
  type AccountMeasure,
  type DifferenceKind,
  MEASURES,
  type Measure,
  MONEY_MEASURES,
} from './measures.ts';

/** A stored transaction's amount signed as its type moves the balance (the types are ours, not input). */
const SIGNED_AMOUNT = `CASE WHEN t.type IN (${BALANCE_ADDING_TYPES.map((type) => `'${type}'`).join(', ')})
                       THEN t.amount ELSE -t.amount END`;

/** Per measure: whether the account's expected and stored values differ (false when either is unknown). */
const differsColumns = ACCOUNT_MEASURES.map((m) => `coalesce(e.${m} <> m.${m}, false) AS differs_${m}`).join(
  ',\n           ',
);
const measureColumns = ACCOUNT_MEASURES.map((m) => `e.${m} AS expected_${m}, m.${m} AS stored_${m}`).join(
  ',\n           ',
);

/**
 * Per external account number of wave ($1 supplier, $2 wave): the stored measures (null columns
 * when no account of the wave was imported under it) and the expected ones (null when the
 * expectations do not give it, `expected` false when they do not list the account), whether each
 * measure differs, and the kind of the comparison. Money is rounded to pence for output: every
 * stored and uploaded amount has at most two decimal places, so the rounding changes no value.
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
    SELECT t.account_id, count(*) AS n, sum(t.amount) AS total, sum(${SIGNED_AMOUNT}) AS net
      FROM transactions t JOIN stored s ON s.account_id = t.account_id
     GROUP BY t.account_id
  ), measured AS (
    SELECT s.external_account_number, s.balance AS ledger_balance,
           coalesce(mp.n, 0) AS meter_points, coalesce(t.n, 0) AS transactions,
           coalesce(t.total, 0) AS transactions_total, coalesce(t.net, 0) AS transactions_net
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
           ${measureColumns},
           ${differsColumns},
           CASE
             WHEN m.external_account_number IS NULL THEN 'missing'
             WHEN e.external_account_number IS NULL THEN 'unexpected'
             WHEN ${ACCOUNT_MEASURES.map((m) => `e.${m} <> m.${m}`).join(' OR ')} THEN 'differing'
             ELSE 'matched'
           END AS kind
      FROM expected e FULL JOIN measured m ON m.external_account_number = e.external_account_number
  )`;

/** The sums of a measure over the wave's accounts, each side, its difference and how many give it. */
function totalColumns(m: AccountMeasure): string {
  const sum = (side: string) => `coalesce(sum(${side}_${m}), 0)`;
  const money = (x: string) => (MONEY_MEASURES.has(m) ? `round(${x}, 2)::text` : x);
  return [
    `${money(sum('expected'))} AS expected_${m}`,
    `${money(sum('stored'))} AS stored_${m}`,
    `${money(`${sum('stored')} - ${sum('expected')}`)} AS difference_${m}`,
    `count(expected_${m}) AS given_${m}`,
    `count(*) FILTER (WHERE kind = 'differing' AND differs_${m}) AS differing_${m}`,
  ].join(',\n          ');
}

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
          ${ACCOUNT_MEASURES.map(totalColumns).join(',\n          ')}
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
          ${ACCOUNT_MEASURES.map((m) =>
            MONEY_MEASURES.has(m)
              ? `round(expected_${m}, 2)::text AS expected_${m}, round(stored_${m}, 2)::text AS stored_${m}`
              : `expected_${m}, stored_${m}`,
          ).join(',\n          ')}
     FROM compared
    WHERE kind <> 'matched' AND ($5::text IS NULL OR kind = $5::text)
      AND ($6::text IS NULL OR CASE $6::text ${ACCOUNT_MEASURES.map((m) => `WHEN '${m}' THEN differs_${m}`).join(' ')} ELSE false END)
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
  /** How many differing accounts differ in each measure (an account may differ in several). */
  differing_measures: Record<AccountMeasure, number>;
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
  const value = (measure: Measure, v: string) => (MONEY_MEASURES.has(measure) ? v : n(v));
  // A measure no expectation gives is not compared: its expected total is unknown, not 0.
  const total = (measure: AccountMeasure): MeasureTotal =>
    n(r[`given_${measure}`]) > 0
      ? {
          measure,
          expected: value(measure, r[`expected_${measure}`]),
          stored: value(measure, r[`stored_${measure}`]),
          difference: value(measure, r[`difference_${measure}`]),
        }
      : { measure, expected: null, stored: value(measure, r[`stored_${measure}`]), difference: null };
  const byMeasure = new Map(ACCOUNT_MEASURES.map((m) => [m as Measure, total(m)]));
  byMeasure.set('accounts', {
    measure: 'accounts',
    expected: accounts.expected,
    stored: accounts.imported,
    difference: accounts.imported - accounts.expected,
  });
  const totals = MEASURES.map((m) => byMeasure.get(m) as MeasureTotal);
  const differing_measures = Object.fromEntries(
    ACCOUNT_MEASURES.map((m) => [m, n(r[`differing_${m}`])]),
  ) as Record<AccountMeasure, number>;
  const clean = accounts.expected > 0 && accounts.differing + accounts.missing + accounts.unexpected === 0;
  return { accounts, differing_measures, totals, clean };
}

export interface AccountDifference {
  external_account_number: string;
  kind: DifferenceKind;
  /** Differing: the measures that differ; missing and unexpected: every measure known on either side. */
  measures: { measure: AccountMeasure; expected: number | string | null; stored: number | string | null }[];
}

function differenceOf(row: Row): AccountDifference {
  const value = (v: string | null | undefined, money: boolean) =>
    v === null || v === undefined ? null : money ? v : Number(v);
  const measures = ACCOUNT_MEASURES.map((measure) => {
    const money = MONEY_MEASURES.has(measure);
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

/** Which accounts that do not match to answer: of one kind, differing in one measure (null: any). */
export interface DifferenceFilter {
  kind?: DifferenceKind | null;
  /** Only the differing accounts whose value of this measure differs. */
  measure?: AccountMeasure | null;
}

/** Every account that does not match (or those `filter` keeps), in external account number order, a page at a time. */
export async function* waveDifferences(
  q: Queryable,
  supplier: string,
  wave: string,
  opts: DifferenceFilter & { pageSize?: number } = {},
): AsyncGenerator<AccountDifference> {
  const pageSize = opts.pageSize ?? 5_000;
  let after = '';
  for (;;) {
    const rows = await withoutJit<Row>(q, selectDifferencePage, [
      supplier,
      wave,
      after,
      pageSize,
      opts.kind ?? null,
      opts.measure ?? null,
    ]);
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
