/** Rules on the business: its details and contracts, portfolios, and no business fields on domestic accounts. */

import { type CheckContext, cleanItems, isFilled } from '../../../validation/check-context.ts';
import type { AccountFacts } from '../account-facts.ts';
import { findRepeatedIndexes } from '../rules/duplicates.ts';

export function checkPortfolios(ctx: CheckContext, facts: AccountFacts): void {
  const { payload } = facts;
  const portfolios: Array<{ path: string; portfolio: NonNullable<typeof payload.portfolio> }> = [];
  if (payload.portfolio != null && ctx.isClean('portfolio'))
    portfolios.push({ path: 'portfolio', portfolio: payload.portfolio });
  if (ctx.isClean('business')) {
    for (const { value, path } of cleanItems(ctx, payload.business?.portfolios, 'business.portfolios')) {
      portfolios.push({ path, portfolio: value });
    }
  }
  for (const { path, portfolio } of portfolios) {
    const references = portfolio.portfolio_references ?? [];
    if (portfolio.portfolio_settings != null) {
      if (!facts.isPortfolioLead) {
        ctx.report(
          `${path}.portfolio_settings`,
          'portfolio_settings_included_when_not_lead',
          'Portfolio settings belong on the portfolio lead account only.',
        );
      }
      if (references.length === 0) {
        ctx.report(
          `${path}.portfolio_references`,
          'portfolio_references_missing',
          'Portfolio settings need a portfolio reference.',
        );
      }
    }
    for (const index of findRepeatedIndexes(references, (reference) => reference.namespace)) {
      ctx.report(
        `${path}.portfolio_references.${index}.namespace`,
        'duplicate_portfolio_references',
        'Each portfolio reference namespace at most once.',
      );
    }
  }
}

export function checkBusiness(ctx: CheckContext, facts: AccountFacts): void {
  if (!ctx.isClean('business')) return;
  const business = facts.payload.business;
  for (const index of findRepeatedIndexes(business?.details ?? [], (detail) => detail.key)) {
    ctx.report(
      `business.details.${index}.key`,
      'children_with_duplicate_values',
      'Each business detail key at most once.',
    );
  }
  const declared = new Set(business?.business_contract_identifiers ?? []);
  if (isFilled(business?.business_contract_identifier)) declared.add(business.business_contract_identifier);
  for (const { point, path } of facts.meterPoints) {
    (point.agreements ?? []).forEach((agreement, k) => {
      const identifier = agreement.business_contract_identifier;
      if (isFilled(identifier) && !declared.has(identifier)) {
        ctx.report(
          `${path}.agreements.${k}.business_contract_identifier`,
          'agreement_business_contract_identifier_not_declared',
          'This contract identifier is not one of business.business_contract_identifiers.',
        );
      }
    });
  }
}

/** Business details and bespoke rates are not allowed on a domestic account. */
export function checkNoBusinessFields(ctx: CheckContext, facts: AccountFacts): void {
  const { payload } = facts;
  const detail = 'Business details are not allowed on a domestic account.';
  if (isFilled(payload.business_type))
    ctx.report('business_type', 'business_fields_provided_for_domestic_accounts', detail);
  if (isFilled(payload.company_number))
    ctx.report('company_number', 'business_fields_provided_for_domestic_accounts', detail);
  if (ctx.isClean('business') && payload.business !== undefined) {
    if (isFilled(payload.business.business_type))
      ctx.report('business.business_type', 'business_fields_provided_for_domestic_accounts', detail);
    if (isFilled(payload.business.company_number))
      ctx.report('business.company_number', 'business_fields_provided_for_domestic_accounts', detail);
  }
  for (const { point, path } of facts.meterPoints) {
    (point.agreements ?? []).forEach((agreement, k) => {
      if ((agreement.bespoke_tariff_rates?.length ?? 0) > 0) {
        ctx.report(
          `${path}.agreements.${k}.bespoke_tariff_rates`,
          'business_fields_provided_for_domestic_accounts',
          'Bespoke rates are for business accounts only.',
        );
      }
    });
  }
}
