import { describe } from 'node:test';
import { ruleCases } from '../support/rule-cases.ts';

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

describe('statements, debts, deposits', () => {
  ruleCases([
    {
      rejects: 'a statement without its PDF path',
      changes: { 'statements.0.statement_path': undefined },
      attr: 'statements.0.statement_path',
      code: 'missing_statement_path_or_pdf_context',
    },
    {
      rejects: 'a bill period ending before it starts',
      changes: { 'statements.0.bill_period_to_date': '2019-05-31' },
      attr: 'statements.0.bill_period_to_date',
      code: 'start_date_later_than_end_date',
    },
    {
      // The account keeps one statement per id: a repeat answered 201, then ERRORED in the worker.
      rejects: 'two statements with one statement_id',
      changes: { 'statements.1.statement_id': '54321' },
      attr: 'statements.1.statement_id',
      code: 'children_with_duplicate_values',
    },
    {
      rejects: 'a debt placed with an agency without naming it',
      changes: { 'debts.0.agency_name': '' },
      attr: 'debts.0.agency_name',
      code: 'debt_collection_agency_name_required',
    },
    {
      rejects: 'two deposit agreements',
      changes: {
        deposit_agreements: [
          { deposit_amount: '1', reason: 'r' },
          { deposit_amount: '2', reason: 'r' },
        ],
      },
      attr: 'deposit_agreements.1',
      code: 'multiple_active_deposits_not_allowed',
    },
    {
      rejects: 'a last interest date on an unfulfilled deposit',
      changes: {
        deposit_agreements: [{ deposit_amount: '1', reason: 'r', last_interest_date: '2020-01-01' }],
      },
      attr: 'deposit_agreements.0.last_interest_date',
      code: 'last_interest_date_not_allowed',
    },
    {
      rejects: 'a deposit fulfilled after its last interest date',
      changes: {
        deposit_agreements: [
          {
            deposit_amount: '1',
            reason: 'r',
            fulfilled_at: '2020-01-02T00:00:00Z',
            last_interest_date: '2020-01-01',
          },
        ],
      },
      attr: 'deposit_agreements.0.fulfilled_at',
      code: 'fulfilled_at_greater_than_last_interest_date',
    },
  ]);
});
