import { describe } from 'node:test';
import { ruleCases } from '../support/rule-cases.ts';

const LEDGER = 'ledgers.0';
const CURRENT = `${LEDGER}.current_statement_transactions`;
const HISTORICAL = `${LEDGER}.historical_statement_transactions`;

/** A supply charge of 12.00 = 10.00 net + 2.00 tax, within the open statement. */
const supplyCharge = (changes: Record<string, unknown> = {}) => ({
  type: 'SUPPLY_CHARGE',
  transaction_id: 'sc-1',
  transaction_date: '2019-08-06',
  amount: '12.00',
  product_code: 'VAR-19-01-01',
  supply_point_identifier: '1200060176720',
  line_items: [
    {
      start_date: '2019-08-01',
      end_date: '2019-08-10',
      net_amount: '10.00',
      number_of_units: '40',
      price_per_unit: '0.25',
      rate_band: 'STANDARD',
    },
  ],
  tax_items: [
    { amount: '2.00', rate: '0.2', tax_type: 'VAT', unit_type: 'PROPORTION', value_taxed: '10.00' },
  ],
  ...changes,
});
/** Adds the supply charge and a payment cancelling it, so the ledger still reconciles. */
const withCharge = (charge: Record<string, unknown>) => ({
  [`${CURRENT}.2`]: charge,
  [`${CURRENT}.3`]: {
    type: 'PAYMENT',
    transaction_id: 'p-2',
    transaction_date: '2019-08-07',
    amount: charge.amount,
  },
});

describe('transaction ids and dates', () => {
  ruleCases([
    {
      rejects: 'a transaction id used twice',
      changes: { [`${CURRENT}.1.transaction_id`]: '1' },
      attr: `${CURRENT}.1.transaction_id`,
      code: 'duplicate_transaction_ids',
    },
    {
      rejects: 'an account-level transaction id repeated in a ledger',
      changes: {
        current_statement_transactions: [
          { type: 'PAYMENT', transaction_id: '3', transaction_date: '2019-08-05', amount: '0' },
        ],
      },
      attr: `${HISTORICAL}.0.transaction_id`,
      code: 'duplicate_transaction_ids',
    },
    {
      rejects: 'a transaction dated in the future',
      changes: { [`${CURRENT}.1.transaction_date`]: '2025-06-02' },
      attr: `${CURRENT}.1.transaction_date`,
      code: 'transaction_in_future',
    },
    { accepts: 'a transaction dated today', changes: { [`${CURRENT}.1.transaction_date`]: '2025-06-01' } },
  ]);
});

describe('prepay targets and billing document identifiers', () => {
  ruleCases([
    {
      rejects: 'a vend to a meter without prepay details',
      changes: {
        [`${CURRENT}.2`]: {
          type: 'PAYMENT',
          transaction_id: 'v1',
          transaction_date: '2019-08-05',
          amount: '5',
          to_prepay_meter_serial_number: 'Z16N389556',
        },
      },
      attr: `${CURRENT}.2.to_prepay_meter_serial_number`,
      code: 'transactions_target_non_initialised_prepay_meter',
    },
    {
      accepts: 'a vend to the prepay gas meter, outside the balance',
      changes: {
        [`${CURRENT}.2`]: {
          type: 'PAYMENT',
          transaction_id: 'v1',
          transaction_date: '2019-08-05',
          amount: '5',
          to_prepay_meter_serial_number: '54BV',
        },
      },
    },
    {
      rejects: 'a billing document identifier on a current statement transaction',
      changes: { [`${CURRENT}.0.billing_document_identifier`]: 'B1' },
      attr: `${CURRENT}.0.billing_document_identifier`,
      code: 'billing_document_identifier_not_allowed_for_current_statement_transactions',
    },
    {
      rejects: 'historical transactions with different billing document identifiers',
      changes: {
        [`${HISTORICAL}.0.billing_document_identifier`]: 'B1',
        [`${HISTORICAL}.1.billing_document_identifier`]: 'B2',
      },
      attr: `${HISTORICAL}.1.billing_document_identifier`,
      code: 'historical_statement_billing_document_identifier_mismatch',
    },
  ]);
});

