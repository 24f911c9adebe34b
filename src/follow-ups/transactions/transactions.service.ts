import { lockImportedAccount } from '../../accounts/imported-account.ts';
import { checkTransactionList } from '../../accounts/payload/ledgers/transactions.checks.ts';
import { currentReference } from '../../catalogue/reference-data.ts';
import { RawBodyError, type TransactionRefusalCode } from '../../errors/error-catalogue.ts';
import type { ErrorItem } from '../../errors/error-items.ts';
import { recordAccountEvent } from '../../events/event-feed.ts';
import { localDate } from '../../infra/clock.ts';
import { withTransientRetry } from '../../infra/db/db.ts';
import { CheckContext, cleanItems } from '../../validation/check-context.ts';
import { FOLLOW_UP_EVENTS } from '../../vocabulary/event-types.ts';
import { type FollowUpDeps, followUpBodyChecker, followUpValidationFailed } from '../follow-up.ts';
import { exactUnits, formatMoney, MONEY_PLACES } from './amounts.ts';
import { balanceSign, invalidAmount, transactionErrors } from './transaction-rules.ts';
import {
  insertPinnedNote,
  insertTransactionsMovingBalance,
  selectExistingTransactionIds,
} from './transactions.queries.ts';
import { type Transaction, TransactionsBodySchema, type TransactionsRequest } from './transactions.schema.ts';

export interface TransactionFlags {
  checkPreviouslyAdded: boolean;
  forceAddToCurrentStatement: boolean;
}

export type TransactionStatus = 'TRANSACTION_ADDED_TO_ACCOUNT' | 'TRANSACTION_ALREADY_EXISTS';

/** A transaction as added: a forced one carries a description of its move. */
type AddedTransaction = Transaction & { description?: string };

const money = (value: string) => formatMoney(exactUnits(value, MONEY_PLACES) ?? 0n);

/**
 * Echo of a transaction: as sent, with money as two-decimal strings, every other decimal as the
 * exact decimal string validated (the body checker turned JSON numbers into their text), and a
 * moved date as moved.
 */
function echo(t: AddedTransaction): Record<string, unknown> {
  const out: Record<string, unknown> = { ...t, amount: money(t.amount) };
  if (t.type === 'SUPPLY_CHARGE') {
    out.line_items = t.line_items.map((l) => ({ ...l, net_amount: money(l.net_amount) }));
  }
  if ((t.type === 'CHARGE' || t.type === 'SUPPLY_CHARGE') && t.tax_items) {
    out.tax_items = t.tax_items.map((x) => ({ ...x, amount: money(x.amount) }));
  }
  return out;
}

/** The interface's 4.2 failure body, naming the first failing transaction; nothing was added. */
class TransactionImportError extends RawBodyError {
  constructor(code: TransactionRefusalCode, detail: string, t: Transaction) {
    super(code, {
      status: 'TRANSACTION_IMPORT_ERROR',
      code,
      error_detail: detail,
      transaction_data: echo(t),
    });
  }
}

const checkBody = followUpBodyChecker<TransactionsRequest>(TransactionsBodySchema);

const TRANSACTION_ID = /^transactions\.\d+\.transaction_id$/;
const MONEY = /^transactions\.\d+\.(?:amount|line_items\.\d+\.net_amount|tax_items\.\d+\.amount)$/;
const DECIMAL_PROBLEMS = new Set(['invalid_decimal', 'max_whole_digits', 'max_decimal_places']);

/** The account payload's codes, where the follow-up has its own (docs/product.md, Follow-up imports). */
function followUpCode(error: ErrorItem): ErrorItem {
  if (error.code === 'required' && TRANSACTION_ID.test(error.attr)) {
    return { ...error, code: 'missing_transaction_id', detail: 'Every transaction needs a transaction_id.' };
  }
  if (DECIMAL_PROBLEMS.has(error.code) && MONEY.test(error.attr)) return invalidAmount(error.attr);
  return error;
}

/**
 * Structure (the account payload's transaction schema), the account payload's list checks
 * (unique ids, supply charges, overlapping periods) and the follow-up's own money rules, all
 * errors at once. Returns the body with every decimal as its exact text.
 */
function checkRequest(raw: unknown, today: string): TransactionsRequest {
  const { value: body, errors: structural, blockedPaths } = checkBody(raw);
  const ctx = new CheckContext(today, blockedPaths);
  const transactions = cleanItems(ctx, ctx.isSound('transactions') ? body.transactions : [], 'transactions');
  const errors = structural.map(followUpCode);
  for (const { value, path } of transactions) errors.push(...transactionErrors(value, path));
  checkTransactionList(ctx, transactions);
  errors.push(...ctx.errors);
  if (errors.length === 0) return body;
  const seen = new Set<string>();
  throw followUpValidationFailed(
    errors.filter((e) => {
      const key = `${e.attr}\u0000${e.code}`;
      return !seen.has(key) && seen.add(key);
    }),
  );
}

/**
 * Adds a batch of transactions to an imported account, all or nothing (interface 4.2;
 * docs/product.md, Open statement period): the account row is locked, each transaction is
 * checked in order against the open statement period and today, then every new one is inserted
 * and the balance moved in the same transaction. Forced moves get a description and one pinned
 * note lists them. A dry run answers the same and stores nothing.
 */
export async function importTransactions(deps: FollowUpDeps, raw: unknown, flags: TransactionFlags) {
  const today = localDate(new Date(), deps.config.serviceTimezone);
  const body = checkRequest(raw, today);
  // With no catalogue uploaded, a product code is checked for its form only (decision 0091).
  const products = currentReference().products;
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
        if (t.type === 'SUPPLY_CHARGE' && products !== null && !products.has(t.product_code)) {
          throw new TransactionImportError(
            'product_code_does_not_exist',
            `Transaction ${t.transaction_id} names product ${t.product_code}, which the catalogue does not hold.`,
            t,
          );
        }
        if (t.transaction_date > today) {
          throw new TransactionImportError(
            'transaction_in_future',
            `Transaction ${t.transaction_id} is dated after today (${today}).`,
            t,
          );
        }
        let added: AddedTransaction = t;
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
        const pence = exactUnits(t.amount, MONEY_PLACES) as bigint;
        balanceChange += balanceSign(t.type) * pence;
        // The columns, and everything else (every field the reference documents) in `data`.
        const { transaction_id, transaction_date, type, reason, amount, ...data } = echo(added);
        rows.push({ transaction_id, transaction_date, amount, type, reason: reason ?? null, data });
        results.push({ status: 'TRANSACTION_ADDED_TO_ACCOUNT', transaction_data: echo(added) });
      }
      if (body.dry_run === true) return { results };
      if (rows.length > 0) {
        await tx.query(insertTransactionsMovingBalance, [
          account.id,
          JSON.stringify(rows),
          formatMoney(balanceChange),
        ]);
        await recordAccountEvent(tx, {
          supplier: account.import_supplier,
          externalAccountNumber: account.external_account_number,
          type: FOLLOW_UP_EVENTS.TRANSACTIONS_ADDED,
          data: {
            transaction_ids: rows.map((r) => r.transaction_id),
            balance_change: formatMoney(balanceChange),
          },
        });
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
