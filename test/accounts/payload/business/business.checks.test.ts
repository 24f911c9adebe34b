import { describe } from 'node:test';
import { ruleCases } from '../support/rule-cases.ts';

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
