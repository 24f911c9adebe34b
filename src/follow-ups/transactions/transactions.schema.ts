import { type Static, Type } from '@sinclair/typebox';
import { type Transaction, TransactionSchema } from '../../accounts/payload/ledgers/transactions.schema.ts';
import { followUpBody } from '../follow-up.ts';

export type { Transaction };
export type TransactionType = Transaction['type'];

/**
 * The transactions request: each transaction is the account payload's own (the reference says
 * its transactions have the same fields as the account payload's), so the two cannot drift.
 */
export const TransactionsBodySchema = followUpBody(
  'transactions',
  TransactionSchema,
  'At most 1,000 transactions, each as in the account payload. Amounts: at most 2 decimal places.',
  {
    dry_run: Type.Optional(
      Type.Boolean({
        description: 'true: checked and answered exactly as if added, but nothing is stored.',
      }),
    ),
  },
);

export type TransactionsRequest = Static<typeof TransactionsBodySchema>;
