import { describe } from 'node:test';
import { ruleCases } from '../support/rule-cases.ts';

const ELEC = 'supply_addresses.0.meter_points.0';
const GAS = 'supply_addresses.0.meter_points.1';

describe('supply dates and statuses', () => {
  ruleCases([
    {
      rejects: 'a supply end before the supply start',
      changes: { [`${GAS}.supply_end_date`]: '2019-04-09' },
      attr: `${GAS}.supply_end_date`,
      code: 'start_date_later_than_end_date',
    },
    {
      rejects: 'a future supply end date (a loss in progress)',
      changes: { [`${GAS}.supply_end_date`]: '2025-07-01' },
      attr: `${GAS}.supply_end_date`,
      code: 'future_supply_end_date',
    },
    {
      rejects: 'a billable point starting supply in the future',
      changes: { [`${GAS}.supply_start_date`]: '2025-06-02' },
      attr: `${GAS}.supply_start_date`,
      code: 'future_supply_start_date',
    },
    {
      rejects: 'a disputed read in progress',
      changes: { [`${ELEC}.dr_in_progress`]: true },
      attr: `${ELEC}.dr_in_progress`,
      code: 'disputed_read_in_progress',
    },
    {
      rejects: 'an erroneous transfer in progress',
      changes: { [`${GAS}.et_in_progress`]: true },
      attr: `${GAS}.et_in_progress`,
      code: 'erroneous_transfer_not_in_progress',
    },
    {
      rejects: 'a refusal reason from an interested customer',
      changes: { [`${ELEC}.smart_refusal_interest.type`]: 'INTERESTED' },
      attr: `${ELEC}.smart_refusal_interest.refusal_reason`,
      code: 'smart_refusal_reason_given_for_interest',
    },
    {
      rejects: 'agents together with an MPID to appoint',
      changes: {
        [`${ELEC}.agents`]: { dc_contract: { agent_mpid: 'ABCD' } },
        [`${ELEC}.mop_to_appoint`]: 'MOPS',
      },
      attr: `${ELEC}.agents`,
      code: 'agents_and_mpids_to_appoint_provided',
    },
  ]);
});

describe('agreements', () => {
  ruleCases([
    {
      rejects: 'an agreement ending before it starts',
      changes: { [`${GAS}.agreements.0.effective_to`]: '2019-07-31' },
      attr: `${GAS}.agreements.0.effective_to`,
      code: 'start_date_later_than_end_date',
    },
    {
      rejects: 'an agreement starting before the supply start date',
      changes: { [`${GAS}.agreements.0.effective_from`]: '2019-04-09' },
      attr: `${GAS}.agreements.0.effective_from`,
      code: 'agreement_start_date_before_supply_start_date',
    },
    {
      rejects: 'a gap between agreements during supply',
      changes: {
        [`${GAS}.agreements`]: [
          { tariff_code: 'A', effective_from: '2019-04-10', effective_to: '2019-07-01' },
          { tariff_code: 'B', effective_from: '2019-08-01' },
        ],
      },
      attr: `${GAS}.agreements.1.effective_from`,
      code: 'gaps_or_overlaps_in_agreement_dates',
    },
    {
      rejects: 'overlapping agreements',
      changes: {
        [`${GAS}.agreements`]: [
          { tariff_code: 'A', effective_from: '2019-04-10' },
          { tariff_code: 'B', effective_from: '2019-08-01' },
        ],
      },
      attr: `${GAS}.agreements.1.effective_from`,
      code: 'gaps_or_overlaps_in_agreement_dates',
    },
    {
      accepts: 'agreements where each starts on the previous end date (exclusive)',
      changes: {
        [`${GAS}.agreements`]: [
          { tariff_code: 'A', effective_from: '2019-04-10', effective_to: '2019-08-01' },
          { tariff_code: 'B', effective_from: '2019-08-01' },
        ],
      },
    },
    {
      rejects: 'a characteristic code given twice',
      changes: {
        [`${GAS}.agreements.0.characteristics`]: [
          { code: 'sales_channel', value: 'DIRECT' },
          { code: 'sales_channel', value: 'BROKER' },
        ],
      },
      attr: `${GAS}.agreements.0.characteristics.1.code`,
      code: 'children_with_duplicate_values',
    },
    {
      rejects: 'two bespoke rates for the same meter and payment method',
      changes: {
        account_type: 'BUSINESS',
        [`${GAS}.agreements.0.bespoke_tariff_rates`]: [
          { standing_charge: '1', unit_rate: '2' },
          { standing_charge: '3', unit_rate: '4' },
        ],
      },
      attr: `${GAS}.agreements.0.bespoke_tariff_rates.1`,
      code: 'duplicate_bespoke_rates',
    },
    {
      rejects: 'a bespoke register rate with neither register id nor rate type',
      changes: {
        account_type: 'BUSINESS',
        [`${ELEC}.agreements.0.bespoke_tariff_rates`]: [
          { standing_charge: '1', registers: [{ unit_rate: '2' }] },
        ],
      },
      attr: `${ELEC}.agreements.0.bespoke_tariff_rates.0.registers.0.register_id`,
      code: 'no_register_id_or_rate_type_provided_for_bespoke_elec_rate',
    },
  ]);
});

