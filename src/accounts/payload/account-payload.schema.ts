/**
 * The GB energy account payload accepted by the validate and create endpoints, and the V2
 * `task_params`. Field names, types, enums and limits follow the reference's (docs/product.md,
 * Account payload); each part of the account lives in its subject folder (see README.md). This
 * schema validates requests and generates the OpenAPI document.
 */
import type { Static } from '@sinclair/typebox';
import * as S from '../../validation/schema-builders.ts';
import { AddressSchema, SupplyAddressSchema } from './addresses/addresses.schema.ts';
import {
  BillingOptionsSchema,
  DebtSchema,
  DepositAgreementSchema,
  DunningPathSchema,
  StatementSchema,
} from './billing/billing.schema.ts';
import { AccountPortfolioSchema, BUSINESS_TYPES, BusinessSchema } from './business/business.schema.ts';
import { ConsentSchema, CustomerSchema, MetadataSchema } from './customers/customers.schema.ts';
import {
  AccountCampaignSchema,
  AccountReferenceSchema,
  CommissionContractSchema,
  ComplaintSchema,
  ContributionAgreementSchema,
  FitSchema,
  NoteSchema,
  PartnerOrganisationSchema,
  WarmHomeDiscountSchema,
} from './extras/extras.schema.ts';
import { LedgerRecordSchema } from './ledgers/ledgers.schema.ts';
import { TransactionSchema } from './ledgers/transactions.schema.ts';
import {
  PaymentAdequacyChangeSchema,
  PaymentInstructionSchema,
  PaymentPlanSchema,
  PaymentPreferenceSchema,
  PaymentPromiseSchema,
  PaymentScheduleSchema,
} from './payments/payments.schema.ts';

/** Kinds of account. */
const ACCOUNT_TYPES = [
  'DOMESTIC',
  'BUSINESS',
  'MANAGED',
  'PORTFOLIO_LEAD',
  'DOMESTIC_VACANT',
  'BUSINESS_VACANT',
  'DOMESTIC_OCCUPIER',
  'BUSINESS_OCCUPIER',
  'SYSTEM',
  'DOMESTIC_THIRD_PARTY_BILLED',
  'BUSINESS_THIRD_PARTY_BILLED',
] as const;

/** Legal forms for the deprecated account-level business_type ("" allowed). */
const ACCOUNT_BUSINESS_TYPES = [...BUSINESS_TYPES, ''] as const;

/** Channels an account was sold through. */
const SALES_CHANNELS = [
  'DIRECT',
  'PRICE_COMPARISON',
  'TELESALES',
  'DIGI_TELESALES',
  'EVENTS',
  'FIELD_SALES',
  'AGGREGATOR',
  'PARTNERSHIPS',
  'NEW_TENANT',
  'MOVE_IN',
  'WORKPLACE_POP_UP',
  'BROKER',
  'PARENT_POWER',
  'PEOPLE_POWER',
  'GIFT_OF_KIT',
  'HIGH_REFERRER',
  'SUPPLIER_OF_LAST_RESORT',
  'ACQUISITION',
  'WORKS_WITH_OCTOPUS',
  'LANDLORD',
  'DEBT_COLLECTION_AGENCY',
  '',
] as const;

const billingLine = () => S.Opt(S.Text({ maxLength: 512 }));