describe('supply charges', () => {
  ruleCases([
    {
      accepts: 'a supply charge whose line items and tax add up to its amount',
      changes: withCharge(supplyCharge()),
    },
    {
      rejects: 'a supply charge amount that is not net plus tax',
      changes: withCharge(supplyCharge({ amount: '12.01' })),
      attr: `${CURRENT}.2.amount`,
      code: 'ledger_transaction_amount_does_not_match_with_line_item_net_amount_and_tax_amount',
    },
    {
      rejects: 'a rate specification code without a supply point identifier',
      changes: withCharge(
        supplyCharge({
          supply_point_identifier: undefined,
          line_items: [
            {
              start_date: '2019-08-01',
              end_date: '2019-08-10',
              net_amount: '10.00',
              number_of_units: '40',
              rate_specification_code: 'R1',
            },
          ],
        }),
      ),
      attr: `${CURRENT}.2.supply_point_identifier`,
      code: 'supply_point_identifier_required_for_rate_specification_code',
    },
    {
      rejects: 'a line item ending before it starts',
      changes: withCharge(
        supplyCharge({
          line_items: [
            {
              start_date: '2019-08-10',
              end_date: '2019-08-01',
              net_amount: '10.00',
              number_of_units: '40',
              rate_band: 'S',
            },
          ],
        }),
      ),
      attr: `${CURRENT}.2.line_items.0.end_date`,
      code: 'start_date_later_than_end_date',
    },
    {
      rejects: 'a line item with both a rate band and a rate specification code',
      changes: withCharge(
        supplyCharge({
          line_items: [
            {
              start_date: '2019-08-01',
              end_date: '2019-08-10',
              net_amount: '10.00',
              number_of_units: '40',
              rate_band: 'S',
              rate_specification_code: 'R',
            },
          ],
        }),
      ),
      attr: `${CURRENT}.2.line_items.0.rate_specification_code`,
      code: 'conflicting_rate_band_specification',
    },
    {
      rejects: 'a line item with no rate band, specification or time series',
      changes: withCharge(
        supplyCharge({
          line_items: [
            { start_date: '2019-08-01', end_date: '2019-08-10', net_amount: '10.00', number_of_units: '40' },
          ],
        }),
      ),
      attr: `${CURRENT}.2.line_items.0.rate_band`,
      code: 'conflicting_rate_band_specification',
    },
    {
      rejects: 'metered units that are not exactly two values',
      changes: withCharge(
        supplyCharge({
          line_items: [
            {
              start_date: '2019-08-01',
              end_date: '2019-08-10',
              net_amount: '10.00',
              number_of_units: '40',
              rate_band: 'S',
              units: ['1'],
            },
          ],
        }),
      ),
      attr: `${CURRENT}.2.line_items.0.units`,
      code: 'line_item_units_must_be_two_values',
    },
    {
      rejects: 'a net amount that is not price × units to the penny',
      changes: withCharge(
        supplyCharge({
          amount: '12.02',
          line_items: [
            {
              start_date: '2019-08-01',
              end_date: '2019-08-10',
              net_amount: '10.02',
              number_of_units: '40',
              price_per_unit: '0.25',
              rate_band: 'S',
            },
          ],
        }),
      ),
      attr: `${CURRENT}.2.line_items.0.net_amount`,
      code: 'incorrect_line_item_net_amount',
    },
    {
      accepts: 'a net amount rounded to the penny',
      changes: withCharge(
        supplyCharge({
          amount: '6.17',
          line_items: [
            {
              start_date: '2019-08-01',
              end_date: '2019-08-10',
              net_amount: '4.17',
              number_of_units: '33.3333',
              price_per_unit: '0.125',
              rate_band: 'S',
            },
          ],
        }),
      ),
    },
    {
      rejects: 'two line items charging the same supply point, product and rate for one day',
      changes: withCharge(
        supplyCharge({
          amount: '22.00',
          line_items: [
            {
              start_date: '2019-08-01',
              end_date: '2019-08-10',
              net_amount: '10.00',
              number_of_units: '40',
              rate_band: 'S',
            },
            {
              start_date: '2019-08-10',
              end_date: '2019-08-20',
              net_amount: '10.00',
              number_of_units: '40',
              rate_band: 'S',
            },
          ],
        }),
      ),
      attr: `${CURRENT}.2.line_items.1.start_date`,
      code: 'line_items_overlap_already_charged_period',
    },
  ]);
});
