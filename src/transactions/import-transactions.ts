import { lockImportedAccount } from '../accounts/imported-account.ts';
import { RawBodyError, validationFailed } from '../http/errors.ts';
import type { FollowUpDeps } from '../http/follow-up.ts';
import { localDate } from '../infra/clock.ts';
import { withTransientRetry } from '../infra/db/db.ts';
import { exactUnits, formatMoney, MONEY_PLACES } from './amounts.ts';
import { balanceSign, type TransactionInput, transactionErrors } from './transaction-rules.ts';
import {
  addToBalance,
  insertPinnedNote,
  insertTransactions,
  selectExistingTransactionIds,
} from './transactions.queries.ts';

export interface TransactionsRequest {
  import_supplier: string;
  external_account_number: string;
  transactions: TransactionInput[];
}

export interface TransactionFlags {
  checkPreviouslyAdded: boolean;
  forceAddToCurrentStatement: boolean;
}

export type TransactionStatus = 'TRANSACTION_ADDED_TO_ACCOUNT' | 'TRANSACTION_ALREADY_EXISTS';

/** Echo of a transaction: as sent, amounts as two-decimal strings, a moved date as moved. */
function echo(t: TransactionInput): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ...t,
    amount: formatMoney(exactUnits(t.amount, MONEY_PLACES) ?? 0n),
  };
  if (t.line_items) {
    out.line_items = t.line_items.map((l) => ({
      ...l,
      net_amount: formatMoney(exactUnits(l.net_amount, MONEY_PLACES) ?? 0n),
    }));
  }
  if (t.tax_items)
    out.tax_items = t.tax_items.map((x) => ({
      ...x,
      amount: formatMoney(exactUnits(x.amount, MONEY_PLACES) ?? 0n),
    }));
  return out;
}

/** The interface's 4.2 failure body, naming the first failing transaction; nothing was added. */
class TransactionImportError extends RawBodyError {
  constructor(code: string, detail: string, t: TransactionInput) {
    super(400, { status: 'TRANSACTION_IMPORT_ERROR', code, error_detail: detail, transaction_data: echo(t) });
  }
}

/** Structural rules beyond the schema: per-type fields, exact amounts, duplicates in the request. */
function checkRequest(body: TransactionsRequest): void {
  const errors = body.transactions.flatMap((t, i) => transactionErrors(t, `transactions.${i}`));
  const seen = new Set<string>();
  body.transactions.forEach((t, i) => {
    if (seen.has(t.transaction_id)) {
      errors.push({
        attr: `transactions.${i}.transaction_id`,
        code: 'duplicate_transaction_id',
        detail: 'This transaction_id appears earlier in the request.',
      });
    }
    seen.add(t.transaction_id);
  });
  if (errors.length > 0) throw validationFailed(errors);
}

/**
 * Adds a batch of transactions to an imported account, all or nothing (interface 4.2 and
 * PRODUCT.md §6): the account row is locked, each transaction is checked in order against the
 * open statement period and today, then every new one is inserted and the balance moved in the
 * same transaction. Forced moves get a description and one pinned note lists them.
 */
export async function importTransactions(
  deps: FollowUpDeps,
  body: TransactionsRequest,
  flags: TransactionFlags,
) {
  checkRequest(body);
  const today = localDate(new Date(), deps.config.serviceTimezone);
  return withTransientRetry(() =>
    deps.db.transaction(async (tx) => {
      const account = await lockImportedAccount(tx, body.import_supplier, body.external_account_number);
      const ids = body.transactions.map((t) => t.transaction_id);
      const existing = new Set(
        (
          await tx.query<{ transaction_id: string }>(selectExistingTransactionIds, [account.id, ids])
        ).rows.map((r) => r.transaction_id),
      );
      const results: { status: TransactionStatus; transaction_data: Record<string, unknown> }[] = [];
      const rows: Record<string, unknown>[] = [];
      const moved: string[] = [];
      let balanceChange = 0n;
      for (const t of body.transactions) {
        // Unchecked (check_previously_added=false), a repeated transaction is added again: the client chose it.
        if (flags.checkPreviouslyAdded && existing.has(t.transaction_id)) {
          results.push({ status: 'TRANSACTION_ALREADY_EXISTS', transaction_data: echo(t) });
          continue;
        }
        if (t.transaction_date > today) {
          throw new TransactionImportError(
            'transaction_in_future',
            `Transaction ${t.transaction_id} is dated after today (${today}).`,
            t,
          );
        }
        let added: TransactionInput = t;
        if (t.transaction_date < account.open_statement_start) {
          if (!flags.forceAddToCurrentStatement) {
            throw new TransactionImportError(
              'transaction_outside_open_statement_period',
              `Transaction ${t.transaction_id} (${t.transaction_date}) is before the open statement period, which starts ${account.open_statement_start}.`,
              t,
            );
          }
          if (account.open_statement_start > today) {
            // Moving it would date it after today, which no transaction may be.
            throw new TransactionImportError(
              'transaction_in_future',
              `Transaction ${t.transaction_id} would move to ${account.open_statement_start}, the open statement period's start, which is after today (${today}).`,
              t,
            );
          }
          added = {
            ...t,
            transaction_date: account.open_statement_start,
            description: `Originally dated ${t.transaction_date}; moved into the open statement period starting ${account.open_statement_start}.`,
          };
          moved.push(`${t.transaction_id} (${t.transaction_date})`);
        }
        const pence = exactUnits(t.amount, MONEY_PLACES)!;
        balanceChange += balanceSign(t.type) * pence;
        const { transaction_id, transaction_date, type, reason, amount: _amount, ...data } = echo(added);
        rows.push({
          transaction_id,
          transaction_date,
          amount: formatMoney(pence),
          type,
          reason: reason ?? null,
          data,
        });
        results.push({ status: 'TRANSACTION_ADDED_TO_ACCOUNT', transaction_data: echo(added) });
      }
      if (rows.length > 0) {
        await tx.query(insertTransactions, [account.id, JSON.stringify(rows)]);
        await tx.query(addToBalance, [account.id, formatMoney(balanceChange)]);
      }
      if (moved.length > 0) {
        await tx.query(insertPinnedNote, [
          account.id,
          `Imported transactions moved into the open statement period starting ${account.open_statement_start}: ${moved.join(', ')}.`,
        ]);
      }
      return { results };
    }),
  );
}