export const AccountPayloadSchema = S.Obj(
  {
    account_billing_options: S.Opt(BillingOptionsSchema),
    account_campaigns: S.Opt(
      S.List(AccountCampaignSchema, { description: 'All by slug or all by name; no repeats.' }),
    ),
    account_type: S.Opt(S.Choice(ACCOUNT_TYPES)),
    affiliate_subdomain: S.Opt(
      S.Nullable(S.Text({ description: 'Overrides sales channel and subchannel.' })),
    ),
    billing_address: S.Opt(AddressSchema),
    billing_address1: S.Opt(
      S.Text({ maxLength: 512, description: 'With billing_postcode, required unless occupier.' }),
    ),
    billing_address2: billingLine(),
    billing_address3: billingLine(),
    billing_address4: billingLine(),
    billing_address5: billingLine(),
    billing_attention_of: S.Opt(S.Text({ maxLength: 256 })),
    billing_customer_reference: S.Opt(S.Text({ maxLength: 256 })),
    billing_delivery_point_identifier: S.Opt(S.Text({ maxLength: 11, format: 'delivery-point-identifier' })),
    billing_email: S.Opt(S.Nullable(S.Text({ maxLength: 254, format: 'billing-email' }))),
    billing_name: S.Opt(S.Text({ maxLength: 510 })),
    billing_postcode: S.Opt(
      S.Text({ maxLength: 512, format: 'gb-postcode', description: 'Normalised to AA9A 9AA form.' }),
    ),
    billing_sub_name: S.Opt(S.Text({ maxLength: 256 })),
    business: S.Opt(BusinessSchema),
    business_type: S.Opt(
      S.Choice(ACCOUNT_BUSINESS_TYPES, { description: 'Deprecated: use business.business_type.' }),
    ),
    commission_contracts: S.Opt(S.List(CommissionContractSchema)),
    communication_preference: S.Opt(S.Choice(['ONLINE', 'PRINT'] as const, { default: 'ONLINE' })),
    company_number: S.Opt(
      S.Text({
        maxLength: 100,
        format: 'company-number',
        description: 'Deprecated: use business.company_number.',
      }),
    ),
    complaints: S.Opt(S.List(ComplaintSchema)),
    consents: S.Opt(S.List(ConsentSchema, { description: 'Each consent type at most once.' })),
    contribution_agreements: S.Opt(S.List(ContributionAgreementSchema)),
    current_statement_transactions: S.Opt(
      S.List(TransactionSchema, {
        description: 'Unbilled; with last_statement_balance they make up transfer_balance.',
      }),
    ),
    customers: S.Opt(S.List(CustomerSchema, { description: 'None for an unknown occupier.' })),
    date_of_sale: S.Opt(S.CalendarDate()),
    dd_reference: S.Opt(S.Text({ maxLength: 512, description: 'Deprecated: use payment_instructions.' })),
    debt: S.Opt(DebtSchema),
    debts: S.Opt(S.List(DebtSchema, { description: 'Not together with the deprecated debt.' })),
    deposit_agreements: S.Opt(S.List(DepositAgreementSchema, { description: 'At most one.' })),
    document_accessibility: S.Opt(
      S.Choice(['LARGE_PRINT', 'BRAILLE', 'SPOKEN', ''] as const, { default: '' }),
    ),
    dunning_path: S.Opt(DunningPathSchema),
    external_account_number: S.Opt(
      S.Identifier({ maxLength: 128, description: 'The account number in the source system; never blank.' }),
    ),
    fit: S.Opt(FitSchema),
    historical_statement_transactions: S.Opt(
      S.List(TransactionSchema, { description: 'Already billed; they sum to last_statement_balance.' }),
    ),
    import_supplier: S.Identifier({ description: 'Code of the import supplier migrating the account.' }),
    is_managed: S.Opt(S.Nullable(S.Bool({ description: 'Deprecated: use account_type.' }))),
    is_portfolio_lead: S.Opt(S.Nullable(S.Bool({ description: 'Deprecated: use account_type.' }))),
    language_preference: S.Opt(S.Choice(['en-gb', 'en-us', 'es-419', 'fr-fr'] as const)),
    last_billed_to_date: S.Opt(S.CalendarDate({ description: 'Inclusive.' })),
    last_payment_review_date: S.Opt(S.Nullable(S.CalendarDate({ description: 'Not in the future.' }))),
    last_statement_balance: S.Opt(S.Decimal(10, 10, { description: 'Deprecated: use ledgers. Pounds.' })),
    last_statement_closing_date: S.Opt(S.CalendarDate({ description: 'Deprecated: use ledgers.' })),
    last_statement_issue_date: S.Opt(S.CalendarDate({ description: 'Deprecated: use ledgers.' })),
    ledgers: S.Opt(S.List(LedgerRecordSchema)),
    metadata: S.Opt(S.List(MetadataSchema, { description: 'Keys unique.' })),
    next_bill_due_date: S.Opt(
      S.Nullable(S.CalendarDate({ description: 'Required for quarterly non-industry billing.' })),
    ),
    notes: S.Opt(S.List(NoteSchema)),
    operations_team_name: S.Opt(S.Text({ description: 'An existing operations team.' })),
    partner_organisations: S.Opt(S.List(PartnerOrganisationSchema)),
    payment_adequacy_changes: S.Opt(
      S.List(PaymentAdequacyChangeSchema, { description: 'Not together with last_payment_review_date.' }),
    ),
    payment_instructions: S.Opt(S.List(PaymentInstructionSchema)),
    payment_plans: S.Opt(S.List(PaymentPlanSchema)),
    payment_preferences: S.Opt(S.List(PaymentPreferenceSchema)),
    payment_promises: S.Opt(S.List(PaymentPromiseSchema)),
    payment_schedules: S.Opt(S.List(PaymentScheduleSchema)),
    portfolio: S.Opt(S.Nullable(AccountPortfolioSchema)),
    references: S.Opt(S.List(AccountReferenceSchema)),
    sales_channel: S.Opt(S.Choice(SALES_CHANNELS, { default: 'DIRECT' })),
    sales_subchannel: S.Opt(S.Text()),
    smart_read_cycle_day: S.Opt(S.Int({ description: 'Day of the month, 1 to 28.' })),
    smart_read_frequency: S.Opt(S.Choice(['MONTHLY', 'DAILY', 'HALF_HOURLY', 'DENIED', ''] as const)),
    statements: S.Opt(S.List(StatementSchema)),
    supply_addresses: S.Opt(S.List(SupplyAddressSchema)),
    transfer_balance: S.Opt(S.Decimal(10, 10, { description: 'Pounds; credit positive, debit negative.' })),
    unknown_occupier: S.Opt(
      S.Nullable(S.Bool({ description: 'If true: no customers, at most one supply address.' })),
    ),
    warm_home_discount: S.Opt(S.List(WarmHomeDiscountSchema)),
  },
  { description: 'A GB energy account to import.' },
);

