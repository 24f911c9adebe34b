import { describe } from 'node:test';
import { ruleCases } from './support/rule-cases.ts';

const OCCUPIER = { unknown_occupier: true, customers: [] };

describe('account type', () => {
  ruleCases([
    {
      rejects: 'an account type together with the deprecated is_managed flag',
      changes: { is_managed: true },
      attr: 'account_type',
      code: 'multiple_account_types_selected',
    },
    {
      accepts: 'account_type MANAGED with is_managed true',
      changes: { account_type: 'MANAGED', is_managed: true },
    },
  ]);
});

describe('account kinds', () => {
  ruleCases([
    {
      rejects: 'customers on an unknown occupier account',
      changes: { unknown_occupier: true },
      attr: 'customers',
      code: 'customer_with_unknown_occupier',
    },
    {
      rejects: 'two supply addresses on an occupier account',
      changes: {
        ...OCCUPIER,
        'supply_addresses.1': {
          customer_at_supply_address_from_date: '2019-01-01',
          supply_address1: '2 Fake St',
          supply_postcode: 'W1F 9DF',
          meter_points: [],
        },
      },
      attr: 'supply_addresses.1',
      code: 'occupier_account_with_multiple_supply_addresses',
    },
    {
      rejects: 'a direct debit reference on an occupier account',
      changes: { ...OCCUPIER, dd_reference: 'DD1' },
      attr: 'dd_reference',
      code: 'dd_reference_for_occupier_account',
    },
    {
      rejects: 'a portfolio lead with supply addresses',
      changes: { account_type: 'PORTFOLIO_LEAD' },
      attr: 'supply_addresses',
      code: 'portfolio_lead_has_a_supply_address',
    },
    {
      rejects: 'a system account with supply addresses',
      changes: { account_type: 'SYSTEM' },
      attr: 'supply_addresses',
      code: 'system_account_has_a_supply_address',
    },
    {
      rejects: 'a business account without customers',
      changes: { account_type: 'BUSINESS', customers: [] },
      attr: 'customers',
      code: 'business_account_missing_customers',
    },
    {
      rejects: 'a business type on a domestic account',
      changes: { business_type: 'LTD' },
      attr: 'business_type',
      code: 'business_fields_provided_for_domestic_accounts',
    },
    {
      rejects: 'a company number in business on a domestic account',
      changes: { business: { company_number: '01234567' } },
      attr: 'business.company_number',
      code: 'business_fields_provided_for_domestic_accounts',
    },
    {
      rejects: 'bespoke rates on a domestic account',
      changes: {
        'supply_addresses.0.meter_points.1.agreements.0.bespoke_tariff_rates': [
          { standing_charge: '20', unit_rate: '3' },
        ],
      },
      attr: 'supply_addresses.0.meter_points.1.agreements.0.bespoke_tariff_rates',
      code: 'business_fields_provided_for_domestic_accounts',
    },
    {
      rejects: 'tax exemptions on a domestic account',
      changes: {
        'supply_addresses.0.meter_points.0.vat_exemptions': [{ effective_from: '2019-01-01', rate: '0.5' }],
      },
      attr: 'supply_addresses.0.meter_points.0.vat_exemptions',
      code: 'tax_exemptions_provided_for_domestic_account',
    },
    {
      accepts: 'business details and tax exemptions on a business account',
      changes: {
        account_type: 'BUSINESS',
        business: { business_type: 'LTD' },
        'supply_addresses.0.meter_points.0.vat_exemptions': [{ effective_from: '2019-01-01', rate: '0.5' }],
      },
    },
    {
      rejects: 'both the deprecated debt and debts',
      changes: { debt: { agency_name: 'X' } },
      attr: 'debt',
      code: 'debt_and_debts_are_defined',
    },
    {
      rejects: 'payment adequacy changes together with a last payment review date',
      changes: {
        payment_adequacy_changes: [
          {
            applied_at: '2020-01-02T00:00:00Z',
            average_monthly_charge: 10,
            average_monthly_elec_charge: 5,
            average_monthly_gas_charge: 5,
            balance_adjustment: 0,
            created_at: '2020-01-01T00:00:00Z',
            current_balance: 0,
            existing_direct_debit_payment: 10,
            new_direct_debit: 10,
            target_balance: 0,
          },
        ],
      },
      attr: 'last_payment_review_date',
      code: 'payment_adequacy_changes_and_last_payment_review_date_provided',
    },
    {
      rejects: 'a last payment review date in the future',
      changes: { last_payment_review_date: '2025-06-02' },
      attr: 'last_payment_review_date',
      code: 'last_payment_review_date_is_future_dated',
    },
  ]);
});
