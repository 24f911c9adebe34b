/**
 * Account-level lists that stand alone: notes (also on portfolios), campaigns, commissions,
 * complaints, contributions, partners, references, Warm Home Discount and FiT details.
 */

import type { Static } from '@sinclair/typebox';
import * as S from '../../../validation/schema-builders.ts';
import { PAYMENT_VENDORS } from '../payments/payments.schema.ts';

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

const NoteDocumentSchema = S.Obj({
  document_path: S.NonBlankText({
    format: 'document-path',
    description: 'Path of an uploaded file, relative to the supplier document root.',
  }),
});

export const NoteSchema = S.Obj({
  body: S.Opt(S.Text({ description: 'Note text; a note needs a body or document paths.' })),
  created_at: S.Opt(S.DateTime()),
  document_paths: S.Opt(S.List(NoteDocumentSchema)),
  external_id: S.Opt(S.Text({ description: 'Source-system id, used to de-duplicate notes.' })),
  is_archived: S.Opt(S.Bool()),
  is_pinned: S.Opt(S.Bool()),
  unpin_at: S.Opt(S.DateTime({ description: 'Not earlier than created_at.' })),
});

export const AccountCampaignSchema = S.Obj({
  campaign_name: S.Opt(
    S.Nullable(S.Text({ default: '', description: 'Deprecated: use slug. Name or slug, not both.' })),
  ),
  campaign_note: S.Opt(S.Nullable(S.Text({ default: '', description: 'Added to the account as a note.' }))),
  expiry_date: S.Opt(S.Nullable(S.CalendarDate({ description: 'Strictly after start_date.' }))),
  slug: S.Opt(
    S.Nullable(S.Text({ default: '', format: 'campaign-slug', description: 'An existing campaign.' })),
  ),
  start_date: S.Opt(S.Nullable(S.CalendarDate())),
});

export const CommissionContractSchema = S.Obj({
  affiliate_organisation_name: S.NonBlankText({
    maxLength: 128,
    description: 'An existing affiliate organisation.',
  }),
  commission_type: S.Opt(S.Choice(['UNIT_RATE_UPLIFT'] as const, { description: 'Deprecated.' })),
  effective_from: S.CalendarDate({ description: 'Inclusive.' }),
  effective_to: S.CalendarDate({ description: 'Exclusive; not before effective_from.' }),
  mpxn: S.NonBlankText({ format: 'mpxn', description: 'MPAN or MPRN the commission applies to.' }),
  standing_charge_uplift: S.Opt(S.Decimal(10, 3, { description: 'Pence per day.' })),
  status: S.Choice(['PAID', 'PAYABLE'] as const),
  unit_rate_uplift: S.Opt(S.Decimal(10, 3, { description: 'Pence per kWh.' })),
  value: S.Opt(S.Decimal(11, 2, { description: 'Deprecated: use unit_rate_uplift. Pence.' })),
});

const ComplaintContactSchema = S.Obj({
  body: S.NonBlankText(),
  communication_method: S.Choice(['LANDLINE', 'MOBILE', 'EMAIL', 'POST'] as const),
  communication_source: S.NonBlankText({ description: 'A configured communication source.' }),
  created_at: S.DateTime(),
  status: S.Choice(['OPEN', 'RESOLVED', 'NO_CONTACT', 'REOPENED', 'DEADLOCK', 'CANCELLED'] as const),
});

export const ComplaintSchema = S.Obj({
  complainant_email: S.NonBlankText({ format: 'customer-email' }),
  complainant_name: S.NonBlankText({ maxLength: 255 }),
  complaint_contacts: S.List(ComplaintContactSchema),
  created_at: S.DateTime(),
  has_chsr_letter_been_sent: S.Bool(),
  has_eight_week_letter_been_sent: S.Bool({ description: 'If true, the CHSR letter was sent too.' }),
  official_entity: S.Opt(S.Text({ description: 'Official complaints give entity, reference and status.' })),
  official_reference_number: S.Opt(S.Text()),
  official_status: S.Opt(S.Text()),
  subtype_of_complaint: S.NonBlankText(),
  type_of_complaint: S.NonBlankText(),
});

