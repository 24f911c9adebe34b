/**
 * The supplier's expectations for a wave (decision 0069): one NDJSON line per account the source
 * system holds, `{external_account_number, ledger_balance?, meter_points?, transactions?,
 * transactions_total?, transactions_net?}`. Money is a decimal string of at most two decimal places (a JSON number
 * could have lost digits before we saw it), counts whole numbers. A measure left out is not
 * compared. Errors name the line, counted from 1 as an editor does: `7.ledger_balance`.
 */
import { type ErrorItem, item } from '../../errors/error-items.ts';
import { decimalProblem } from '../../vocabulary/decimal.ts';

/** One account's expected figures, as stored (money as its decimal text). */
export interface Expectation {
  external_account_number: string;
  ledger_balance: string | null;
  meter_points: number | null;
  transactions: number | null;
  transactions_total: string | null;
  transactions_net: string | null;
}

const FIELDS = new Set([
  'external_account_number',
  'ledger_balance',
  'meter_points',
  'transactions',
  'transactions_total',
  'transactions_net',
]);
/** Whole digits of a wave's money: its totals add up a million accounts' balances. */
const MONEY_WHOLE_DIGITS = 13;
const MAX_COUNT = 2_147_483_647;

function money(value: unknown, attr: string, errors: ErrorItem[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || decimalProblem(value, MONEY_WHOLE_DIGITS, 2) !== null) {
    errors.push(
      item(
        attr,
        'invalid_amount',
        'Give money as a decimal string with at most 2 decimal places, e.g. "-12.30".',
      ),
    );
    return null;
  }
  return value;
}

function count(value: unknown, attr: string, errors: ErrorItem[]): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_COUNT) {
    errors.push(item(attr, 'invalid', 'Give a count as a whole number, 0 or more.'));
    return null;
  }
  return value;
}

/** The expectation of line `line` (from 1), or its errors. */
export function readExpectation(
  text: string,
  line: number,
): { ok: true; value: Expectation } | { ok: false; errors: ErrorItem[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return {
      ok: false,
      errors: [item(String(line), 'invalid_expectation_line', 'The line is not a JSON object.')],
    };
  }
  const v = value as Record<string, unknown>;
  const at = (field: string) => `${line}.${field}`;
  const errors: ErrorItem[] = [];
  for (const key of Object.keys(v)) {
    if (!FIELDS.has(key))
      errors.push(item(at(key), 'unknown_field', 'This field is not part of an expectation.'));
  }
  const external = v.external_account_number;
  if (external === undefined || external === null) {
    errors.push(item(at('external_account_number'), 'required', 'Each line names its account.'));
  } else if (typeof external !== 'string' || external.trim() === '') {
    errors.push(
      item(at('external_account_number'), 'blank', 'Give the external account number as a non-blank string.'),
    );
  }
  const expectation = {
    external_account_number: String(external),
    ledger_balance: money(v.ledger_balance, at('ledger_balance'), errors),
    meter_points: count(v.meter_points, at('meter_points'), errors),
    transactions: count(v.transactions, at('transactions'), errors),
    transactions_total: money(v.transactions_total, at('transactions_total'), errors),
    transactions_net: money(v.transactions_net, at('transactions_net'), errors),
  };
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: expectation };
}
