/**
 * The measures a wave is reconciled by (decisions 0069, 0082), and what each one is: one table
 * that the reconciliation's SQL, the API's description (`/docs`), `ferry wave reconcile --help`
 * and the dashboard read, so the definition said is the definition computed.
 */
import { BALANCE_ADDING_TYPES } from '../../accounts/payload/ledgers/ledger-balance.ts';

export const MEASURES = [
  'accounts',
  'meter_points',
  'ledger_balance',
  'transactions',
  'transactions_total',
  'transactions_net',
] as const;
export type Measure = (typeof MEASURES)[number];

/** The measures compared account by account (`accounts` is only a total). */
export const ACCOUNT_MEASURES = [
  'ledger_balance',
  'meter_points',
  'transactions',
  'transactions_total',
  'transactions_net',
] as const;
export type AccountMeasure = (typeof ACCOUNT_MEASURES)[number];

/** The measures that are money (decimal strings, exact to the penny); the others are counts. */
export const MONEY_MEASURES: ReadonlySet<Measure> = new Set([
  'ledger_balance',
  'transactions_total',
  'transactions_net',
]);

const adding = BALANCE_ADDING_TYPES.join(' and ');

/** What each measure is, for an account (the wave's figure is the sum over its accounts). */
export const MEASURE_DEFINITIONS: Record<Measure, string> = {
  accounts:
    'Expected: the accounts the expectations list. Stored: the accounts the wave’s processes imported. A total only; per account it is the kind (missing, unexpected).',
  meter_points: 'How many meter points the account stores, under all its supply addresses.',
  ledger_balance:
    'The account’s balance as stored: the balance it was imported with (its first ledger’s ledger_balance, else its transfer_balance) moved by every follow-up transaction imported since. Credit positive.',
  transactions:
    'How many transactions the account stores: its payload’s (account-level and every ledger’s, historical and current) and every imported follow-up.',
  transactions_total:
    'The sum of those transactions’ amounts as sent, unsigned: a payment of 10.00 and a charge of 10.00 total 20.00.',
  transactions_net: `The sum of those transactions signed as each type moves the ledger balance (the rule Ferry stores the balance by): ${adding} add their amount, every other type subtracts it, prepay vends included. A payment of 10.00 and a charge of 10.00 net 0.00.`,
};

/** The definitions as lines of text (`measure: definition`), for help and API descriptions. */
export const measureDefinitionLines = (indent = ''): string =>
  MEASURES.map((m) => `${indent}${m}: ${MEASURE_DEFINITIONS[m]}`).join('\n');

/** The kinds of an account that does not match. */
export const DIFFERENCE_KINDS = ['missing', 'unexpected', 'differing'] as const;
export type DifferenceKind = (typeof DIFFERENCE_KINDS)[number];
