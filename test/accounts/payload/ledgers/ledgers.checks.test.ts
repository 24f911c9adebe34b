import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorsOf, exampleWith } from '../support/payload-fixtures.ts';
import { ruleCases } from '../support/rule-cases.ts';

const LEDGER = 'ledgers.0';
const CURRENT = `${LEDGER}.current_statement_transactions`;
const HISTORICAL = `${LEDGER}.historical_statement_transactions`;

/** The example's ledger moved to the deprecated account-level fields. */
const ACCOUNT_LEVEL = {
  ledgers: undefined,
  last_statement_balance: '20.00',
  last_statement_closing_date: '2019-07-31',
  current_statement_transactions: [
    {
      transaction_id: '1',
      transaction_date: '2019-08-04',
      amount: '10.00',
      type: 'REPAYMENT',
      reason: 'FULL_CREDIT_REFUND',
    },
    {
      transaction_id: '2',
      transaction_date: '2019-08-05',
      amount: '20.00',
      type: 'PAYMENT',
      reason: 'ACCOUNT_CHARGE_PAYMENT',
    },
  ],
  historical_statement_transactions: [
    { transaction_id: '3', transaction_date: '2018-08-05', amount: '20.00', type: 'PAYMENT' },
  ],
};

describe('balances', () => {
  ruleCases([
    {
      rejects: 'a ledger balance that is not the last statement balance plus current transactions',
      changes: { [`${LEDGER}.ledger_balance`]: '30.01', transfer_balance: '30.01' },
      attr: `${LEDGER}.ledger_balance`,
      code: 'balance_mismatch_on_ledger_balance',
    },
    {
      rejects: 'historical transactions not summing to the last statement balance',
      changes: { [`${HISTORICAL}.0.amount`]: '10.01' },
      attr: `${LEDGER}.last_statement_balance`,
      code: 'historical_statement_transactions_balance_mismatch',
    },
    {
      rejects: 'ledger balances not summing to the transfer balance',
      changes: { transfer_balance: '31.00' },
      attr: 'transfer_balance',
      code: 'ledger_balances_not_equal_to_transfer_balance',
    },
    { accepts: 'the example ledger moved to the account-level fields', changes: ACCOUNT_LEVEL },
    {
      rejects: 'an account-level balance that does not reach the transfer balance',
      changes: { ...ACCOUNT_LEVEL, transfer_balance: '29.99' },
      attr: 'transfer_balance',
      code: 'balance_mismatch_on_transfer_balance',
    },
    {
      rejects: 'account-level historical transactions not summing to the last statement balance',
      changes: { ...ACCOUNT_LEVEL, last_statement_balance: '19.00', transfer_balance: '29.00' },
      attr: 'last_statement_balance',
      code: 'historical_statement_transactions_balance_mismatch',
    },
    {
      accepts: 'a prepay vend, which stays out of the balance',
      changes: {
        [`${CURRENT}.2`]: {
          type: 'PAYMENT',
          transaction_id: 'v',
          transaction_date: '2019-08-06',
          amount: '99.99',
          to_prepay_meter_serial_number: '54BV',
        },
      },
    },
  ]);
});

describe('statement dates', () => {
  ruleCases([
    {
      rejects: 'a historical transaction after the last statement closed',
      changes: { [`${HISTORICAL}.0.transaction_date`]: '2019-08-01' },
      attr: `${HISTORICAL}.0.transaction_date`,
      code: 'historical_statement_transaction_after_last_statement_closing_date',
    },
    {
      rejects: 'a last statement issued before it closed',
      changes: { [`${LEDGER}.last_statement_issue_date`]: '2019-07-30' },
      attr: `${LEDGER}.last_statement_issue_date`,
      code: 'last_statement_issued_before_closing_date',
    },
    {
      rejects: 'a last statement closing in the future',
      changes: {
        [`${LEDGER}.last_statement_closing_date`]: '2025-06-02',
        [`${LEDGER}.last_statement_issue_date`]: undefined,
      },
      attr: `${LEDGER}.last_statement_closing_date`,
      code: 'historical_statement_period_end_in_future',
    },
    {
      rejects: 'historical transactions with neither a closing date nor a last billed to date',
      changes: {
        [`${LEDGER}.last_statement_closing_date`]: undefined,
        last_billed_to_date: undefined,
        'supply_addresses.0.meter_points.1.meters.0.last_billed_to_date': undefined,
      },
      attr: `${LEDGER}.last_statement_closing_date`,
      code: 'historical_statement_transactions_without_last_statement_closing_date_or_last_billed_to_date',
    },
    {
      rejects: 'a historical transaction after a current one',
      changes: {
        [`${LEDGER}.last_statement_closing_date`]: undefined,
        [`${LEDGER}.last_statement_issue_date`]: undefined,
        [`${HISTORICAL}.0.transaction_date`]: '2019-08-05',
        [`${CURRENT}.0.transaction_date`]: '2019-08-01',
      },
      attr: `${HISTORICAL}.0.transaction_date`,
      code: 'historical_statement_transaction_after_current_statement_transaction',
    },
    {
      rejects: 'a current transaction before the open statement starts',
      changes: { [`${CURRENT}.0.transaction_date`]: '2019-07-31' },
      attr: `${CURRENT}.0.transaction_date`,
      code: 'current_statement_transaction_before_current_statement_opening_date',
    },
    {
      rejects: 'a current transaction before the last billed to date',
      changes: {
        last_billed_to_date: '2019-08-05',
        [`${LEDGER}.last_statement_closing_date`]: undefined,
        [`${LEDGER}.last_statement_issue_date`]: undefined,
        'supply_addresses.0.meter_points.1.meters.0.prepay_details.transfer_vend_read_date': '2019-08-05',
      },
      attr: `${CURRENT}.0.transaction_date`,
      code: 'current_statement_transaction_before_last_billed_to_date',
    },
  ]);
});

