/**
 * Account-level lists that stand alone: notes (also on portfolios), campaigns, commissions,
 * complaints, contributions, partners, references, Warm Home Discount and FiT details.
 */

import type { Static } from '@sinclair/typebox';
import { PAYMENT_VENDORS } from '../payments/payments.schema.ts';
import {
  Bool,
  CalendarDate,
  Choice,
  DateTime,
  Decimal,
  Int,
  List,
  NonBlankText,
  Nullable,
  Obj,
  Opt,
  Text,
} from '../validation/schema-builders.ts';

/** Why FiT payments to an installation are held. */
const FIT_CREDIT_HOLD_REASONS = [
  'HAS_NOMINATED_RECIPIENT',
  'INVOLVED_IN_COO',
  'SWITCH_LOSS',
  'LINKED_TO_WRONG_ACCOUNT',
  'PAID_INCORRECTLY',
  'MIGRATED_IN_DISPUTE',
  'AWAITING_SIGNED_FIT_PLAN',
  'CLOSED_INSTALLATION',
  'NEEDS_MANUAL_PAYMENT',
  'BIENNIAL_DISPUTES',
  'OTHER',
] as const;

const NoteDocumentSchema = Obj({
  document_path: NonBlankText({
    format: 'document-path',
    description: 'Path of an uploaded file, relative to the supplier document root.',
  }),
});

export const NoteSchema = Obj({
  body: Opt(Text({ description: 'Note text; a note needs a body or document paths.' })),
  created_at: Opt(DateTime()),
  document_paths: Opt(List(NoteDocumentSchema)),
  external_id: Opt(Text({ description: 'Source-system id, used to de-duplicate notes.' })),
  is_archived: Opt(Bool()),
  is_pinned: Opt(Bool()),
  unpin_at: Opt(DateTime({ description: 'Not earlier than created_at.' })),
});

export const AccountCampaignSchema = Obj({
  campaign_name: Opt(
    Nullable(Text({ default: '', description: 'Deprecated: use slug. Name or slug, not both.' })),
  ),
  campaign_note: Opt(Nullable(Text({ default: '', description: 'Added to the account as a note.' }))),
  expiry_date: Opt(Nullable(CalendarDate({ description: 'Strictly after start_date.' }))),
  slug: Opt(Nullable(Text({ default: '', format: 'campaign-slug', description: 'An existing campaign.' }))),
  start_date: Opt(Nullable(CalendarDate())),
});

export const CommissionContractSchema = Obj({
  affiliate_organisation_name: NonBlankText({
    maxLength: 128,
    description: 'An existing affiliate organisation.',
  }),
  commission_type: Opt(Choice(['UNIT_RATE_UPLIFT'] as const, { description: 'Deprecated.' })),
  effective_from: CalendarDate({ description: 'Inclusive.' }),
  effective_to: CalendarDate({ description: 'Exclusive; not before effective_from.' }),
  mpxn: NonBlankText({ format: 'mpxn', description: 'MPAN or MPRN the commission applies to.' }),
  standing_charge_uplift: Opt(Decimal(10, 3, { description: 'Pence per day.' })),
  status: Choice(['PAID', 'PAYABLE'] as const),
  unit_rate_uplift: Opt(Decimal(10, 3, { description: 'Pence per kWh.' })),
  value: Opt(Decimal(11, 2, { description: 'Deprecated: use unit_rate_uplift. Pence.' })),
});

const ComplaintContactSchema = Obj({
  body: NonBlankText(),
  communication_method: Choice(['LANDLINE', 'MOBILE', 'EMAIL', 'POST'] as const),
  communication_source: NonBlankText({ description: 'A configured communication source.' }),
  created_at: DateTime(),
  status: Choice(['OPEN', 'RESOLVED', 'NO_CONTACT', 'REOPENED', 'DEADLOCK', 'CANCELLED'] as const),
});

