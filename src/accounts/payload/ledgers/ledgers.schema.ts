/**
 * `ledgers[]`. The GB reference document omits this property although its example and its
 * account checks use it; the shape is the Australian document's `OriginLedgerRecordWithTransactions`,
 * with the GB transaction types.
 */
import type { Static } from '@sinclair/typebox';
import { CalendarDate, Decimal, List, NonBlankText, Obj, Opt, Text } from '../validation/schema-builders.ts';
import { TransactionSchema } from './transactions.schema.ts';

export const LedgerRecordSchema = Obj({
  current_statement_transactions: Opt(
    List(TransactionSchema, {
      description: 'Unbilled transactions; with last_statement_balance they make up ledger_balance.',
    }),
  ),
  historical_statement_transactions: Opt(
    List(TransactionSchema, { description: 'Already billed; they sum to last_statement_balance.' }),
  ),
  identifiers: Opt(List(NonBlankText(), { description: 'MPxNs of the supply points this ledger covers.' })),
  last_statement_balance: Opt(Decimal(10, 10, { description: 'Pounds; credit positive, debit negative.' })),
  last_statement_closing_date: Opt(
    CalendarDate({ description: 'Historical transactions on or before it, current ones after it.' }),
  ),
  last_statement_issue_date: Opt(CalendarDate({ description: 'On or after the closing date.' })),
  ledger_balance: Opt(Decimal(10, 10, { description: 'Pounds; ledger balances sum to transfer_balance.' })),
  ledger_code: Opt(Text({ format: 'ledger-code', description: 'Ledger type code.' })),
  ledger_identifier: Opt(
    Text({ description: 'Key other parts of the payload use to refer to this ledger.' }),
  ),
});

export type LedgerRecord = Static<typeof LedgerRecordSchema>;
