import { sql } from '../../infra/db/db.ts';

export const selectExistingTransactionIds = sql(
  'selectExistingTransactionIds',
  'SELECT transaction_id FROM transactions WHERE account_id = $1 AND transaction_id = ANY($2::text[])',
);

/**
 * The new transactions and the balance they move, in one statement: one round trip less while
 * the account's row is locked (concurrent batches for one account wait on that lock).
 */
export const insertTransactionsMovingBalance = sql(
  'insertTransactionsMovingBalance',
  `WITH added AS (
     INSERT INTO transactions (account_id, transaction_id, statement, transaction_date, amount, type, reason, data)
     SELECT $1, r.transaction_id, 'current', r.transaction_date, r.amount, r.type, r.reason, r.data
       FROM jsonb_to_recordset($2::jsonb)
            AS r(transaction_id text, transaction_date date, amount numeric, type text, reason text, data jsonb)
   )
   UPDATE accounts SET balance = balance + $3::numeric WHERE id = $1`,
);

export const insertPinnedNote = sql(
  'insertPinnedNote',
  'INSERT INTO notes (account_id, body, created_at, is_pinned) VALUES ($1, $2, now(), true)',
);
