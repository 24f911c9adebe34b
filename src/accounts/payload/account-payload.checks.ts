/** Account-level rules: account type, billing address and options, occupiers, portfolios, debts. */

import type { AccountFacts } from './account-facts.ts';
import { isGbPostcode } from './addresses/gb-postcode.ts';
import { type CheckContext, cleanItems, count, isFilled } from './validation/check-context.ts';
import { findRepeatedIndexes } from './validation/duplicates.ts';
import { isDayOfEveryMonth } from './validation/industry-identifiers.ts';

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

const LEGACY_BILLING_FIELDS = [
  'billing_address2',
  'billing_address3',
  'billing_address4',
  'billing_address5',
  'billing_postcode',
] as const;

export function checkBillingAddress(ctx: CheckContext, facts: AccountFacts): void {
  const { payload } = facts;
  const legacyGiven =
    isFilled(payload.billing_address1) || LEGACY_BILLING_FIELDS.some((f) => isFilled(payload[f]));
  if (payload.billing_address !== undefined && legacyGiven) {
    ctx.report(
      'billing_address',
      'billing_address_new_style_and_legacy',
      'Send billing_address or billing_address1..5 and billing_postcode, not both.',
    );
    return;
  }
  if (payload.billing_address !== undefined) {
    if (ctx.isClean('billing_address')) checkAddressObject(ctx, payload.billing_address);
    return;
  }
  if (!facts.isOccupier) {
    for (const field of ['billing_address1', 'billing_postcode'] as const) {
      if (!isFilled(payload[field])) {
        ctx.report(
          field,
          'billing_address_not_provided',
          'Accounts other than occupier accounts need billing_address1 and billing_postcode.',
        );
      }
    }
  } else if (legacyGiven && !isFilled(payload.billing_address1)) {
    ctx.report('billing_address1', 'invalid_address', 'A billing address starts with billing_address1.');
  }
}

function checkAddressObject(
  ctx: CheckContext,
  address: NonNullable<AccountFacts['payload']['billing_address']>,
): void {
  if (
    address.country.toUpperCase() === 'GB' &&
    isFilled(address.postal_code) &&
    !isGbPostcode(address.postal_code)
  ) {
    ctx.report('billing_address.postal_code', 'invalid_postcode', 'Enter a valid UK postcode.');
  }
  if (isFilled(address.street_address) && address.structured_street_address != null) {
    ctx.report(
      'billing_address.structured_street_address',
      'invalid_address',
      'Send street_address or structured_street_address, not both.',
    );
  }
}

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

function checkNoBusinessFields(ctx: CheckContext, facts: AccountFacts): void {
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
