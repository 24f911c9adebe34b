/**
 * The follow-up transactions' own rules, beyond the account payload's schema and list checks
 * (which they share, see transactions.service.ts): money to the penny, and which types may be
 * negative.
 */
import { BALANCE_ADDING_TYPES } from '../../accounts/payload/ledgers/ledger-balance.ts';
import { type ErrorItem, item } from '../../errors/error-items.ts';
import { exactUnits, MONEY_PLACES } from './amounts.ts';
import type { Transaction, TransactionType } from './transactions.schema.ts';

/** The reference: "Payments/repayments positive; charges/credits may be negative". */
const NEVER_NEGATIVE: ReadonlySet<TransactionType> = new Set(['PAYMENT', 'REPAYMENT']);

/** Attrs of the money fields of transaction `attr` (amount, line net amounts, tax amounts), with their values. */
export function moneyFields(t: Transaction, attr: string): [string, string][] {
  const fields: [string, string][] = [[`${attr}.amount`, t.amount]];
  if (t.type === 'SUPPLY_CHARGE') {
    t.line_items.forEach((l, i) => {
      fields.push([`${attr}.line_items.${i}.net_amount`, l.net_amount]);
    });
  }
  if (t.type === 'CHARGE' || t.type === 'SUPPLY_CHARGE') {
    (t.tax_items ?? []).forEach((x, i) => {
      fields.push([`${attr}.tax_items.${i}.amount`, x.amount]);
    });
  }
  return fields;
}

export const invalidAmount = (attr: string) =>
  item(
    attr,
    'invalid_amount',
    `Give an amount as a number or decimal string with at most ${MONEY_PLACES} decimal places.`,
  );

/** The errors of one structurally valid transaction at `attr` (`transactions.3`); empty when it is sound. */
export function transactionErrors(t: Transaction, attr: string): ErrorItem[] {
  const errors: ErrorItem[] = [];
  for (const [at, value] of moneyFields(t, attr)) {
    if (exactUnits(value, MONEY_PLACES) === null) errors.push(invalidAmount(at));
  }
  const amount = exactUnits(t.amount, MONEY_PLACES);
  if (amount !== null && amount < 0n && NEVER_NEGATIVE.has(t.type)) {
    errors.push(
      item(
        `${attr}.amount`,
        'min_value',
        `A ${t.type} amount may not be negative; the type says which way it moves the balance.`,
      ),
    );
  }
  return errors;
}

/** How a transaction moves the balance (credit positive): payments and credits add, the rest subtract. */
export const balanceSign = (type: TransactionType): 1n | -1n =>
  BALANCE_ADDING_TYPES.includes(type) ? 1n : -1n;