export const ComplaintSchema = Obj({
  complainant_email: NonBlankText({ format: 'customer-email' }),
  complainant_name: NonBlankText({ maxLength: 255 }),
  complaint_contacts: List(ComplaintContactSchema),
  created_at: DateTime(),
  has_chsr_letter_been_sent: Bool(),
  has_eight_week_letter_been_sent: Bool({ description: 'If true, the CHSR letter was sent too.' }),
  official_entity: Opt(Text({ description: 'Official complaints give entity, reference and status.' })),
  official_reference_number: Opt(Text()),
  official_status: Opt(Text()),
  subtype_of_complaint: NonBlankText(),
  type_of_complaint: NonBlankText(),
});

const ContributionPeriodSchema = Obj({
  end_date: CalendarDate({ description: 'Exclusive; not before start_date.' }),
  fulfilled_at: Opt(Nullable(DateTime())),
  start_date: CalendarDate({ description: 'Inclusive.' }),
});

export const ContributionAgreementSchema = Obj({
  active_period_end_date: Opt(Nullable(CalendarDate({ description: 'Inclusive.' }))),
  active_period_start_date: CalendarDate({ description: 'Inclusive.' }),
  amount: Decimal(10, 10),
  interval: Choice(['MONTHLY', 'QUARTERLY'] as const),
  periods: Opt(List(ContributionPeriodSchema, { description: 'Inside the active period; not overlapping.' })),
  scheme: NonBlankText({ format: 'contribution-scheme-code', description: 'An existing scheme code.' }),
});

export const PartnerOrganisationSchema = Obj({
  organisation_number: NonBlankText({ maxLength: 128, description: 'A registered organisation.' }),
  role: NonBlankText({ description: 'Role as configured for the instance.' }),
  source_reference_s3_key: Opt(Text()),
  valid_from: DateTime(),
  valid_to: DateTime({ description: 'Not before valid_from.' }),
});

export const AccountReferenceSchema = Obj({
  namespace: NonBlankText({ maxLength: 50, format: 'reference-namespace' }),
  value: NonBlankText({ maxLength: 100, description: 'Not already used on any account.' }),
});

export const WarmHomeDiscountSchema = Obj({
  account_type: Opt(Choice(['CREDIT', 'PREPAY'] as const, { default: 'CREDIT' })),
  group: Opt(Choice(['CORE', 'BROADER'] as const, { default: 'CORE' })),
  tax_year: Opt(Text({ format: 'tax-year', description: 'YYYY/YY, e.g. 2018/19.' })),
});

const FitInstallationSchema = Obj({
  address: Opt(
    Obj({
      county: Opt(Text()),
      line1: NonBlankText(),
      line2: Opt(Text()),
      postcode: NonBlankText({ format: 'gb-postcode' }),
      town: Opt(Text()),
    }),
  ),
  credit_hold: Opt(
    Obj({ active_from: CalendarDate(), notes: Opt(Text()), reason: Choice(FIT_CREDIT_HOLD_REASONS) }),
  ),
  fit_id: NonBlankText(),
  non_eligible_extensions: Opt(
    List(Obj({ installed_capacity: Opt(Decimal(10, 10)), reference_number: Int() })),
  ),
});

const FitMeterSchema = Obj({
  extensions: List(NonBlankText(), { minItems: 1 }),
  last_billed_to_date: CalendarDate(),
  make: Opt(Text()),
  model: Opt(Text()),
  mpan: Opt(Text({ format: 'mpan', description: 'MPAN core; export and generation meters may omit it.' })),
  serial_number: NonBlankText(),
  transfer_reading: Obj({
    reading_date: CalendarDate(),
    reading_value: Decimal(10, 10, { description: 'kWh.' }),
  }),
  type: Choice(['EXPORT', 'SUPPLY', 'GENERATION'] as const),
});

export const FitSchema = Obj(
  {
    installations: List(FitInstallationSchema, { minItems: 1 }),
    instruction_reference: Opt(Text({ maxLength: 512, description: 'Required for BACS.' })),
    meters: List(FitMeterSchema, { minItems: 1 }),
    payment_method: Choice(['BACS', 'CHEQUE', 'CHAPS', 'FOREIGN_CHAPS'] as const),
    vat_number: Opt(Text()),
    vendor_name: Opt(Choice(PAYMENT_VENDORS, { description: 'Required for BACS.' })),
  },
  { description: 'Feed-in Tariff generator details.' },
);

export type Note = Static<typeof NoteSchema>;