export type AccountPayload = Static<typeof AccountPayloadSchema>;

export const TaskParamsSchema = S.Obj(
  {
    is_dry_run: S.Opt(
      S.Bool({ default: false, description: 'Create the account in a transaction that is rolled back.' }),
    ),
    schedule_window_start: S.Opt(
      S.Nullable(S.DateTime({ description: 'Not before this instant; not in the past. Default: now.' })),
    ),
    schedule_window_end: S.Opt(
      S.Nullable(
        S.DateTime({ description: 'At most 4 days ahead; after the start. Default: start + 4 days.' }),
      ),
    ),
    wave: S.Opt(
      S.Nullable(
        S.Text({
          description:
            "The wave of the supplier's migration the account belongs to, e.g. 2026-11-wave-1: 1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or digit (invalid_wave). A re-schedule moves it to the wave it names (none when absent).",
        }),
      ),
    ),
    mapping_profile: S.Opt(
      S.Nullable(
        S.Obj(
          {
            name: S.NonBlankText({
              maxLength: 64,
              description:
                "The profile's name: 1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or digit (invalid_mapping_profile_name).",
            }),
            version: S.Int({ minimum: 1, description: "The profile's version, a whole number from 1." }),
          },
          {
            description:
              'Provenance: the mapping profile that built the payload from flat files (ferry push accounts --profile sends it). Stored on the process and shown in its detail, the exports and the wave page; a re-schedule replaces it (none when absent).',
          },
        ),
      ),
    ),
  },
  { description: 'How and when to run the scheduled creation.' },
);

export type TaskParams = Static<typeof TaskParamsSchema>;
