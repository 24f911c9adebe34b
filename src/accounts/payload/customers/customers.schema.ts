/** `customers[]` and the person fields business users share with customers. */
import type { Static } from '@sinclair/typebox';
import * as S from '../../../validation/schema-builders.ts';

/** Roles a customer or business user can hold. */
export const USER_ROLES = [
  'POWER_OF_ATTORNEY',
  'NEIGHBOUR',
  'LOA_LEVEL_1',
  'LOA_LEVEL_3',
  'CARER',
  'ADMIN',
  'EXECUTOR',
  'LOA_LEVEL_2',
  'STUDENT_HOUSE',
  'FRIEND_FAMILY_MEMBER',
] as const;

/** Pronoun sets a customer can choose ("" allowed). */
export const PRONOUNS = [
  'OTHER',
  'E_EM_EIR',
  'EY_EM_EIR',
  'FAE_FAER_FAERS',
  'HE_HIM_HIS',
  'PER_PER_PERS',
  'SHE_HER_HERS',
  'THEY_THEM_THEIRS',
  'VE_VER_VIS',
  'XE_XEM_XYR',
  'ZE_HIR_HIRS',
  'ZE_ZIR_ZIRS',
  'ZIE_HIR_HIRS',
  'ZIE_ZIR_ZIRS',
  '',
] as const;

const CONSENT_VALUES = ['ACCEPTED', 'REJECTED', 'UNKNOWN', 'PENDING'] as const;
export const DECEASED_STATES = ['Reported', 'Confirmed', ''] as const;
const CREDIT_RISK_BRACKETS = ['LOW', 'MID', 'HIGH', 'UNKNOWN', ''] as const;

/** A phone number, valid for GB numbering unless written in international form. */
export const PhoneNumber = (description: string) =>
  S.Nullable(S.Text({ maxLength: 32, format: 'phone-number', default: '', description }));

export const ConsentSchema = S.Obj({
  description: S.Opt(S.Text({ maxLength: 255 })),
  signed_at: S.Opt(S.DateTime({ description: 'When the consent was given; not in the future.' })),
  type: S.NonBlankText({ description: 'Consent type as configured for the instance.' }),
  value: S.Choice(CONSENT_VALUES),
});

export const MetadataSchema = S.Obj({
  key: S.NonBlankText({ maxLength: 1024, description: 'Unique within its list.' }),
  value: S.AnyJson({ description: 'Any JSON value; stored as given.' }),
});

export const AlternativePhoneNumberSchema = S.Obj({
  phone_number: S.Opt(PhoneNumber('An additional contact number.')),
});

export const UserDetailSchema = S.Obj({
  namespace: S.Choice(['external_user_id'] as const),
  value: S.AnyJson(),
});

const PreferencesSchema = S.Obj(
  {
    is_user_psr_consent_obtained: S.Opt(S.Nullable(S.Bool())),
    opted_into_associated_companies: S.Opt(S.Bool({ default: false })),
    opted_into_offers: S.Opt(S.Bool({ default: false })),
    opted_into_recommended: S.Opt(S.Bool({ default: true })),
    opted_into_sms: S.Opt(S.Bool({ default: false })),
    opted_into_third_parties: S.Opt(S.Bool({ default: false })),
    opted_into_updates: S.Opt(S.Bool({ default: false })),
    opted_into_whatsapp: S.Opt(S.Bool({ default: false })),
    partner_password: S.Opt(S.Text({ maxLength: 10, default: '' })),
  },
  { description: 'Deprecated: use consents. Marketing preferences.' },
);

const PsrSchema = S.Obj({
  additional_information: S.Opt(S.Nullable(S.Text({ default: '' }))),
  description: S.Opt(S.Nullable(S.Text({ default: '', description: 'A known PSR category description.' }))),
  effective_from: S.Opt(S.Text({ format: 'date-or-date-time', description: 'A date or a date-time.' })),
  effective_to: S.Opt(S.Nullable(S.DateTime({ description: 'Required for temporary PSR categories.' }))),
  elec_industry_code: S.Opt(
    S.Nullable(
      S.Text({ default: '', format: 'psr-industry-code', description: 'Two-digit J1699 needs code.' }),
    ),
  ),
  gas_industry_code: S.Opt(
    S.Nullable(
      S.Text({ default: '', format: 'psr-industry-code', description: 'Two-digit J1699 needs code.' }),
    ),
  ),
});

/** Fields a customer and a business user both carry. */
export const personFields = {
  alternative_phone_numbers: S.Opt(S.List(AlternativePhoneNumberSchema)),
  contact_emails: S.Opt(S.List(S.Text({ format: 'email' }), { description: 'Extra e-mail addresses.' })),
  credit_assessment_id: S.Opt(S.Nullable(S.Text())),
  credit_result: S.Opt(S.Nullable(S.Text())),
  credit_risk_bracket: S.Opt(S.Nullable(S.Choice(CREDIT_RISK_BRACKETS))),
  credit_score: S.Opt(S.Nullable(S.Int({ minimum: 0, maximum: 9999 }))),
  date_of_birth: S.Opt(S.Nullable(S.CalendarDate())),
  deceased: S.Opt(S.Choice(DECEASED_STATES, { default: '' })),
  details: S.Opt(S.AnyJsonOrNull({ description: 'Deprecated: use user_details.' })),
  email: S.Opt(
    S.Nullable(
      S.Text({
        maxLength: 254,
        format: 'customer-email',
        description: 'Test-looking addresses are rejected.',
      }),
    ),
  ),
  family_name: S.Opt(S.Text({ maxLength: 255, default: '' })),
  given_name: S.Opt(S.Text({ maxLength: 255, default: '' })),
  label: S.Opt(S.Nullable(S.Text())),
  landline: S.Opt(PhoneNumber('Landline number.')),
  mobile: S.Opt(PhoneNumber('Mobile number.')),
  salutation: S.Opt(S.Nullable(S.Text({ maxLength: 128, default: '' }))),
  title: S.Opt(S.Nullable(S.Text({ maxLength: 20, default: '' }))),
  unable_to_read_meters: S.Opt(S.Bool({ default: false })),
  user_details: S.Opt(S.List(UserDetailSchema, { description: 'Namespaced identifiers of the person.' })),
};

export const CustomerSchema = S.Obj({
  ...personFields,
  account_roles: S.Opt(S.List(S.Choice(USER_ROLES))),
  consents: S.Opt(S.List(ConsentSchema, { description: 'Each consent type at most once.' })),
  customer_preferences: S.Opt(PreferencesSchema),
  metadata: S.Opt(S.List(MetadataSchema)),
  portfolio_roles: S.Opt(S.List(S.Choice(USER_ROLES))),
  pronouns: S.Opt(S.Nullable(S.Choice(PRONOUNS, { default: '' }))),
  psr: S.Opt(S.List(PsrSchema, { description: 'Priority Services Register needs.' })),
  role: S.Opt(S.Nullable(S.Choice(USER_ROLES, { description: 'Deprecated: use portfolio_roles.' }))),
  user_identifier: S.Opt(
    S.Text({ description: 'Key other parts of the payload use to refer to this customer.' }),
  ),
});

export type Customer = Static<typeof CustomerSchema>;
export type Metadata = Static<typeof MetadataSchema>;
