import { CREDIT_REASONS } from '../account-import/payload/schema/enums/credit-reasons.ts';
import {
  CHARGE_REASONS,
  PAYMENT_REASONS,
  PAYMENT_TYPES,
  REPAYMENT_PAYMENT_TYPES,
  REPAYMENT_REASONS,
} from '../account-import/payload/schema/enums/transaction-enums.ts';
import { type ErrorItem, item } from '../http/errors.ts';
import { exactUnits, MONEY_PLACES } from './amounts.ts';
import type { TransactionType } from './transaction.schema.ts';

export interface LineItemInput {
  start_date: string;
  end_date: string;
  number_of_units: number | string;
  net_amount: number | string;
  price_per_unit?: number | string;
}

export interface TaxItemInput {
  amount: number | string;
  value_taxed: number | string;
  rate: number | string;
}

export interface TransactionInput {
  transaction_id: string;
  transaction_date: string;
  amount: number | string;
  type: TransactionType;
  reason?: string;
  payment_type?: string;
  product_code?: string;
  line_items?: LineItemInput[];
  tax_items?: TaxItemInput[];
  [field: string]: unknown;
}

interface TypeRules {
  reasons: readonly string[] | null;
  paymentTypes: readonly string[] | null;
  taxItems: boolean;
  supplyCharge: boolean;
}

/** What each type needs and may carry (interface 2.5 and the reference's transaction schemas). */
const RULES: Record<TransactionType, TypeRules> = {
  CHARGE: { reasons: CHARGE_REASONS, paymentTypes: null, taxItems: true, supplyCharge: false },
  CREDIT: { reasons: CREDIT_REASONS, paymentTypes: null, taxItems: false, supplyCharge: false },
  PAYMENT: { reasons: PAYMENT_REASONS, paymentTypes: PAYMENT_TYPES, taxItems: false, supplyCharge: false },
  REPAYMENT: {
    reasons: REPAYMENT_REASONS,
    paymentTypes: REPAYMENT_PAYMENT_TYPES,
    taxItems: false,
    supplyCharge: false,
  },
  SUPPLY_CHARGE: { reasons: null, paymentTypes: null, taxItems: true, supplyCharge: true },
};

const notForType = (attr: string, type: string) =>
  item(attr, 'not_allowed_for_type', `A ${type} transaction does not carry this field.`);
const badAmount = (attr: string) =>
  item(
    attr,
    'invalid_amount',
    `Give an amount as a number or decimal string with at most ${MONEY_PLACES} decimal places.`,
  );

/** The errors of one structurally valid transaction at `attr` (`transactions.3`); empty when it is sound. */
export function transactionErrors(t: TransactionInput, attr: string): ErrorItem[] {
  const errors: ErrorItem[] = [];
  const rules = RULES[t.type];
  const at = (field: string) => `${attr}.${field}`;

  const amount = exactUnits(t.amount, MONEY_PLACES);
  if (amount === null) errors.push(badAmount(at('amount')));
  else if (amount < 0n)
    errors.push(
      item(
        at('amount'),
        'min_value',
        'The amount may not be negative; the type says which way it moves the balance.',
      ),
    );

  if (rules.reasons === null) {
    if (t.reason !== undefined) errors.push(notForType(at('reason'), t.type));
  } else if (t.reason === undefined) {
    errors.push(item(at('reason'), 'required', `A ${t.type} transaction needs a reason.`));
  } else if (!rules.reasons.includes(t.reason)) {
    errors.push(
      item(at('reason'), 'invalid_choice', `"${t.reason}" is not a reason for a ${t.type} transaction.`),
    );
  }

  if (t.payment_type !== undefined) {
    if (rules.paymentTypes === null) errors.push(notForType(at('payment_type'), t.type));
    else if (t.payment_type !== '' && !rules.paymentTypes.includes(t.payment_type)) {
      errors.push(
        item(
          at('payment_type'),
          'invalid_choice',
          `"${t.payment_type}" is not a payment type for a ${t.type} transaction.`,
        ),
      );
    }
  }
  if (t.tax_items !== undefined && !rules.taxItems) errors.push(notForType(at('tax_items'), t.type));

  if (!rules.supplyCharge) {
    for (const field of ['product_code', 'line_items'] as const) {
      if (t[field] !== undefined) errors.push(notForType(at(field), t.type));
    }
    return errors;
  }
  if (!t.product_code)
    errors.push(item(at('product_code'), 'required', 'A SUPPLY_CHARGE needs its product code.'));
  if (!t.line_items || t.line_items.length === 0) {
    errors.push(item(at('line_items'), 'required', 'A SUPPLY_CHARGE needs at least one line item.'));
  }
  errors.push(...chargeParts(t, attr, amount));
  return errors;
}

/** Line and tax items: valid amounts, ordered periods, and net amounts plus tax equal to the amount. */
function chargeParts(t: TransactionInput, attr: string, amount: bigint | null): ErrorItem[] {
  const errors: ErrorItem[] = [];
  let total: bigint | null = 0n;
  (t.line_items ?? []).forEach((line, i) => {
    const at = `${attr}.line_items.${i}`;
    const net = exactUnits(line.net_amount, MONEY_PLACES);
    if (net === null) errors.push(badAmount(`${at}.net_amount`));
    total = net === null || total === null ? null : total + net;
    if (exactUnits(line.number_of_units, 10, 12) === null)
      errors.push(item(`${at}.number_of_units`, 'invalid_decimal', 'Not a decimal number.'));
    if (line.price_per_unit !== undefined && exactUnits(line.price_per_unit, 10, 8) === null) {
      errors.push(item(`${at}.price_per_unit`, 'invalid_decimal', 'Not a decimal number.'));
    }
    if (line.end_date < line.start_date)
      errors.push(item(`${at}.end_date`, 'invalid_period', 'The end date is before the start date.'));
  });
  (t.tax_items ?? []).forEach((tax, i) => {
    const at = `${attr}.tax_items.${i}`;
    const value = exactUnits(tax.amount, MONEY_PLACES);
    if (value === null) errors.push(badAmount(`${at}.amount`));
    total = value === null || total === null ? null : total + value;
    for (const field of ['value_taxed', 'rate'] as const) {
      if (exactUnits(tax[field], 10, 15) === null)
        errors.push(item(`${at}.${field}`, 'invalid_decimal', 'Not a decimal number.'));
    }
  });
  if (amount !== null && total !== null && (t.line_items?.length ?? 0) > 0 && total !== amount) {
    errors.push(
      item(
        `${attr}.amount`,
        'amounts_inconsistent',
        "The amount is not the sum of the line items' net amounts and the tax amounts.",
      ),
    );
  }
  return errors;
}

/** How a transaction moves the balance (credit positive): payments and credits add, the rest subtract. */
export const balanceSign = (type: TransactionType): 1n | -1n =>
  type === 'PAYMENT' || type === 'CREDIT' ? 1n : -1n;
