/** `business` (its details, users and portfolios) and the account's own `portfolio`. */
import type { Static } from '@sinclair/typebox';
import * as S from '../../../validation/schema-builders.ts';
import { personFields, USER_ROLES } from '../customers/customers.schema.ts';
import { NoteSchema } from '../extras/extras.schema.ts';

/** Legal forms of a business. */
export const BUSINESS_TYPES = [
  'SOLE_TRADER',
  'LTD',
  'PTY_LTD',
  'PARTNERSHIP',
  'CHARITY',
  'PLC',
  'LLP',
  'TRUST',
  'TRADING_AS',
  'GOVERNMENT',
  'NON_PROFIT',
  'CHURCH',
  'HOMEOWNER_ASSOCIATION',
  'TBD',
] as const;

const PortfolioReferenceSchema = S.Obj({
  namespace: S.Choice(['external-portfolio-reference-id', 'portfolio-label'] as const),
  value: S.NonBlankText({ maxLength: 100 }),
});

const PortfolioSettingsSchema = S.Obj(
  {
    collective_billing: S.Opt(S.Bool({ default: false })),
    collective_payments: S.Opt(S.Bool({ default: false })),
    delegate_billing_schedule_to_children: S.Opt(S.Bool({ default: false })),
    send_collective_bill_constituent_messages: S.Opt(S.Bool({ default: false })),
  },
  { description: 'Only on a portfolio lead account.' },
);

const BusinessDetailSchema = S.Obj({
  key: S.Choice(['sic_codes', 'vat_number', 'registered_charity_number', 'ofgem_protection_label'] as const),
  value: S.AnyJson({ description: 'Type must match the registered key.' }),
});

const BusinessPortfolioSchema = S.Obj({
  billing_name: S.Opt(S.Text({ maxLength: 510 })),
  notes: S.Opt(S.List(NoteSchema)),
  portfolio_references: S.List(PortfolioReferenceSchema, { minItems: 1 }),
  portfolio_settings: S.Opt(S.Nullable(PortfolioSettingsSchema)),
});

const BusinessUserSchema = S.Obj({
  ...personFields,
  business_roles: S.List(S.Choice(USER_ROLES)),
});

/**
 * The reference has two business variants chosen by an import-supplier setting
 * (`enforce_business_contracts_exist`), not by the payload; the payload may carry the fields
 * of either, so this is their union.
 */
export const BusinessSchema = S.Obj({
  business_contract_identifier: S.Opt(
    S.Text({ description: 'Deprecated: use business_contract_identifiers.' }),
  ),
  business_contract_identifiers: S.Opt(
    S.List(S.NonBlankText(), {
      description: 'Contracts the account links to; agreements may refer to them.',
    }),
  ),
  business_type: S.Opt(S.Choice(BUSINESS_TYPES)),
  company_name: S.Opt(S.Text({ maxLength: 255 })),
  company_number: S.Opt(
    S.Text({ maxLength: 100, format: 'company-number', description: 'Companies House number; normalised.' }),
  ),
  details: S.Opt(S.List(BusinessDetailSchema, { description: 'Each key at most once.' })),
  portfolios: S.Opt(S.List(BusinessPortfolioSchema)),
  segment_name: S.Opt(S.Text({ description: 'Segment as configured for the instance.' })),
  users: S.Opt(S.List(BusinessUserSchema)),
});

export const AccountPortfolioSchema = S.Obj({
  billing_name: S.Opt(S.Text({ maxLength: 510 })),
  notes: S.Opt(S.List(NoteSchema)),
  portfolio_references: S.Opt(S.List(PortfolioReferenceSchema)),
  portfolio_settings: S.Opt(S.Nullable(PortfolioSettingsSchema)),
});

export type Business = Static<typeof BusinessSchema>;
export type BusinessUser = Static<typeof BusinessUserSchema>;
