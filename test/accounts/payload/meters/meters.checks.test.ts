import { describe } from 'node:test';
import { ruleCases } from '../support/rule-cases.ts';

const ELEC_METER = 'supply_addresses.0.meter_points.0.meters.0';
const GAS_METER = 'supply_addresses.0.meter_points.1.meters.0';
const exchangeReading = {
  reading_date: '2019-09-01',
  reading_type: 'CUSTOMER',
  reading_value: '510',
  billed: false,
};

describe('smart and prepay details', () => {
  ruleCases([
    {
      rejects: 'a smart device id on a meter that is not smart',
      changes: { [`${ELEC_METER}.smart_device_id`]: '01-23-45-67-89-AB-CD-EF' },
      attr: `${ELEC_METER}.smart_device_id`,
      code: 'smart_details_provided_for_non_smart_meter',
    },
    {
      rejects: 'a smart meter commissioned in the future',
      changes: { [`${GAS_METER}.smart_commissioned_on`]: '2025-06-02' },
      attr: `${GAS_METER}.smart_commissioned_on`,
      code: 'future_smart_meter_commission_date',
    },
    {
      rejects: 'prepay details on a credit meter',
      changes: { [`${GAS_METER}.is_prepay`]: false },
      attr: `${GAS_METER}.prepay_details`,
      code: 'prepay_details_on_non_prepay_meter',
    },
    {
      rejects: 'an active electricity prepay meter without a customer reference',
      changes: { [`${ELEC_METER}.is_prepay`]: true },
      attr: `${ELEC_METER}.prepay_customer_reference_number`,
      code: 'electricity_prepay_meter_without_customer_reference_number',
    },
    {
      accepts: 'a transfer vend read date on the last billed to date',
      changes: { [`${GAS_METER}.prepay_details.transfer_vend_read_date`]: '2019-08-01' },
    },
    {
      accepts: 'a transfer vend read date the day before the last billed to date (the example)',
      changes: {},
    },
    {
      rejects: 'a transfer vend read date two days before the last billed to date',
      changes: { [`${GAS_METER}.prepay_details.transfer_vend_read_date`]: '2019-07-30' },
      attr: `${GAS_METER}.prepay_details.transfer_vend_read_date`,
      code: 'transfer_vend_read_date_must_match_last_billed_to_date',
    },
    {
      rejects: 'prepay details on a meter removed before the last billed to date',
      changes: { [`${GAS_METER}.removed_on`]: '2019-07-01' },
      attr: `${GAS_METER}.prepay_details`,
      code: 'prepay_details_on_fully_billed_meter',
    },
  ]);
});

describe('registers', () => {
  ruleCases([
    {
      rejects: 'a register id used twice on a meter',
      changes: { [`${ELEC_METER}.registers.1.register_id`]: '1' },
      attr: `${ELEC_METER}.registers.1.register_id`,
      code: 'meter_with_duplicate_register_ids',
    },
    {
      rejects: 'a TPR used twice on a meter',
      changes: { [`${ELEC_METER}.registers.1.tpr`]: '00001' },
      attr: `${ELEC_METER}.registers.1.tpr`,
      code: 'registers_have_duplicate_tprs',
    },
    {
      accepts: 'an odd TPR between 01201 and 01229 on two registers',
      changes: {
        [`${ELEC_METER}.registers.0.tpr`]: '01201',
        [`${ELEC_METER}.registers.1.tpr`]: '01201',
        'supply_addresses.0.meter_points.0.eac_history.0.tpr': '01201',
        'supply_addresses.0.meter_points.0.eac_history.1.tpr': '01201',
      },
    },
    {
      rejects: 'an active electricity meter without registers',
      changes: { [`${ELEC_METER}.registers`]: [] },
      attr: `${ELEC_METER}.registers`,
      code: 'registers_missing_for_active_electricity_meter',
    },
    {
      rejects: 'a non-half-hourly register without a TPR',
      changes: { [`${ELEC_METER}.registers.1.tpr`]: undefined },
      attr: `${ELEC_METER}.registers.1.tpr`,
      code: 'registers_missing_for_active_electricity_meter',
    },
  ]);
});

