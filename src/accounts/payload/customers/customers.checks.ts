/** Rules on customers, business users and the account's own consents and metadata. */

import { type CheckContext, cleanItems, isFilled } from '../../../validation/check-context.ts';
import { calendarDateOf } from '../../../vocabulary/calendar-date.ts';
import type { AccountFacts } from '../account-facts.ts';
import type { BusinessUser } from '../business/business.schema.ts';
import { compositeKey, findRepeatedIndexes } from '../rules/duplicates.ts';
import type { Customer, Metadata } from './customers.schema.ts';

type Person = Customer | BusinessUser;

export function checkCustomers(ctx: CheckContext, facts: AccountFacts): void {
  const { payload } = facts;
  const externalIds: Array<{ key: string; path: string }> = [];
  for (const { value: customer, path } of cleanItems(ctx, payload.customers, 'customers')) {
    checkPerson(ctx, customer, path);
    if (facts.isDomestic && !isFilled(customer.family_name)) {
      ctx.report(
        `${path}.family_name`,
        'customer_family_name_required',
        'Customers on a domestic account need a family name.',
      );
    }
    checkMetadataKeys(ctx, customer.metadata, `${path}.metadata`);
    checkConsents(ctx, customer.consents, `${path}.consents`);
    if (customer.customer_preferences !== undefined && (customer.consents?.length ?? 0) > 0) {
      ctx.report(
        `${path}.consents`,
        'fields_are_mutually_exclusive',
        'Send consents or the deprecated customer_preferences, not both.',
      );
    }
    // An absent portfolio_roles falls back to the supplier's default role; an explicit empty list does not.
    if (
      Array.isArray(customer.portfolio_roles) &&
      customer.portfolio_roles.length === 0 &&
      (customer.account_roles?.length ?? 0) === 0
    ) {
      ctx.report(
        `${path}.portfolio_roles`,
        'required_user_role',
        'A customer needs at least one role in portfolio_roles or account_roles.',
      );
    }
    (customer.psr ?? []).forEach((need, k) => {
      if (!isFilled(need.elec_industry_code) && !isFilled(need.gas_industry_code)) {
        ctx.report(
          `${path}.psr.${k}.elec_industry_code`,
          'psr_industry_code_not_provided',
          'A PSR need has an electricity or a gas industry code.',
        );
      }
    });
    (customer.user_details ?? []).forEach((detail, k) => {
      externalIds.push({
        key: compositeKey(detail.namespace, JSON.stringify(detail.value)),
        path: `${path}.user_details.${k}.value`,
      });
    });
  }
  for (const index of findRepeatedIndexes(externalIds, (entry) => entry.key)) {
    ctx.report(
      externalIds[index].path,
      'repeated_values_for_unique_customer_detail_namespace',
      'Another customer already has this external_user_id.',
    );
  }
  if (ctx.isClean('business')) {
    for (const { value: user, path } of cleanItems(ctx, payload.business?.users, 'business.users'))
      checkPerson(ctx, user, path);
  }
  checkMetadataKeys(ctx, payload.metadata, 'metadata');
  checkConsents(ctx, payload.consents, 'consents');
}

const OCCUPIER_NAME = 'the occupier';
const CONTACT_FIELDS = ['email', 'mobile', 'landline'] as const;

function checkPerson(ctx: CheckContext, person: Person, path: string): void {
  if (person.details != null && (person.user_details?.length ?? 0) > 0) {
    ctx.report(
      `${path}.user_details`,
      'customer_details_and_user_details_both_provided',
      'Send user_details or the deprecated details, not both.',
    );
  }
  const fullName = `${person.given_name ?? ''} ${person.family_name ?? ''}`
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
  if (fullName === OCCUPIER_NAME || person.family_name?.trim().toLowerCase() === OCCUPIER_NAME) {
    ctx.report(
      `${path}.family_name`,
      'customer_may_not_be_named_the_occupier',
      'Use unknown_occupier on the account instead of a customer named "The Occupier".',
    );
    const contact = CONTACT_FIELDS.find((field) => isFilled(person[field]));
    if (contact !== undefined) {
      ctx.report(
        `${path}.${contact}`,
        'contact_details_for_occupier',
        'An occupier has no contact details: with them the customer is known.',
      );
    }
  }
}

export function checkMetadataKeys(
  ctx: CheckContext,
  metadata: readonly Metadata[] | undefined,
  path: string,
): void {
  if (!ctx.isClean(path)) return;
  for (const index of findRepeatedIndexes(metadata ?? [], (entry) => entry.key)) {
    ctx.report(`${path}.${index}.key`, 'metadata_has_duplicate_keys', 'Each metadata key at most once.');
  }
}

function checkConsents(ctx: CheckContext, consents: Customer['consents'], path: string): void {
  if (!ctx.isClean(path)) return;
  for (const index of findRepeatedIndexes(consents ?? [], (consent) => consent.type)) {
    ctx.report(`${path}.${index}.type`, 'children_with_duplicate_values', 'Each consent type at most once.');
  }
  (consents ?? []).forEach((consent, k) => {
    if (consent.signed_at !== undefined && calendarDateOf(consent.signed_at) > ctx.today) {
      ctx.report(`${path}.${k}.signed_at`, 'date_in_future', 'A consent cannot be signed in the future.');
    }
  });
}
