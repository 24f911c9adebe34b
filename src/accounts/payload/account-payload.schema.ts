/**
 * The GB energy account payload accepted by the validate and create endpoints, and the V2
 * `task_params`. Field names, types, enums and limits follow reference/account-payload-fields.md;
 * each part of the account lives in its subject folder (see README.md). This schema validates
 * requests and generates the OpenAPI document.
 */
import type { Static } from '@sinclair/typebox';
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
import {
  Bool,
  CalendarDate,
  Choice,
  DateTime,
  Decimal,
  Identifier,
  Int,
  List,
  Nullable,
  Obj,
  Opt,
  Text,
} from './validation/schema-builders.ts';

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

const billingLine = () => Opt(Text({ maxLength: 512 }));

export const AccountPayloadSchema = Obj(
  {
    account_billing_options: Opt(BillingOptionsSchema),
    account_campaigns: Opt(
      List(AccountCampaignSchema, { description: 'All by slug or all by name; no repeats.' }),
    ),
    account_type: Opt(Choice(ACCOUNT_TYPES)),
    affiliate_subdomain: Opt(Nullable(Text({ description: 'Overrides sales channel and subchannel.' }))),
    billing_address: Opt(AddressSchema),
    billing_address1: Opt(
      Text({ maxLength: 512, description: 'With billing_postcode, required unless occupier.' }),
    ),
    billing_address2: billingLine(),
    billing_address3: billingLine(),
    billing_address4: billingLine(),
    billing_address5: billingLine(),
    billing_attention_of: Opt(Text({ maxLength: 256 })),
    billing_customer_reference: Opt(Text({ maxLength: 256 })),
    billing_delivery_point_identifier: Opt(Text({ maxLength: 11, format: 'delivery-point-identifier' })),
    billing_email: Opt(Nullable(Text({ maxLength: 254, format: 'billing-email' }))),
    billing_name: Opt(Text({ maxLength: 510 })),
    billing_postcode: Opt(
      Text({ maxLength: 512, format: 'gb-postcode', description: 'Normalised to AA9A 9AA form.' }),
    ),
    billing_sub_name: Opt(Text({ maxLength: 256 })),
    business: Opt(BusinessSchema),
    business_type: Opt(
      Choice(ACCOUNT_BUSINESS_TYPES, { description: 'Deprecated: use business.business_type.' }),
    ),
    commission_contracts: Opt(List(CommissionContractSchema)),
    communication_preference: Opt(Choice(['ONLINE', 'PRINT'] as const, { default: 'ONLINE' })),
    company_number: Opt(
      Text({
        maxLength: 100,
        format: 'company-number',
        description: 'Deprecated: use business.company_number.',
      }),
    ),
    complaints: Opt(List(ComplaintSchema)),
    consents: Opt(List(ConsentSchema, { description: 'Each consent type at most once.' })),
    contribution_agreements: Opt(List(ContributionAgreementSchema)),
    current_statement_transactions: Opt(
      List(TransactionSchema, {
        description: 'Unbilled; with last_statement_balance they make up transfer_balance.',
      }),
    ),
    customers: Opt(List(CustomerSchema, { description: 'None for an unknown occupier.' })),
    date_of_sale: Opt(CalendarDate()),
    dd_reference: Opt(Text({ maxLength: 512, description: 'Deprecated: use payment_instructions.' })),
    debt: Opt(DebtSchema),
    debts: Opt(List(DebtSchema, { description: 'Not together with the deprecated debt.' })),
    deposit_agreements: Opt(List(DepositAgreementSchema, { description: 'At most one.' })),
    document_accessibility: Opt(Choice(['LARGE_PRINT', 'BRAILLE', 'SPOKEN', ''] as const, { default: '' })),
    dunning_path: Opt(DunningPathSchema),
    external_account_number: Opt(
      Identifier({ maxLength: 128, description: 'The account number in the source system; never blank.' }),
    ),
    fit: Opt(FitSchema),
    historical_statement_transactions: Opt(
      List(TransactionSchema, { description: 'Already billed; they sum to last_statement_balance.' }),
    ),
    import_supplier: Identifier({ description: 'Code of the import supplier migrating the account.' }),
    is_managed: Opt(Nullable(Bool({ description: 'Deprecated: use account_type.' }))),
    is_portfolio_lead: Opt(Nullable(Bool({ description: 'Deprecated: use account_type.' }))),
    language_preference: Opt(Choice(['en-gb', 'en-us', 'es-419', 'fr-fr'] as const)),
    last_billed_to_date: Opt(CalendarDate({ description: 'Inclusive.' })),
    last_payment_review_date: Opt(Nullable(CalendarDate({ description: 'Not in the future.' }))),
    last_statement_balance: Opt(Decimal(10, 10, { description: 'Deprecated: use ledgers. Pounds.' })),
    last_statement_closing_date: Opt(CalendarDate({ description: 'Deprecated: use ledgers.' })),
    last_statement_issue_date: Opt(CalendarDate({ description: 'Deprecated: use ledgers.' })),
    ledgers: Opt(List(LedgerRecordSchema)),
    metadata: Opt(List(MetadataSchema, { description: 'Keys unique.' })),
    next_bill_due_date: Opt(
      Nullable(CalendarDate({ description: 'Required for quarterly non-industry billing.' })),
    ),
    notes: Opt(List(NoteSchema)),
    operations_team_name: Opt(Text({ description: 'An existing operations team.' })),
    partner_organisations: Opt(List(PartnerOrganisationSchema)),
    payment_adequacy_changes: Opt(
      List(PaymentAdequacyChangeSchema, { description: 'Not together with last_payment_review_date.' }),
    ),
    payment_instructions: Opt(List(PaymentInstructionSchema)),
    payment_plans: Opt(List(PaymentPlanSchema)),
    payment_preferences: Opt(List(PaymentPreferenceSchema)),
    payment_promises: Opt(List(PaymentPromiseSchema)),
    payment_schedules: Opt(List(PaymentScheduleSchema)),
    portfolio: Opt(Nullable(AccountPortfolioSchema)),
    references: Opt(List(AccountReferenceSchema)),
    sales_channel: Opt(Choice(SALES_CHANNELS, { default: 'DIRECT' })),
    sales_subchannel: Opt(Text()),
    smart_read_cycle_day: Opt(Int({ description: 'Day of the month, 1 to 28.' })),
    smart_read_frequency: Opt(Choice(['MONTHLY', 'DAILY', 'HALF_HOURLY', 'DENIED', ''] as const)),
    statements: Opt(List(StatementSchema)),
    supply_addresses: Opt(List(SupplyAddressSchema)),
    transfer_balance: Opt(Decimal(10, 10, { description: 'Pounds; credit positive, debit negative.' })),
    unknown_occupier: Opt(
      Nullable(Bool({ description: 'If true: no customers, at most one supply address.' })),
    ),
    warm_home_discount: Opt(List(WarmHomeDiscountSchema)),
  },
  { description: 'A GB energy account to import.' },
);

export type AccountPayload = Static<typeof AccountPayloadSchema>;

export const TaskParamsSchema = Obj(
  {
    is_dry_run: Opt(
      Bool({ default: false, description: 'Create the account in a transaction that is rolled back.' }),
    ),
    schedule_window_start: Opt(
      Nullable(DateTime({ description: 'Not before this instant; not in the past. Default: now.' })),
    ),
    schedule_window_end: Opt(
      Nullable(DateTime({ description: 'At most 4 days ahead; after the start. Default: start + 4 days.' })),
    ),
  },
  { description: 'How and when to run the scheduled creation.' },
);

export type TaskParams = Static<typeof TaskParamsSchema>;
