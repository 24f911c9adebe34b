/** `customers[]` and the person fields business users share with customers. */
import type { Static } from '@sinclair/typebox';
import {
  AnyJson,
  AnyJsonOrNull,
  Bool,
  CalendarDate,
  Choice,
  DateTime,
  Int,
  List,
  NonBlankText,
  Nullable,
  Obj,
  Opt,
  Text,
} from '../validation/schema-builders.ts';

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
  Nullable(Text({ maxLength: 32, format: 'phone-number', default: '', description }));

export const ConsentSchema = Obj({
  description: Opt(Text({ maxLength: 255 })),
  signed_at: Opt(DateTime({ description: 'When the consent was given; not in the future.' })),
  type: NonBlankText({ description: 'Consent type as configured for the instance.' }),
  value: Choice(CONSENT_VALUES),
});

export const MetadataSchema = Obj({
  key: NonBlankText({ maxLength: 1024, description: 'Unique within its list.' }),
  value: AnyJson({ description: 'Any JSON value; stored as given.' }),
});

export const AlternativePhoneNumberSchema = Obj({
  phone_number: Opt(PhoneNumber('An additional contact number.')),
});

export const UserDetailSchema = Obj({
  namespace: Choice(['external_user_id'] as const),
  value: AnyJson(),
});

const PreferencesSchema = Obj(
  {
    is_user_psr_consent_obtained: Opt(Nullable(Bool())),
    opted_into_associated_companies: Opt(Bool({ default: false })),
    opted_into_offers: Opt(Bool({ default: false })),
    opted_into_recommended: Opt(Bool({ default: true })),
    opted_into_sms: Opt(Bool({ default: false })),
    opted_into_third_parties: Opt(Bool({ default: false })),
    opted_into_updates: Opt(Bool({ default: false })),
    opted_into_whatsapp: Opt(Bool({ default: false })),
    partner_password: Opt(Text({ maxLength: 10, default: '' })),
  },
  { description: 'Deprecated: use consents. Marketing preferences.' },
);

const PsrSchema = Obj({
  additional_information: Opt(Nullable(Text({ default: '' }))),
  description: Opt(Nullable(Text({ default: '', description: 'A known PSR category description.' }))),
  effective_from: Opt(Text({ format: 'date-or-date-time', description: 'A date or a date-time.' })),
  effective_to: Opt(Nullable(DateTime({ description: 'Required for temporary PSR categories.' }))),
  elec_industry_code: Opt(
    Nullable(Text({ default: '', format: 'psr-industry-code', description: 'Two-digit J1699 needs code.' })),
  ),
  gas_industry_code: Opt(
    Nullable(Text({ default: '', format: 'psr-industry-code', description: 'Two-digit J1699 needs code.' })),
  ),
});

/** Fields a customer and a business user both carry. */
export const personFields = {
  alternative_phone_numbers: Opt(List(AlternativePhoneNumberSchema)),
  contact_emails: Opt(List(Text({ format: 'email' }), { description: 'Extra e-mail addresses.' })),
  credit_assessment_id: Opt(Nullable(Text())),
  credit_result: Opt(Nullable(Text())),
  credit_risk_bracket: Opt(Nullable(Choice(CREDIT_RISK_BRACKETS))),
  credit_score: Opt(Nullable(Int({ minimum: 0, maximum: 9999 }))),
  date_of_birth: Opt(Nullable(CalendarDate())),
  deceased: Opt(Choice(DECEASED_STATES, { default: '' })),
  details: Opt(AnyJsonOrNull({ description: 'Deprecated: use user_details.' })),
  email: Opt(
    Nullable(
      Text({ maxLength: 254, format: 'customer-email', description: 'Test-looking addresses are rejected.' }),
    ),
  ),
  family_name: Opt(Text({ maxLength: 255, default: '' })),
  given_name: Opt(Text({ maxLength: 255, default: '' })),
  label: Opt(Nullable(Text())),
  landline: Opt(PhoneNumber('Landline number.')),
  mobile: Opt(PhoneNumber('Mobile number.')),
  salutation: Opt(Nullable(Text({ maxLength: 128, default: '' }))),
  title: Opt(Nullable(Text({ maxLength: 20, default: '' }))),
  unable_to_read_meters: Opt(Bool({ default: false })),
  user_details: Opt(List(UserDetailSchema, { description: 'Namespaced identifiers of the person.' })),
};

export const CustomerSchema = Obj({
  ...personFields,
  account_roles: Opt(List(Choice(USER_ROLES))),
  consents: Opt(List(ConsentSchema, { description: 'Each consent type at most once.' })),
  customer_preferences: Opt(PreferencesSchema),
  metadata: Opt(List(MetadataSchema)),
  portfolio_roles: Opt(List(Choice(USER_ROLES))),
  pronouns: Opt(Nullable(Choice(PRONOUNS, { default: '' }))),
  psr: Opt(List(PsrSchema, { description: 'Priority Services Register needs.' })),
  role: Opt(Nullable(Choice(USER_ROLES, { description: 'Deprecated: use portfolio_roles.' }))),
  user_identifier: Opt(
    Text({ description: 'Key other parts of the payload use to refer to this customer.' }),
  ),
});

export type Customer = Static<typeof CustomerSchema>;
export type Metadata = Static<typeof MetadataSchema>;
