import { describe } from 'node:test';
import { ruleCases } from '../support/rule-cases.ts';

const ELEC = 'supply_addresses.0.meter_points.0';
const GAS = 'supply_addresses.0.meter_points.1';
const BUSINESS = { account_type: 'BUSINESS' };

describe('annual quantities', () => {
  ruleCases([
    {
      rejects: 'a gap in the AQ history',
      changes: { [`${GAS}.aq_history.1.effective_to`]: '2018-12-30' },
      attr: `${GAS}.aq_history.0.effective_from`,
      code: 'gaps_or_overlaps_in_aq_history',
    },
    {
      rejects: 'overlapping AQ entries',
      changes: { [`${GAS}.aq_history.2.effective_to`]: '2018-01-01' },
      attr: `${GAS}.aq_history.1.effective_from`,
      code: 'gaps_or_overlaps_in_aq_history',
    },
    {
      rejects: 'two open-ended AQ entries',
      changes: { [`${GAS}.aq_history.1.effective_to`]: null },
      attr: `${GAS}.aq_history.1.effective_to`,
      code: 'multiple_open_ended_aqs_in_meterpoint_aq_history',
    },
    {
      rejects: 'an AQ entry ending before it starts',
      changes: { [`${GAS}.aq_history.2.effective_to`]: '2016-12-31' },
      attr: `${GAS}.aq_history.2.effective_to`,
      code: 'start_date_later_than_end_date',
    },
  ]);
});

describe('capacity values and configuration periods', () => {
  ruleCases([
    {
      rejects: 'a gap between capacity values',
      changes: {
        [`${ELEC}.capacity_values`]: [
          { effective_from_date: '2019-01-01', effective_to_date: '2019-02-01', value: '10' },
          { effective_from_date: '2019-03-01', value: '20' },
        ],
      },
      attr: `${ELEC}.capacity_values.1.effective_from_date`,
      code: 'gaps_or_overlaps_in_periods',
    },
    {
      rejects: 'a capacity value that starts and ends on one date',
      changes: {
        [`${ELEC}.capacity_values`]: [
          { effective_from_date: '2019-01-01', effective_to_date: '2019-01-01', value: '10' },
        ],
      },
      attr: `${ELEC}.capacity_values.0.effective_to_date`,
      code: 'zero_length_periods',
    },
    {
      accepts: 'configuration periods where each starts on the previous end date',
      changes: {
        [`${ELEC}.configuration_periods`]: [
          { effective_from_date: '2019-01-01', effective_to_date: '2019-06-01' },
          { effective_from_date: '2019-06-01' },
        ],
      },
    },
    {
      rejects: 'a configuration period starting in the future',
      changes: { [`${ELEC}.configuration_periods`]: [{ effective_from_date: '2025-06-02' }] },
      attr: `${ELEC}.configuration_periods.0.effective_from_date`,
      code: 'configuration_period_starts_in_future',
    },
    {
      rejects: 'a latest configuration period that is not open-ended',
      changes: {
        [`${ELEC}.configuration_periods`]: [
          { effective_from_date: '2019-01-01', effective_to_date: '2020-01-01' },
        ],
      },
      attr: `${ELEC}.configuration_periods.0.effective_to_date`,
      code: 'latest_configuration_period_not_open_ended',
    },
  ]);
});

describe('estimated annual consumptions', () => {
  ruleCases([
    {
      rejects: 'two EACs for one TPR and date',
      changes: { [`${ELEC}.eac_history.1.effective_from`]: '2019-10-01' },
      attr: `${ELEC}.eac_history.1`,
      code: 'repeated_eac_for_tpr',
    },
    {
      rejects: 'an active settlement register whose TPR has no EAC',
      changes: {
        [`${ELEC}.eac_history`]: [{ effective_from: '2019-10-01', tpr: '00002', consumption: '1' }],
      },
      attr: `${ELEC}.meters.0.registers.0.tpr`,
      code: 'missing_eacs_for_active_register_tpr',
    },
  ]);
});

describe('tax exemptions', () => {
  ruleCases([
    {
      rejects: 'an exemption ending on its start date',
      changes: {
        ...BUSINESS,
        [`${ELEC}.ccl_exemptions`]: [{ effective_from: '2019-01-01', effective_to: '2019-01-01', rate: '1' }],
      },
      attr: `${ELEC}.ccl_exemptions.0.effective_to`,
      code: 'start_date_same_as_end_date',
    },
    {
      rejects: 'two open-ended exemptions',
      changes: {
        ...BUSINESS,
        [`${ELEC}.vat_exemptions`]: [
          { effective_from: '2019-01-01', rate: '1' },
          { effective_from: '2020-01-01', rate: '1' },
        ],
      },
      attr: `${ELEC}.vat_exemptions.1`,
      code: 'multiple_open_ended_tax_exemptions',
    },
    {
      rejects: 'overlapping exemptions',
      changes: {
        ...BUSINESS,
        [`${GAS}.vat_exemptions`]: [
          { effective_from: '2019-01-01', effective_to: '2019-06-01', rate: '1' },
          { effective_from: '2019-05-01', rate: '1' },
        ],
      },
      attr: `${GAS}.vat_exemptions.1.effective_from`,
      code: 'overlapping_effective_dates_for_tax_exemptions',
    },
    {
      accepts: 'consecutive exemptions on a business account',
      changes: {
        ...BUSINESS,
        [`${GAS}.vat_exemptions`]: [
          { effective_from: '2019-01-01', effective_to: '2019-06-01', rate: '1' },
          { effective_from: '2019-06-01', rate: '0.5' },
        ],
      },
    },
  ]);
});