describe('billable meter points', () => {
  ruleCases([
    {
      rejects: 'a billable point without agreements',
      changes: { [`${GAS}.agreements`]: [] },
      attr: `${GAS}.agreements`,
      code: 'meter_point_with_no_agreement',
    },
    {
      rejects: 'an agreement starting after the point left supply',
      changes: {
        [`${GAS}.supply_end_date`]: '2019-07-31',
        [`${GAS}.meters.0.transfer_readings.0.reading_date`]: '2019-07-31',
      },
      attr: `${GAS}.agreements.0.effective_from`,
      code: 'meterpoint_with_agreement_not_on_supply',
    },
    {
      rejects: 'no agreement covering the last billed to date',
      changes: { [`${GAS}.agreements.0.effective_from`]: '2019-08-02' },
      attr: `${GAS}.agreements`,
      code: 'no_agreement_covering_last_billed_to_date',
    },
    {
      rejects: 'a billable point without active meters',
      changes: { [`${GAS}.meters.0.removed_on`]: '2019-08-01' },
      attr: `${GAS}.meters`,
      code: 'meter_point_with_no_meters',
    },
    {
      rejects: 'a billable electricity point without meters',
      changes: { [`${ELEC}.meters`]: [], [`${ELEC}.eac_history`]: [] },
      attr: `${ELEC}.meters`,
      code: 'meter_point_with_no_meters',
    },
    {
      accepts: 'an unmetered electricity supply (measurement class B) without meters',
      changes: { [`${ELEC}.meters`]: [], [`${ELEC}.measurement_class`]: 'B' },
    },
    {
      rejects: 'a point off supply without a reading on its end date',
      changes: { [`${GAS}.supply_end_date`]: '2020-01-01' },
      attr: `${GAS}.supply_end_date`,
      code: 'no_reading_on_supply_end_date',
    },
    {
      rejects: 'an account whose meter points have all left supply',
      changes: { [`${ELEC}.supply_end_date`]: '2019-08-01', [`${GAS}.supply_end_date`]: '2019-08-01' },
      attr: 'supply_addresses',
      code: 'no_supply_point_on_supply',
    },
    {
      rejects: 'a billable gas point without a current AQ',
      changes: { [`${GAS}.aq_history.0.effective_to`]: '2019-12-31' },
      attr: `${GAS}.aq_history`,
      code: 'no_current_or_future_aq_entry_found',
    },
  ]);
});

describe('meters sharing a serial', () => {
  const removedThenDummy = (installedOn: string) => ({
    [`${GAS}.meters.0.removed_on`]: '2019-09-01',
    [`${GAS}.meters.0.reading_history`]: [
      { reading_date: '2019-09-01', reading_type: 'CUSTOMER', reading_value: '510', billed: false },
    ],
    [`${GAS}.meters.0.last_billed_to_date`]: '2019-08-01',
    [`${GAS}.meters.1`]: { meter_serial_number: '54BV', gas_number_of_digits: 5, installed_on: installedOn },
  });
  ruleCases([
    {
      accepts: 'a dummy meter exchange: the same serial installed the day after removal',
      changes: removedThenDummy('2019-09-02'),
    },
    {
      rejects: 'the same serial on two meters that are not a dummy exchange',
      changes: removedThenDummy('2019-09-05'),
      attr: `${GAS}.meters.1.meter_serial_number`,
      code: 'multiple_non_dmex_meters_with_serial_number',
    },
  ]);
});