const ContributionPeriodSchema = S.Obj({
  end_date: S.CalendarDate({ description: 'Exclusive; not before start_date.' }),
  fulfilled_at: S.Opt(S.Nullable(S.DateTime())),
  start_date: S.CalendarDate({ description: 'Inclusive.' }),
});

export const ContributionAgreementSchema = S.Obj({
  active_period_end_date: S.Opt(S.Nullable(S.CalendarDate({ description: 'Inclusive.' }))),
  active_period_start_date: S.CalendarDate({ description: 'Inclusive.' }),
  amount: S.Decimal(10, 10),
  interval: S.Choice(['MONTHLY', 'QUARTERLY'] as const),
  periods: S.Opt(
    S.List(ContributionPeriodSchema, { description: 'Inside the active period; not overlapping.' }),
  ),
  scheme: S.NonBlankText({ format: 'contribution-scheme-code', description: 'An existing scheme code.' }),
});

export const PartnerOrganisationSchema = S.Obj({
  organisation_number: S.NonBlankText({ maxLength: 128, description: 'A registered organisation.' }),
  role: S.NonBlankText({ description: 'Role as configured for the instance.' }),
  source_reference_s3_key: S.Opt(S.Text()),
  valid_from: S.DateTime(),
  valid_to: S.DateTime({ description: 'Not before valid_from.' }),
});

export const AccountReferenceSchema = S.Obj({
  namespace: S.NonBlankText({ maxLength: 50, format: 'reference-namespace' }),
  value: S.NonBlankText({ maxLength: 100, description: 'Not already used on any account.' }),
});

export const WarmHomeDiscountSchema = S.Obj({
  account_type: S.Opt(S.Choice(['CREDIT', 'PREPAY'] as const, { default: 'CREDIT' })),
  group: S.Opt(S.Choice(['CORE', 'BROADER'] as const, { default: 'CORE' })),
  tax_year: S.Opt(S.Text({ format: 'tax-year', description: 'YYYY/YY, e.g. 2018/19.' })),
});

const FitInstallationSchema = S.Obj({
  address: S.Opt(
    S.Obj({
      county: S.Opt(S.Text()),
      line1: S.NonBlankText(),
      line2: S.Opt(S.Text()),
      postcode: S.NonBlankText({ format: 'gb-postcode' }),
      town: S.Opt(S.Text()),
    }),
  ),
  credit_hold: S.Opt(
    S.Obj({
      active_from: S.CalendarDate(),
      notes: S.Opt(S.Text()),
      reason: S.Choice(FIT_CREDIT_HOLD_REASONS),
    }),
  ),
  fit_id: S.NonBlankText(),
  non_eligible_extensions: S.Opt(
    S.List(S.Obj({ installed_capacity: S.Opt(S.Decimal(10, 10)), reference_number: S.Int() })),
  ),
});

const FitMeterSchema = S.Obj({
  extensions: S.List(S.NonBlankText(), { minItems: 1 }),
  last_billed_to_date: S.CalendarDate(),
  make: S.Opt(S.Text()),
  model: S.Opt(S.Text()),
  mpan: S.Opt(
    S.Text({ format: 'mpan', description: 'MPAN core; export and generation meters may omit it.' }),
  ),
  serial_number: S.NonBlankText(),
  transfer_reading: S.Obj({
    reading_date: S.CalendarDate(),
    reading_value: S.Decimal(10, 10, { description: 'kWh.' }),
  }),
  type: S.Choice(['EXPORT', 'SUPPLY', 'GENERATION'] as const),
});

export const FitSchema = S.Obj(
  {
    installations: S.List(FitInstallationSchema, { minItems: 1 }),
    instruction_reference: S.Opt(S.Text({ maxLength: 512, description: 'Required for BACS.' })),
    meters: S.List(FitMeterSchema, { minItems: 1 }),
    payment_method: S.Choice(['BACS', 'CHEQUE', 'CHAPS', 'FOREIGN_CHAPS'] as const),
    vat_number: S.Opt(S.Text()),
    vendor_name: S.Opt(S.Choice(PAYMENT_VENDORS, { description: 'Required for BACS.' })),
  },
  { description: 'Feed-in Tariff generator details.' },
);

export type Note = Static<typeof NoteSchema>;