describe('billing start', () => {
  ruleCases([
    {
      rejects: 'an account with no billed date, no closed statement and no agreement',
      changes: {
        last_billed_to_date: undefined,
        [`${LEDGER}.last_statement_closing_date`]: undefined,
        [`${LEDGER}.last_statement_issue_date`]: undefined,
        'supply_addresses.0.meter_points.0.agreements': [],
        'supply_addresses.0.meter_points.1.agreements': [],
      },
      attr: 'last_billed_to_date',
      code: 'cannot_determine_responsible_for_billing_from_date',
    },
  ]);
});

describe('ledgers and payment preferences', () => {
  const secondLedger = { ledger_code: 'GAS', ledger_identifier: 'gas', identifiers: ['9353824109'] };
  ruleCases([
    {
      rejects: 'a ledger code used twice',
      changes: { [`${LEDGER}.ledger_code`]: 'GAS', 'ledgers.1': secondLedger },
      attr: 'ledgers.1.ledger_code',
      code: 'duplicate_ledger_entries_found',
    },
    {
      rejects: 'a supply point on two ledgers',
      changes: { [`${LEDGER}.identifiers`]: ['9353824109'], 'ledgers.1': secondLedger },
      attr: 'ledgers.1.identifiers.0',
      code: 'duplicate_identifiers_entries_found',
    },
    {
      rejects: 'a ledger identifier used twice',
      changes: { [`${LEDGER}.ledger_identifier`]: 'gas', 'ledgers.1': secondLedger },
      attr: 'ledgers.1.ledger_identifier',
      code: 'duplicate_identifiers_entries_found',
    },
    {
      rejects: 'a ledger naming a supply point the account lacks',
      changes: { [`${LEDGER}.identifiers`]: ['1800021679848'] },
      attr: `${LEDGER}.identifiers.0`,
      code: 'unknown_ledger_identifiers',
    },
    {
      accepts: 'ledgers covering the account’s own supply points',
      changes: { [`${LEDGER}.identifiers`]: ['1200060176720'], 'ledgers.1': secondLedger },
    },
    {
      rejects: 'a payment preference for a ledger that does not exist',
      changes: { payment_preferences: [{ type: 'PASSIVE', ledger_identifier: 'nope' }] },
      attr: 'payment_preferences.0.ledger_identifier',
      code: 'invalid_payment_preference_ledger_identifier',
    },
    {
      rejects: 'two payment preferences for one ledger',
      changes: {
        [`${LEDGER}.ledger_identifier`]: 'main',
        payment_preferences: [
          { type: 'PASSIVE', ledger_identifier: 'main' },
          { type: 'PASSIVE', ledger_identifier: 'main' },
        ],
      },
      attr: 'payment_preferences.1.ledger_identifier',
      code: 'duplicate_ledger_in_payment_preferences',
    },
    {
      rejects: 'an ACTIVE_NEW preference naming no payload instruction',
      changes: {
        [`${LEDGER}.ledger_identifier`]: 'main',
        payment_preferences: [
          {
            type: 'ACTIVE_NEW',
            ledger_identifier: 'main',
            instruction_reference_params: { instruction_identifier: 'i9' },
          },
        ],
      },
      attr: 'payment_preferences.0.instruction_reference_params.instruction_identifier',
      code: 'active_new_payment_preference_invalid_instruction_identifier',
    },
    {
      accepts: 'an ACTIVE_NEW preference naming a payload instruction',
      changes: {
        [`${LEDGER}.ledger_identifier`]: 'main',
        payment_instructions: [
          { reference: 'MD1', type: 'DIRECT_DEBIT', vendor: 'STRIPE', instruction_identifier: 'i1' },
        ],
        payment_preferences: [
          {
            type: 'ACTIVE_NEW',
            ledger_identifier: 'main',
            instruction_reference_params: { instruction_identifier: 'i1' },
          },
        ],
      },
    },
  ]);
});

describe('what a balance mismatch says', () => {
  const detailAt = (changes: Record<string, unknown>, attr: string) =>
    errorsOf(exampleWith(changes)).find((e) => e.attr === attr)?.detail;

  it('names what an account without ledgers, last statement balance or transactions makes its balance from', () => {
    const detail = detailAt(
      {
        ledgers: undefined,
        last_statement_closing_date: '2019-07-31',
        historical_statement_transactions: undefined,
        current_statement_transactions: undefined,
        transfer_balance: '12.30',
      },
      'transfer_balance',
    );
    assert.equal(
      detail,
      'The transfer balance is 12.30, not 0.00: an account without ledgers takes no last statement balance (0.00) plus no current statement transactions.',
    );
  });

  it('names the last statement balance and the transactions a ledger adds up', () => {
    assert.equal(
      detailAt(
        { [`${LEDGER}.ledger_balance`]: '30.01', transfer_balance: '30.01' },
        `${LEDGER}.ledger_balance`,
      ),
      'The ledger balance is 30.01, not 30.00: the ledger takes the last statement balance 20.00 plus 2 current statement transaction(s) netting 10.00.',
    );
  });
});
