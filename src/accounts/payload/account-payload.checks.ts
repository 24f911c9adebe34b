/**
 * Account-level rules: one account type, and what each kind of account (occupier, portfolio lead,
 * system, business, domestic) may carry. Rules on one part of the account live in its subject folder.
 */

import { type CheckContext, count, isFilled } from '../../validation/check-context.ts';
import type { AccountFacts } from './account-facts.ts';
import { checkNoBusinessFields } from './business/business.checks.ts';

export function checkAccountType(ctx: CheckContext, facts: AccountFacts): void {
  const { payload } = facts;
  const selected = new Set<string>();
  if (payload.account_type !== undefined) selected.add(payload.account_type);
  if (payload.is_managed === true) selected.add('MANAGED');
  if (payload.is_portfolio_lead === true) selected.add('PORTFOLIO_LEAD');
  if (selected.size > 1) {
    const where = payload.account_type !== undefined ? 'account_type' : 'is_portfolio_lead';
    ctx.report(
      where,
      'multiple_account_types_selected',
      `Only one account type may be selected; got ${[...selected].join(', ')}.`,
    );
  }
}

export function checkAccountKindRules(ctx: CheckContext, facts: AccountFacts): void {
  const { payload } = facts;
  const customerCount = count(payload.customers);
  const addressCount = count(payload.supply_addresses);
  if (payload.unknown_occupier === true && customerCount > 0) {
    ctx.report(
      'customers',
      'customer_with_unknown_occupier',
      'An unknown occupier account has no customers.',
    );
  }
  if (facts.isOccupier && addressCount > 1) {
    ctx.report(
      'supply_addresses.1',
      'occupier_account_with_multiple_supply_addresses',
      'An occupier account has at most one supply address.',
    );
  }
  if (facts.isOccupier && isFilled(payload.dd_reference)) {
    ctx.report(
      'dd_reference',
      'dd_reference_for_occupier_account',
      'A direct debit reference implies a known customer, not an occupier.',
    );
  }
  if (facts.isPortfolioLead && addressCount > 0) {
    ctx.report(
      'supply_addresses',
      'portfolio_lead_has_a_supply_address',
      'A portfolio lead account has no supply addresses.',
    );
  }
  if (facts.isSystem && addressCount > 0) {
    ctx.report(
      'supply_addresses',
      'system_account_has_a_supply_address',
      'A system account has no supply addresses.',
    );
  }
  if (facts.isBusiness && customerCount === 0) {
    ctx.report(
      'customers',
      'business_account_missing_customers',
      'A business account needs at least one customer.',
    );
  }
  if (facts.isDomestic) checkNoBusinessFields(ctx, facts);
  if (!facts.isBusiness) checkNoTaxExemptions(ctx, facts);
  if (count(payload.debts) > 0 && payload.debt !== undefined) {
    ctx.report(
      'debt',
      'debt_and_debts_are_defined',
      'Send debts; the deprecated debt cannot be combined with it.',
    );
  }
  if (count(payload.payment_adequacy_changes) > 0 && payload.last_payment_review_date != null) {
    ctx.report(
      'last_payment_review_date',
      'payment_adequacy_changes_and_last_payment_review_date_provided',
      'Send payment_adequacy_changes or last_payment_review_date, not both.',
    );
  }
  if (payload.last_payment_review_date != null && payload.last_payment_review_date > ctx.today) {
    ctx.report(
      'last_payment_review_date',
      'last_payment_review_date_is_future_dated',
      'The last payment review cannot be in the future.',
    );
  }
}

/** Tax exemptions are for business accounts only (any other kind, not just domestic ones). */
function checkNoTaxExemptions(ctx: CheckContext, facts: AccountFacts): void {
  for (const { point, path } of facts.meterPoints) {
    for (const list of ['ccl_exemptions', 'vat_exemptions'] as const) {
      if ((point[list]?.length ?? 0) > 0) {
        ctx.report(
          `${path}.${list}`,
          'tax_exemptions_provided_for_domestic_account',
          'Tax exemptions are for business accounts only.',
        );
      }
    }
  }
}
