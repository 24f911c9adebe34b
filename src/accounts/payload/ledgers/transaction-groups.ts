/**
 * The payload's transactions come in groups that each make up one statement history: the
 * account-level (deprecated) lists, and each of `ledgers[]`. A group knows its own closing date,
 * issue date and balances, and where its fields live, so ledger and account rules share code.
 */

import { type CheckContext, cleanItems, type Located } from '../../../validation/check-context.ts';
import type { AccountPayload } from '../account-payload.schema.ts';
import type { Transaction } from './transactions.schema.ts';

export interface TransactionGroup {
  /** `''` for the account-level lists, `ledgers.<i>` for a ledger. */
  path: string;
  current: Array<Located<Transaction>>;
  historical: Array<Located<Transaction>>;
  closingDate?: string;
  issueDate?: string;
  lastStatementBalance?: string;
  /** Only ledgers have one; the account-level group reconciles to `transfer_balance`. */
  ledgerBalance?: string;
  /** Whether every transaction and balance of the group passed structural validation. */
  isClean: boolean;
}

/** The path of a field of the group: `last_statement_balance` or `ledgers.0.last_statement_balance`. */
export function fieldOf(group: TransactionGroup, field: string): string {
  return group.path === '' ? field : `${group.path}.${field}`;
}

export function transactionGroups(ctx: CheckContext, payload: AccountPayload): TransactionGroup[] {
  const accountFields = [
    'current_statement_transactions',
    'historical_statement_transactions',
    'last_statement_balance',
    'last_statement_closing_date',
    'last_statement_issue_date',
  ];
  const sound = <T>(field: string, value: T): T | undefined => (ctx.isSound(field) ? value : undefined);
  const groups: TransactionGroup[] = [
    {
      path: '',
      current: cleanItems(ctx, payload.current_statement_transactions, 'current_statement_transactions'),
      historical: cleanItems(
        ctx,
        payload.historical_statement_transactions,
        'historical_statement_transactions',
      ),
      closingDate: sound('last_statement_closing_date', payload.last_statement_closing_date),
      issueDate: sound('last_statement_issue_date', payload.last_statement_issue_date),
      lastStatementBalance: sound('last_statement_balance', payload.last_statement_balance),
      isClean: ctx.isClean(...accountFields),
    },
  ];
  for (const { value: ledger, path } of cleanItems(ctx, payload.ledgers, 'ledgers')) {
    groups.push({
      path,
      current: cleanItems(
        ctx,
        ledger.current_statement_transactions,
        `${path}.current_statement_transactions`,
      ),
      historical: cleanItems(
        ctx,
        ledger.historical_statement_transactions,
        `${path}.historical_statement_transactions`,
      ),
      closingDate: ledger.last_statement_closing_date,
      issueDate: ledger.last_statement_issue_date,
      lastStatementBalance: ledger.last_statement_balance,
      ledgerBalance: ledger.ledger_balance,
      isClean: true,
    });
  }
  return groups;
}

export function allTransactions(groups: readonly TransactionGroup[]): Array<Located<Transaction>> {
  return groups.flatMap((group) => [...group.historical, ...group.current]);
}
