/**
 * Statement-history rules of each transaction group (dates and balances that must reconcile),
 * plus the ledgers' own codes, identifiers and balances; the payment preferences that point at a
 * ledger are checked with them (payments/payments.checks.ts).
 */

import { type CheckContext, cleanItems, count, isFilled } from '../../../validation/check-context.ts';
import { addDays } from '../../../vocabulary/calendar-date.ts';
import { formatScaled, scaledOrZero } from '../../../vocabulary/decimal.ts';
import { type AccountFacts, earliestLastBilledToDate } from '../account-facts.ts';
import { checkPaymentPreferences } from '../payments/payments.checks.ts';
import { findRepeatedIndexes } from '../rules/duplicates.ts';
import { countsTowardsBalance, reconcileBalance } from './ledger-balance.ts';
import { fieldOf, type TransactionGroup } from './transaction-groups.ts';
import type { Transaction } from './transactions.schema.ts';

export function checkStatementHistory(ctx: CheckContext, facts: AccountFacts, group: TransactionGroup): void {
  const earliestBilledTo = earliestLastBilledToDate(facts);
  // Without a closing date the reference infers it from the earliest last billed to date.
  const closing = group.closingDate ?? earliestBilledTo;
  if (group.historical.length > 0 && closing === undefined) {
    ctx.report(
      fieldOf(group, 'last_statement_closing_date'),
      'historical_statement_transactions_without_last_statement_closing_date_or_last_billed_to_date',
      'Historical statement transactions need last_statement_closing_date or a last billed to date.',
    );
  }
  if (group.closingDate !== undefined && group.closingDate > ctx.today) {
    ctx.report(
      fieldOf(group, 'last_statement_closing_date'),
      'historical_statement_period_end_in_future',
      'The last statement cannot close in the future.',
    );
  }
  if (group.issueDate !== undefined && closing !== undefined && group.issueDate < closing) {
    ctx.report(
      fieldOf(group, 'last_statement_issue_date'),
      'last_statement_issued_before_closing_date',
      `The last statement cannot be issued before it closed (${closing}).`,
    );
  }
  for (const { value, path } of group.historical) {
    if (closing !== undefined && value.transaction_date > closing) {
      ctx.report(
        `${path}.transaction_date`,
        'historical_statement_transaction_after_last_statement_closing_date',
        `Historical statement transactions are on or before the last statement closing date (${closing}).`,
      );
    }
  }
  const firstCurrent = group.current.reduce<string | undefined>(
    (min, { value }) => (min === undefined || value.transaction_date < min ? value.transaction_date : min),
    undefined,
  );
  for (const { value, path } of group.historical) {
    if (firstCurrent !== undefined && value.transaction_date > firstCurrent) {
      ctx.report(
        `${path}.transaction_date`,
        'historical_statement_transaction_after_current_statement_transaction',
        'Historical statement transactions come before every current statement transaction.',
      );
    }
  }
  const billedTo = facts.lastBilledToDate ?? earliestBilledTo;
  const opening = group.closingDate !== undefined ? addDays(group.closingDate, 1) : undefined;
  for (const { value, path } of group.current) {
    if (!countsTowardsBalance(value)) continue; // prepay vends follow the meter, not the statement
    if (opening !== undefined && value.transaction_date < opening) {
      ctx.report(
        `${path}.transaction_date`,
        'current_statement_transaction_before_current_statement_opening_date',
        `Current statement transactions start on ${opening}, the day after the last statement closed.`,
      );
    } else if (billedTo !== undefined && value.transaction_date < billedTo) {
      ctx.report(
        `${path}.transaction_date`,
        'current_statement_transaction_before_last_billed_to_date',
        `Current statement transactions are not before the last billed to date (${billedTo}).`,
      );
    }
  }
  if (group.isClean) checkGroupBalances(ctx, facts, group);
}

function checkGroupBalances(ctx: CheckContext, facts: AccountFacts, group: TransactionGroup): void {
  const lastStatement = scaledOrZero(group.lastStatementBalance);
  if (lastStatement === null) return;
  if (group.historical.length > 0) {
    const history = reconcileBalance(
      0n,
      group.historical.map(({ value }) => value),
      lastStatement,
    );
    if (history !== null && !history.reconciles) {
      ctx.report(
        fieldOf(group, 'last_statement_balance'),
        'historical_statement_transactions_balance_mismatch',
        `The historical statement transactions sum to ${formatScaled(history.expected)}, not the last statement balance.`,
      );
    }
  }
  const isLedger = group.path !== '';
  // With ledgers, the account-level balance is the sum of the ledgers (checkLedgers), not a statement history.
  if (!isLedger && count(facts.payload.ledgers) > 0) return;
  const closing = scaledOrZero(isLedger ? group.ledgerBalance : facts.payload.transfer_balance);
  if (closing === null || (!isLedger && !ctx.isClean('transfer_balance'))) return;
  const transactions = group.current.map(({ value }) => value);
  const current = reconcileBalance(lastStatement, transactions, closing);
  if (current !== null && !current.reconciles) {
    const [where, code] = isLedger
      ? ([fieldOf(group, 'ledger_balance'), 'balance_mismatch_on_ledger_balance'] as const)
      : (['transfer_balance', 'balance_mismatch_on_transfer_balance'] as const);
    ctx.report(where, code, balanceMismatchDetail(group, { closing, lastStatement, current, transactions }));
  }
}

