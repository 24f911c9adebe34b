import { notFound } from '../errors/error-catalogue.ts';
import { type Queryable, sql } from '../infra/db/db.ts';

/** An account that exists (imported, not merely staged): what follow-up imports attach to. */
export interface ImportedAccount {
  id: string;
  number: string;
  import_supplier: string;
  external_account_number: string;
  /** First day of the open statement period, YYYY-MM-DD. */
  open_statement_start: string;
  balance: string;
}

const COLUMNS = `id, number, import_supplier, external_account_number, open_statement_start::text AS open_statement_start, balance::text AS balance`;

const selectAccount = sql(
  'selectImportedAccount',
  `SELECT ${COLUMNS} FROM accounts WHERE import_supplier = $1 AND external_account_number = $2`,
);
const lockAccount = sql(
  'lockImportedAccount',
  `SELECT ${COLUMNS} FROM accounts WHERE import_supplier = $1 AND external_account_number = $2 FOR UPDATE`,
);

const accountNotFound = () =>
  notFound(
    'No imported account has that import_supplier and external_account_number (a staged account is not imported yet).',
  );

async function accountRow(q: Queryable, statement: typeof selectAccount, supplier: string, external: string) {
  const row = (await q.query<ImportedAccount>(statement, [supplier, external])).rows[0];
  if (!row) throw accountNotFound();
  return row;
}

/** The account, or 404 `not_found` when it is only staged or the identifiers are wrong. */
export const findImportedAccount = (
  q: Queryable,
  supplier: string,
  external: string,
): Promise<ImportedAccount> => accountRow(q, selectAccount, supplier, external);

/**
 * The same, with the account row locked until the transaction ends: follow-up imports to one
 * account run one after another, so "already exists" checks and inserts cannot interleave
 * (50 identical concurrent requests have exactly one effect).
 */
export const lockImportedAccount = (
  tx: Queryable,
  supplier: string,
  external: string,
): Promise<ImportedAccount> => accountRow(tx, lockAccount, supplier, external);