describe('readings', () => {
  ruleCases([
    {
      rejects: 'an electricity transfer reading without a register id',
      changes: { [`${ELEC_METER}.transfer_readings.0.register_id`]: undefined },
      attr: `${ELEC_METER}.transfer_readings.0.register_id`,
      code: 'reading_without_register_id',
    },
    {
      rejects: 'a transfer reading for a register the meter lacks',
      changes: { [`${ELEC_METER}.transfer_readings.0.register_id`]: '9' },
      attr: `${ELEC_METER}.transfer_readings.0.register_id`,
      code: 'reading_register_id_not_recognised',
    },
    {
      rejects: 'a historical reading without a register id',
      changes: { [`${ELEC_METER}.reading_history.1.register_id`]: '' },
      attr: `${ELEC_METER}.reading_history.1.register_id`,
      code: 'no_register_id_for_reading',
    },
    {
      rejects: 'a historical reading for an unknown register',
      changes: { [`${ELEC_METER}.reading_history.1.register_id`]: 'Z' },
      attr: `${ELEC_METER}.reading_history.1.register_id`,
      code: 'historical_reading_register_id_not_recognised',
    },
    {
      rejects: 'a settlement register without a transfer reading',
      changes: {
        [`${ELEC_METER}.registers.1.is_settlement`]: true,
        'supply_addresses.0.meter_points.0.eac_history.1.tpr': '00043',
      },
      attr: `${ELEC_METER}.registers.1`,
      code: 'missing_transfer_reading_for_register',
    },
    {
      rejects: 'two transfer readings for one register',
      changes: {
        [`${ELEC_METER}.transfer_readings.1`]: {
          register_id: '1',
          reading_date: '2019-08-01',
          reading_value: '1',
          reading_type: 'CUSTOMER',
        },
      },
      attr: `${ELEC_METER}.transfer_readings.1`,
      code: 'multiple_transfer_readings_for_register',
    },
    {
      rejects: 'an active gas meter without a transfer reading',
      changes: { [`${GAS_METER}.transfer_readings`]: [] },
      attr: `${GAS_METER}.transfer_readings`,
      code: 'active_gas_meter_without_transfer_reading',
    },
    {
      rejects: 'an active gas meter with two transfer readings',
      changes: {
        [`${GAS_METER}.transfer_readings.1`]: {
          reading_date: '2019-08-01',
          reading_value: '1',
          reading_type: 'CUSTOMER',
        },
      },
      attr: `${GAS_METER}.transfer_readings.1`,
      code: 'active_gas_meter_with_multiple_transfer_readings',
    },
    {
      rejects: 'a transfer reading on a gas meter removed before the last billed to date',
      changes: {
        [`${GAS_METER}.removed_on`]: '2019-07-01',
        [`${GAS_METER}.prepay_details`]: undefined,
        [`${GAS_METER}.is_prepay`]: false,
      },
      attr: `${GAS_METER}.transfer_readings`,
      code: 'reading_meter_fully_billed',
    },
    {
      rejects: 'a transfer reading not on the last billed to date',
      changes: { [`${GAS_METER}.transfer_readings.0.reading_date`]: '2019-07-31' },
      attr: `${GAS_METER}.transfer_readings.0.reading_date`,
      code: 'transfer_reading_dates_must_match_last_billed_to_date',
    },
    {
      accepts: 'a register-level last billed to date overriding the account one',
      changes: {
        [`${ELEC_METER}.registers.0.last_billed_to_date`]: '2019-08-02',
        [`${ELEC_METER}.transfer_readings.0.reading_date`]: '2019-08-02',
      },
    },
    {
      rejects: 'a billed reading after the last billed to date',
      changes: { [`${ELEC_METER}.reading_history.0.reading_date`]: '2019-08-02' },
      attr: `${ELEC_METER}.reading_history.0.reading_date`,
      code: 'billed_reading_after_last_billed_to_date',
    },
  ]);
});

describe('meter exchanges', () => {
  const exchange = {
    [`${GAS_METER}.removed_on`]: '2019-09-01',
    [`${GAS_METER}.last_billed_to_date`]: '2019-08-01',
    [`${GAS_METER}.reading_history`]: [exchangeReading],
    'supply_addresses.0.meter_points.1.meters.1': {
      meter_serial_number: 'G4A0001',
      gas_number_of_digits: 5,
      installed_on: '2019-09-01',
    },
  };
  ruleCases([
    {
      accepts: 'an exchange after the transfer: final reading, own billed date, new meter unbilled',
      changes: exchange,
    },
    {
      rejects: 'a removed meter without a reading on its removal date',
      changes: { ...exchange, [`${GAS_METER}.reading_history`]: [] },
      attr: `${GAS_METER}.removed_on`,
      code: 'no_reading_on_removed_on',
    },
    {
      rejects: 'a meter removed after the transfer without transfer readings',
      changes: { ...exchange, [`${GAS_METER}.transfer_readings`]: [] },
      attr: `${GAS_METER}.transfer_readings`,
      code: 'no_transfer_reading_on_exchanged_meter',
    },
    {
      rejects: 'an exchanged meter without its own last billed to date',
      changes: { ...exchange, [`${GAS_METER}.last_billed_to_date`]: undefined },
      attr: `${GAS_METER}.last_billed_to_date`,
      code: 'no_last_billed_to_date_on_exchanged_meter',
    },
    {
      rejects: 'a last billed to date on the new meter of an exchange',
      changes: {
        ...exchange,
        'supply_addresses.0.meter_points.1.meters.1.last_billed_to_date': '2019-09-01',
      },
      attr: 'supply_addresses.0.meter_points.1.meters.1.last_billed_to_date',
      code: 'last_billed_to_date_on_new_meter',
    },
  ]);
});

describe('last billed to dates', () => {
  ruleCases([
    {
      rejects: 'an account with billing history but no last billed to date on a settlement register',
      changes: { last_billed_to_date: undefined, [`${GAS_METER}.last_billed_to_date`]: '2019-08-01' },
      attr: `${ELEC_METER}.registers.0.last_billed_to_date`,
      code: 'last_billed_to_date_not_found',
    },
    {
      accepts: 'billed dates on each settlement register and gas meter instead of the account',
      changes: {
        last_billed_to_date: undefined,
        [`${GAS_METER}.last_billed_to_date`]: '2019-08-01',
        [`${ELEC_METER}.registers.0.last_billed_to_date`]: '2019-08-01',
      },
    },
  ]);
});