/**
 * What a balance mismatch says: the balance given, the one its statement history makes, and what
 * that was made of, naming what is absent (an account without ledgers and without a last
 * statement balance or current transactions makes 0.00 from nothing, and should say so).
 */
function balanceMismatchDetail(
  group: TransactionGroup,
  f: { closing: bigint; lastStatement: bigint; current: { expected: bigint }; transactions: Transaction[] },
): string {
  const counted = f.transactions.filter(countsTowardsBalance);
  const opening =
    group.lastStatementBalance === undefined
      ? 'no last statement balance (0.00)'
      : `the last statement balance ${formatScaled(f.lastStatement)}`;
  const moved =
    counted.length === 0
      ? 'no current statement transactions'
      : `${counted.length} current statement transaction(s) netting ${formatScaled(f.current.expected - f.lastStatement)}`;
  const what = group.path === '' ? 'transfer balance' : 'ledger balance';
  const how = group.path === '' ? 'an account without ledgers takes' : 'the ledger takes';
  return `The ${what} is ${formatScaled(f.closing)}, not ${formatScaled(f.current.expected)}: ${how} ${opening} plus ${moved}.`;
}

/**
 * The first bill starts after the last billed to date, the last statement's closing date, or
 * the first agreement; with none of them the account cannot be billed.
 */
export function checkBillingStartKnown(
  ctx: CheckContext,
  facts: AccountFacts,
  groups: readonly TransactionGroup[],
): void {
  if (!facts.supplyAddressesClean || !ctx.isSound('last_billed_to_date')) return;
  const known =
    earliestLastBilledToDate(facts) !== undefined ||
    groups.some((group) => group.closingDate !== undefined || group.issueDate !== undefined) ||
    facts.meterPoints.some(({ point }) => (point.agreements?.length ?? 0) > 0);
  if (!known) {
    ctx.report(
      'last_billed_to_date',
      'cannot_determine_responsible_for_billing_from_date',
      'Give a last billed to date, a last statement closing date or agreements, so billing can start.',
    );
  }
}

export function checkLedgers(ctx: CheckContext, facts: AccountFacts): void {
  const { payload } = facts;
  const ledgers = cleanItems(ctx, payload.ledgers, 'ledgers');
  for (const index of findRepeatedIndexes(ledgers, ({ value }) => value.ledger_code || undefined)) {
    ctx.report(
      `${ledgers[index].path}.ledger_code`,
      'duplicate_ledger_entries_found',
      'Each ledger code at most once.',
    );
  }
  for (const index of findRepeatedIndexes(ledgers, ({ value }) => value.ledger_identifier || undefined)) {
    ctx.report(
      `${ledgers[index].path}.ledger_identifier`,
      'duplicate_identifiers_entries_found',
      'Each ledger_identifier at most once.',
    );
  }
  const supplyPoints = new Set(facts.meterPoints.map(({ point }) => point.identifier));
  const identifiers = ledgers.flatMap(({ value, path }) =>
    (value.identifiers ?? []).map((id, j) => ({ id, path: `${path}.identifiers.${j}` })),
  );
  for (const index of findRepeatedIndexes(identifiers, (entry) => entry.id)) {
    ctx.report(
      identifiers[index].path,
      'duplicate_identifiers_entries_found',
      'A supply point belongs to one ledger.',
    );
  }
  if (facts.supplyAddressesClean) {
    for (const { id, path } of identifiers) {
      if (!supplyPoints.has(id))
        ctx.report(
          path,
          'unknown_ledger_identifiers',
          'This is not the MPxN of one of the payload’s meter points.',
        );
    }
  }
  if (ledgers.length > 0 && ctx.isClean('ledgers', 'transfer_balance')) {
    let total: bigint | null = 0n;
    for (const { value } of ledgers) {
      const balance = scaledOrZero(value.ledger_balance);
      total = total === null || balance === null ? null : total + balance;
    }
    const transfer = scaledOrZero(payload.transfer_balance);
    if (total !== null && transfer !== null && total !== transfer) {
      ctx.report(
        'transfer_balance',
        'ledger_balances_not_equal_to_transfer_balance',
        `The ledger balances sum to ${formatScaled(total)}.`,
      );
    }
  }
  checkPaymentPreferences(
    ctx,
    facts,
    new Set(ledgers.map(({ value }) => value.ledger_identifier).filter(isFilled)),
  );
}
