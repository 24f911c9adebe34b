/** `business` (its details, users and portfolios) and the account's own `portfolio`. */
import type { Static } from '@sinclair/typebox';
import { personFields, USER_ROLES } from '../customers/customers.schema.ts';
import { NoteSchema } from '../extras/extras.schema.ts';
import {
  AnyJson,
  Bool,
  Choice,
  List,
  NonBlankText,
  Nullable,
  Obj,
  Opt,
  Text,
} from '../validation/schema-builders.ts';

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

const PortfolioReferenceSchema = Obj({
  namespace: Choice(['external-portfolio-reference-id', 'portfolio-label'] as const),
  value: NonBlankText({ maxLength: 100 }),
});

const PortfolioSettingsSchema = Obj(
  {
    collective_billing: Opt(Bool({ default: false })),
    collective_payments: Opt(Bool({ default: false })),
    delegate_billing_schedule_to_children: Opt(Bool({ default: false })),
    send_collective_bill_constituent_messages: Opt(Bool({ default: false })),
  },
  { description: 'Only on a portfolio lead account.' },
);

const BusinessDetailSchema = Obj({
  key: Choice(['sic_codes', 'vat_number', 'registered_charity_number', 'ofgem_protection_label'] as const),
  value: AnyJson({ description: 'Type must match the registered key.' }),
});

const BusinessPortfolioSchema = Obj({
  billing_name: Opt(Text({ maxLength: 510 })),
  notes: Opt(List(NoteSchema)),
  portfolio_references: List(PortfolioReferenceSchema, { minItems: 1 }),
  portfolio_settings: Opt(Nullable(PortfolioSettingsSchema)),
});

const BusinessUserSchema = Obj({
  ...personFields,
  business_roles: List(Choice(USER_ROLES)),
});

/**
 * The reference has two business variants chosen by an import-supplier setting
 * (`enforce_business_contracts_exist`), not by the payload; the payload may carry the fields
 * of either, so this is their union.
 */
export const BusinessSchema = Obj({
  business_contract_identifier: Opt(Text({ description: 'Deprecated: use business_contract_identifiers.' })),
  business_contract_identifiers: Opt(
    List(NonBlankText(), { description: 'Contracts the account links to; agreements may refer to them.' }),
  ),
  business_type: Opt(Choice(BUSINESS_TYPES)),
  company_name: Opt(Text({ maxLength: 255 })),
  company_number: Opt(
    Text({ maxLength: 100, format: 'company-number', description: 'Companies House number; normalised.' }),
  ),
  details: Opt(List(BusinessDetailSchema, { description: 'Each key at most once.' })),
  portfolios: Opt(List(BusinessPortfolioSchema)),
  segment_name: Opt(Text({ description: 'Segment as configured for the instance.' })),
  users: Opt(List(BusinessUserSchema)),
});

export const AccountPortfolioSchema = Obj({
  billing_name: Opt(Text({ maxLength: 510 })),
  notes: Opt(List(NoteSchema)),
  portfolio_references: Opt(List(PortfolioReferenceSchema)),
  portfolio_settings: Opt(Nullable(PortfolioSettingsSchema)),
});

export type Business = Static<typeof BusinessSchema>;
export type BusinessUser = Static<typeof BusinessUserSchema>;
