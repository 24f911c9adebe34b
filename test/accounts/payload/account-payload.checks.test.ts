import { describe } from 'node:test';
import { ruleCases } from './support/rule-cases.ts';

const NO_LEGACY_BILLING = {
  billing_address1: undefined,
  billing_address2: undefined,
  billing_address3: undefined,
  billing_address4: undefined,
  billing_address5: undefined,
  billing_postcode: undefined,
};
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

describe('billing address', () => {
  ruleCases([
    {
      rejects: 'a billing_address object alongside billing_address1..5',
      changes: { billing_address: { country: 'GB', postal_code: 'W1F 9DE' } },
      attr: 'billing_address',
      code: 'billing_address_new_style_and_legacy',
    },
    {
      rejects: 'a non-occupier account without billing_postcode',
      changes: { billing_postcode: '' },
      attr: 'billing_postcode',
      code: 'billing_address_not_provided',
    },
    {
      rejects: 'a non-occupier account without billing_address1',
      changes: { billing_address1: undefined },
      attr: 'billing_address1',
      code: 'billing_address_not_provided',
    },
    {
      accepts: 'a billing_address object instead of the legacy lines',
      changes: { ...NO_LEGACY_BILLING, billing_address: { country: 'GB', postal_code: 'w1f9de' } },
    },
    {
      accepts: 'an occupier account without a billing address',
      changes: { ...OCCUPIER, ...NO_LEGACY_BILLING },
    },
    {
      rejects: 'an occupier billing address with lines but no first line',
      changes: { ...OCCUPIER, billing_address1: '' },
      attr: 'billing_address1',
      code: 'invalid_address',
    },
    {
      rejects: 'a GB billing_address with an invalid postcode',
      changes: { ...NO_LEGACY_BILLING, billing_address: { country: 'GB', postal_code: 'NOT A CODE' } },
      attr: 'billing_address.postal_code',
      code: 'invalid_postcode',
    },
    {
      accepts: 'a foreign billing_address postcode',
      changes: { ...NO_LEGACY_BILLING, billing_address: { country: 'FR', postal_code: '75001' } },
    },
    {
      rejects: 'a billing_address with both street_address and structured_street_address',
      changes: {
        ...NO_LEGACY_BILLING,
        billing_address: {
          country: 'GB',
          street_address: '1 A St',
          structured_street_address: { line: '1 A St' },
        },
      },
      attr: 'billing_address.structured_street_address',
      code: 'invalid_address',
    },
  ]);
});

describe('billing options', () => {
  ruleCases([
    {
      rejects: 'billing options on a domestic account',
      changes: { account_billing_options: { use_industry_billing: true } },
      attr: 'account_billing_options',
      code: 'account_billing_options_provided_for_domestic_accounts',
    },
    {
      rejects: 'industry billing together with period data',
      changes: {
        account_type: 'BUSINESS',
        account_billing_options: { use_industry_billing: true, period_length: 'MONTHLY' },
      },
      attr: 'account_billing_options.use_industry_billing',
      code: 'account_billing_options_industry_billing_with_period_data',
    },
    {
      rejects: 'billing options with neither industry billing nor period data',
      changes: { account_type: 'BUSINESS', account_billing_options: { use_industry_billing: false } },
      attr: 'account_billing_options',
      code: 'account_billing_options_period_data_required',
    },
    {
      rejects: 'business billing options with a start day but no period length',
      changes: { account_type: 'BUSINESS', account_billing_options: { period_start_day: 1 } },
      attr: 'account_billing_options.period_length',
      code: 'business_account_missing_billing_options',
    },
    {
      rejects: 'quarterly self-billing without a next bill due date',
      changes: {
        account_type: 'BUSINESS',
        next_bill_due_date: null,
        account_billing_options: { period_start_day: 1, period_length: 'QUARTERLY' },
      },
      attr: 'next_bill_due_date',
      code: 'next_bill_to_date_not_provided_for_quarterly_billing',
    },
    {
      accepts: 'business billing options with a start day and period length',
      changes: {
        account_type: 'BUSINESS',
        account_billing_options: { period_start_day: 1, period_length: 'MONTHLY' },
      },
    },
    {
      rejects: 'a smart read cycle day not in every month',
      changes: { smart_read_cycle_day: 29 },
      attr: 'smart_read_cycle_day',
      code: 'invalid_day_of_month',
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

describe('portfolios and business', () => {
  ruleCases([
    {
      rejects: 'portfolio settings on an account that is not the portfolio lead',
      changes: {
        portfolio: {
          portfolio_references: [{ namespace: 'portfolio-label', value: 'P' }],
          portfolio_settings: { collective_billing: true },
        },
      },
      attr: 'portfolio.portfolio_settings',
      code: 'portfolio_settings_included_when_not_lead',
    },
    {
      rejects: 'portfolio settings without a portfolio reference',
      changes: { portfolio: { portfolio_settings: {} } },
      attr: 'portfolio.portfolio_references',
      code: 'portfolio_references_missing',
    },
    {
      rejects: 'a portfolio reference namespace given twice',
      changes: {
        portfolio: {
          portfolio_references: [
            { namespace: 'portfolio-label', value: 'A' },
            { namespace: 'portfolio-label', value: 'B' },
          ],
        },
      },
      attr: 'portfolio.portfolio_references.1.namespace',
      code: 'duplicate_portfolio_references',
    },
    {
      rejects: 'a business detail key given twice',
      changes: {
        account_type: 'BUSINESS',
        business: {
          details: [
            { key: 'vat_number', value: '1' },
            { key: 'vat_number', value: '2' },
          ],
        },
      },
      attr: 'business.details.1.key',
      code: 'children_with_duplicate_values',
    },
    {
      rejects: 'an agreement naming a business contract the business does not declare',
      changes: {
        account_type: 'BUSINESS',
        business: { business_contract_identifiers: ['C1'] },
        'supply_addresses.0.meter_points.0.agreements.0.business_contract_identifier': 'C2',
      },
      attr: 'supply_addresses.0.meter_points.0.agreements.0.business_contract_identifier',
      code: 'agreement_business_contract_identifier_not_declared',
    },
    {
      accepts: 'an agreement naming a declared business contract',
      changes: {
        account_type: 'BUSINESS',
        business: { business_contract_identifiers: ['C1'] },
        'supply_addresses.0.meter_points.0.agreements.0.business_contract_identifier': 'C1',
      },
    },
  ]);
});
