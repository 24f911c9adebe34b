import { describe } from 'node:test';
import { ruleCases } from '../support/rule-cases.ts';

describe('customers', () => {
  ruleCases([
    {
      rejects: 'a domestic customer without a family name',
      changes: { 'customers.0.family_name': '' },
      attr: 'customers.0.family_name',
      code: 'customer_family_name_required',
    },
    {
      accepts: 'a business customer without a family name',
      changes: { account_type: 'BUSINESS', 'customers.0.family_name': undefined },
    },
    {
      rejects: 'a customer named "The Occupier"',
      changes: { 'customers.0.given_name': 'The', 'customers.0.family_name': 'Occupier' },
      attr: 'customers.0.family_name',
      code: 'customer_may_not_be_named_the_occupier',
    },
    {
      rejects: 'contact details on a customer named "The Occupier"',
      changes: { 'customers.0.given_name': '', 'customers.0.family_name': 'the occupier' },
      attr: 'customers.0.email',
      code: 'contact_details_for_occupier',
    },
    {
      rejects: 'both the deprecated details and user_details',
      changes: {
        'customers.0.details': { external_user_id: 'u1' },
        'customers.0.user_details': [{ namespace: 'external_user_id', value: 'u1' }],
      },
      attr: 'customers.0.user_details',
      code: 'customer_details_and_user_details_both_provided',
    },
    {
      rejects: 'two customers with the same external_user_id',
      changes: {
        'customers.0.user_details': [{ namespace: 'external_user_id', value: 'u1' }],
        'customers.1': {
          family_name: 'Smith',
          user_details: [{ namespace: 'external_user_id', value: 'u1' }],
        },
      },
      attr: 'customers.1.user_details.0.value',
      code: 'repeated_values_for_unique_customer_detail_namespace',
    },
    {
      rejects: 'a metadata key given twice on a customer',
      changes: {
        'customers.0.metadata': [
          { key: 'a', value: 1 },
          { key: 'a', value: 2 },
        ],
      },
      attr: 'customers.0.metadata.1.key',
      code: 'metadata_has_duplicate_keys',
    },
    {
      rejects: 'a metadata key given twice on the account',
      changes: { 'metadata.1': { key: 'metadata_key', value: 'x' } },
      attr: 'metadata.1.key',
      code: 'metadata_has_duplicate_keys',
    },
    {
      rejects: 'consents alongside the deprecated customer_preferences',
      changes: { 'customers.0.consents': [{ type: 'MARKETING', value: 'ACCEPTED' }] },
      attr: 'customers.0.consents',
      code: 'fields_are_mutually_exclusive',
    },
    {
      rejects: 'a consent type given twice',
      changes: {
        'customers.0.customer_preferences': undefined,
        'customers.0.consents': [
          { type: 'SMS', value: 'ACCEPTED' },
          { type: 'SMS', value: 'REJECTED' },
        ],
      },
      attr: 'customers.0.consents.1.type',
      code: 'children_with_duplicate_values',
    },
    {
      rejects: 'a consent signed in the future',
      changes: { consents: [{ type: 'SMS', value: 'ACCEPTED', signed_at: '2025-06-02T00:00:00Z' }] },
      attr: 'consents.0.signed_at',
      code: 'date_in_future',
    },
    {
      rejects: 'an explicitly empty role list with no account roles',
      changes: { 'customers.0.portfolio_roles': [] },
      attr: 'customers.0.portfolio_roles',
      code: 'required_user_role',
    },
    { accepts: 'a customer without roles, who gets the default role', changes: {} },
    {
      accepts: 'an empty portfolio role list when account roles are given',
      changes: { 'customers.0.portfolio_roles': [], 'customers.0.account_roles': ['ADMIN'] },
    },
    {
      rejects: 'a PSR need with neither industry code',
      changes: {
        'customers.0.psr.0': {
          elec_industry_code: '',
          gas_industry_code: null,
          effective_from: '2012-01-01',
        },
      },
      attr: 'customers.0.psr.0.elec_industry_code',
      code: 'psr_industry_code_not_provided',
    },
    {
      accepts: 'a PSR effective_from given as a date-time',
      changes: { 'customers.0.psr.0.effective_from': '2012-01-01T00:00:00Z' },
    },
    {
      rejects: 'a business user with both details and user_details',
      changes: {
        account_type: 'BUSINESS',
        business: {
          users: [
            {
              business_roles: ['ADMIN'],
              details: {},
              user_details: [{ namespace: 'external_user_id', value: 'u' }],
            },
          ],
        },
      },
      attr: 'business.users.0.user_details',
      code: 'customer_details_and_user_details_both_provided',
    },
  ]);
});
