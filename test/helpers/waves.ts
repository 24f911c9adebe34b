import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { type Db, type Queryable, sql } from '../../src/infra/db/db.ts';

// biome-ignore lint/suspicious/noExplicitAny: account fixtures as JSON
type Obj = Record<string, any>;

/** A decimal string as pence, exactly. */
export const pence = (amount: string) => {
  const [whole, frac = ''] = amount.split('.');
  const units = BigInt(whole.replace('-', '')) * 100n + BigInt(`${frac}00`.slice(0, 2));
  return whole.startsWith('-') ? -units : units;
};

/** Pence (signed) as a decimal string, "-12.30". */
export const money = (p: bigint) => {
  const abs = p < 0n ? -p : p;
  return `${p < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};

const selectStoredFigures = sql(
  '',
  `SELECT a.external_account_number,
          round(a.balance, 2)::text AS ledger_balance,
          (SELECT count(*)::int FROM meter_points m WHERE m.account_id = a.id) AS meter_points,
          (SELECT count(*)::int FROM transactions t WHERE t.account_id = a.id) AS transactions,
          (SELECT round(coalesce(sum(t.amount), 0), 2)::text FROM transactions t WHERE t.account_id = a.id) AS transactions_total,
          (SELECT round(coalesce(sum(CASE WHEN t.type IN ('PAYMENT', 'CREDIT') THEN t.amount ELSE -t.amount END), 0), 2)::text
             FROM transactions t WHERE t.account_id = a.id) AS transactions_net
     FROM accounts a WHERE a.import_supplier = $1`,
);

/**
 * What the stored records say of each account of `supplier`, by external account number: read
 * with plain SQL, not by the reconciliation under test.
 */
export async function storedFigures(db: Queryable, supplier: string): Promise<Map<string, Obj>> {
  const { rows } = await db.query<Obj>(selectStoredFigures, [supplier]);
  return new Map(rows.map((r) => [r.external_account_number, r]));
}

/** A follow-up PAYMENT of `amount`, dated today, on an imported account (201 expected of it). */
export function postPayment(
  app: FastifyInstance,
  headers: Record<string, string>,
  account: { supplier: string; external: string },
  transactionId: string,
  amount: string,
) {
  return app.inject({
    method: 'POST',
    url: '/v1/data-import/transactions/create/',
    headers,
    payload: {
      import_supplier: account.supplier,
      external_account_number: account.external,
      transactions: [
        {
          transaction_id: transactionId,
          transaction_date: new Date().toISOString().slice(0, 10),
          amount,
          type: 'PAYMENT',
          reason: 'ACCOUNT_CHARGE_PAYMENT',
        },
      ],
    },
  });
}

/** Schedules each account (V2 create) in wave `wave` (null: none); every answer must be 201. */
export async function scheduleInWave(
  app: FastifyInstance,
  headers: Record<string, string>,
  accounts: Obj[],
  wave: string | null,
  taskParams: Obj = {},
) {
  for (const payload of accounts) {
    const res = await app.inject({
      method: 'POST',
      url: '/v2/data-import/accounts/',
      headers,
      payload: { payload, task_params: { ...taskParams, ...(wave === null ? {} : { wave }) } },
    });
    assert.equal(res.statusCode, 201, res.body);
  }
}

/** A foreign key from `table`.`column` to `parent`, as the database's catalog has it. */
export interface ForeignKey {
  table: string;
  column: string;
  parent: string;
}

const selectForeignKeys = sql(
  '',
  `SELECT c.conrelid::regclass::text AS table, a.attname AS column, c.confrelid::regclass::text AS parent
     FROM pg_constraint c
     JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
    WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace
    ORDER BY 1, 2`,
);

/** Every single-column foreign key of the schema (the catalog, not the migrations' text). */
export async function foreignKeys(q: Queryable): Promise<ForeignKey[]> {
  return (await q.query<ForeignKey>(selectForeignKeys)).rows.map((k) => ({
    ...k,
    table: k.table.replace(/^.*\./, ''),
    parent: k.parent.replace(/^.*\./, ''),
  }));
}

/**
 * The tables whose rows hang off `accounts`, directly or through others, by the catalog's
 * foreign keys: the walk does not go on through `stopAt` (tables that keep their rows).
 */
export function tablesHangingOff(keys: ForeignKey[], root: string, stopAt: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift() as string;
    for (const k of keys) {
      if (k.parent !== parent || found.has(k.table) || k.table === root) continue;
      found.add(k.table);
      if (!stopAt.has(k.table)) queue.push(k.table);
    }
  }
  return found;
}

/** Rows in each of `tables`, whoever they belong to. */
export async function rowCounts(q: Queryable, tables: Iterable<string>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of [...tables].sort()) {
    if (!/^[a-z_]+$/.test(table)) throw new Error(`not a table name: ${table}`);
    out[table] = (await q.query<{ n: number }>(sql('', `SELECT count(*)::int AS n FROM ${table}`))).rows[0].n;
  }
  return out;
}

/**
 * Expectations equal to what Ferry stores for the wave's accounts (a clean reconciliation),
 * written straight to the tables; `skew` adds to one account's expected ledger balance.
 */
export async function expectWhatIsStored(
  db: Db,
  supplier: string,
  wave: string,
  skew: { external: string; amount: string } | null = null,
) {
  await db.query(
    sql('', 'INSERT INTO waves (import_supplier, wave) VALUES ($1, $2) ON CONFLICT DO NOTHING'),
    [supplier, wave],
  );
  await db.query(
    sql(
      '',
      `INSERT INTO wave_expectations
              (import_supplier, wave, external_account_number, ledger_balance, meter_points, transactions, transactions_total)
       SELECT $1, $2, p.external_account_number,
              a.balance + CASE WHEN p.external_account_number = $3 THEN $4::numeric ELSE 0 END,
              (SELECT count(*) FROM meter_points m WHERE m.account_id = a.id),
              (SELECT count(*) FROM transactions t WHERE t.account_id = a.id),
              (SELECT coalesce(sum(amount), 0) FROM transactions t WHERE t.account_id = a.id)
         FROM import_processes p JOIN accounts a ON a.id = p.account_id
        WHERE p.import_supplier = $1 AND p.wave = $2`,
    ),
    [supplier, wave, skew?.external ?? null, skew?.amount ?? '0'],
  );
  await db.query(
    sql(
      '',
      `UPDATE waves SET expectations_uploaded_at = now(),
              expected_accounts = (SELECT count(*) FROM wave_expectations WHERE import_supplier = $1 AND wave = $2)
        WHERE import_supplier = $1 AND wave = $2`,
    ),
    [supplier, wave],
  );
}
