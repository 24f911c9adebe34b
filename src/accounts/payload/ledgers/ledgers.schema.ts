/**
 * `ledgers[]`. The GB reference document omits this property although its example and its
 * account checks use it; the shape is the Australian document's `OriginLedgerRecordWithTransactions`,
 * with the GB transaction types.
 */
import type { Static } from '@sinclair/typebox';
import * as S from '../../../validation/schema-builders.ts';
import { TransactionSchema } from './transactions.schema.ts';

export const LedgerRecordSchema = S.Obj({
  current_statement_transactions: S.Opt(
    S.List(TransactionSchema, {
      description: 'Unbilled transactions; with last_statement_balance they make up ledger_balance.',
    }),
  ),
  historical_statement_transactions: S.Opt(
    S.List(TransactionSchema, { description: 'Already billed; they sum to last_statement_balance.' }),
  ),
  identifiers: S.Opt(
    S.List(S.NonBlankText(), { description: 'MPxNs of the supply points this ledger covers.' }),
  ),
  last_statement_balance: S.Opt(
    S.Decimal(10, 10, { description: 'Pounds; credit positive, debit negative.' }),
  ),
  last_statement_closing_date: S.Opt(
    S.CalendarDate({ description: 'Historical transactions on or before it, current ones after it.' }),
  ),
  last_statement_issue_date: S.Opt(S.CalendarDate({ description: 'On or after the closing date.' })),
  ledger_balance: S.Opt(
    S.Decimal(10, 10, { description: 'Pounds; ledger balances sum to transfer_balance.' }),
  ),
  ledger_code: S.Opt(S.Text({ format: 'ledger-code', description: 'Ledger type code.' })),
  ledger_identifier: S.Opt(
    S.Text({ description: 'Key other parts of the payload use to refer to this ledger.' }),
  ),
});

export type LedgerRecord = Static<typeof LedgerRecordSchema>;
