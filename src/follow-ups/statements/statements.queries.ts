import { type Queryable, sql } from '../../infra/db/db.ts';
import type { StatementInput } from './statements.schema.ts';

// A statement_id already on the account is left as it is (idempotent repeats); so are repeats
// within one request (the first wins).
const insertStatements = sql(
  'insertStatements',
  `INSERT INTO statements (account_id, statement_id, bill_period_from_date, bill_period_to_date, issued_date, statement_path, data)
   SELECT $1, s.statement_id, s.bill_period_from_date, s.bill_period_to_date, s.issued_date, s.statement_path,
          jsonb_strip_nulls(jsonb_build_object('number', s.number, 'gross_amount', s.gross_amount))
     FROM jsonb_to_recordset($2::jsonb)
       AS s(statement_id text, bill_period_from_date date, bill_period_to_date date, issued_date date,
            statement_path text, number text, gross_amount bigint)
   ON CONFLICT (account_id, statement_id) DO NOTHING`,
);

/** Inserts the statements not yet on the account; returns how many were new. */
export async function insertStatementRows(
  q: Queryable,
  accountId: string,
  statements: StatementInput[],
): Promise<number> {
  if (statements.length === 0) return 0;
  const res = await q.query(insertStatements, [accountId, JSON.stringify(statements)]);
  return res.rowCount;
}
