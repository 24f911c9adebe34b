/** Rules on billing set-up: billing options and the smart read day; statements, debts and deposits. */

import { type CheckContext, cleanItems, count, isFilled } from '../../../validation/check-context.ts';
import type { AccountFacts } from '../account-facts.ts';
import { findRepeatedIndexes } from '../rules/duplicates.ts';
import { isDayOfEveryMonth } from '../rules/industry-identifiers.ts';

export function checkBillingOptions(ctx: CheckContext, facts: AccountFacts): void {
  const { payload } = facts;
  const options = payload.account_billing_options;
  if (options !== undefined && ctx.isClean('account_billing_options')) {
    if (!facts.isBusiness) {
      ctx.report(
        'account_billing_options',
        'account_billing_options_provided_for_domestic_accounts',
        'Billing options are for business accounts only.',
      );
    }
    const hasDay = options.period_start_day != null;
    const hasLength = options.period_length != null;
    if (options.use_industry_billing === true && (hasDay || hasLength)) {
      ctx.report(
        'account_billing_options.use_industry_billing',
        'account_billing_options_industry_billing_with_period_data',
        'With industry billing, period_start_day and period_length must not be given.',
      );
    } else if (options.use_industry_billing !== true && !hasDay && !hasLength) {
      ctx.report(
        'account_billing_options',
        'account_billing_options_period_data_required',
        'Give period_start_day and period_length, or use industry billing.',
      );
    } else if (options.use_industry_billing !== true && facts.isBusiness && hasDay !== hasLength) {
      const missing = hasDay ? 'period_length' : 'period_start_day';
      ctx.report(
        `account_billing_options.${missing}`,
        'business_account_missing_billing_options',
        'Business billing options need both period_start_day and period_length.',
      );
    }
    if (
      options.use_industry_billing !== true &&
      options.period_length === 'QUARTERLY' &&
      payload.next_bill_due_date == null
    ) {
      ctx.report(
        'next_bill_due_date',
        'next_bill_to_date_not_provided_for_quarterly_billing',
        'Quarterly billing without industry billing needs next_bill_due_date.',
      );
    }
  }
  if (payload.smart_read_cycle_day !== undefined && !isDayOfEveryMonth(payload.smart_read_cycle_day)) {
    ctx.report('smart_read_cycle_day', 'invalid_day_of_month', 'Use a day of the month from 1 to 28.');
  }
}

/**
 * Statements need their PDF, a real bill period and their own statement_id (the account stores
 * one statement per id); a debt with an agency names it; one deposit at most.
 */
export function checkBillingRecords(ctx: CheckContext, { payload }: AccountFacts): void {
  const statements = cleanItems(ctx, payload.statements, 'statements');
  for (const index of findRepeatedIndexes(statements, (s) => s.value.statement_id)) {
    ctx.report(
      `${statements[index].path}.statement_id`,
      'children_with_duplicate_values',
      'Another statement of this account has this statement_id.',
    );
  }
  for (const { value, path } of statements) {
    if (!isFilled(value.statement_path)) {
      ctx.report(
        `${path}.statement_path`,
        'missing_statement_path_or_pdf_context',
        'A statement needs the path of its PDF.',
      );
    }
    if (value.bill_period_to_date < value.bill_period_from_date) {
      ctx.report(
        `${path}.bill_period_to_date`,
        'start_date_later_than_end_date',
        'The bill period ends before it starts.',
      );
    }
  }
  const debts: Array<{ value: NonNullable<typeof payload.debt>; path: string }> = cleanItems(
    ctx,
    payload.debts,
    'debts',
  );
  if (payload.debt !== undefined && ctx.isClean('debt')) debts.push({ value: payload.debt, path: 'debt' });
  for (const { value, path } of debts) {
    if (value.start_date !== undefined && !isFilled(value.agency_name)) {
      ctx.report(
        `${path}.agency_name`,
        'debt_collection_agency_name_required',
        'A debt placed with an agency (start_date) names the agency.',
      );
    }
  }
  const deposits = cleanItems(ctx, payload.deposit_agreements, 'deposit_agreements');
  if (count(payload.deposit_agreements) > 1) {
    ctx.report(
      'deposit_agreements.1',
      'multiple_active_deposits_not_allowed',
      'Only one deposit agreement can be migrated.',
    );
  }
  for (const { value, path } of deposits) {
    if (value.last_interest_date == null) continue;
    if (value.fulfilled_at == null) {
      ctx.report(
        `${path}.last_interest_date`,
        'last_interest_date_not_allowed',
        'Only a fulfilled deposit has a last interest date.',
      );
    } else if (value.fulfilled_at.slice(0, 10) > value.last_interest_date) {
      ctx.report(
        `${path}.fulfilled_at`,
        'fulfilled_at_greater_than_last_interest_date',
        'The deposit was fulfilled after its last interest date.',
      );
    }
  }
}
