/** Billing set-up and history: billing options, statements, debts, dunning, deposits. */
import type { Static } from '@sinclair/typebox';
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

export const BillingOptionsSchema = Obj(
  {
    period_length: Opt(Nullable(Choice(['MONTHLY', 'QUARTERLY'] as const))),
    period_length_multiplier: Opt(
      Int({ description: 'Multiplies period_length: 2 × MONTHLY is bi-monthly.' }),
    ),
    period_start_day: Opt(Nullable(Int({ minimum: 1, maximum: 28, description: 'Needs period_length.' }))),
    period_start_month: Opt(Nullable(Int({ minimum: 1, maximum: 12 }))),
    use_industry_billing: Opt(Bool({ description: 'If true, no period data may be given.' })),
  },
  { description: 'Business accounts only.' },
);

export const StatementSchema = Obj({
  bill_period_from_date: CalendarDate({ description: 'Inclusive.' }),
  bill_period_to_date: CalendarDate({ description: 'Inclusive; not before the from date.' }),
  gross_amount: Opt(Nullable(Int({ description: 'Pence.' }))),
  issued_date: Opt(Nullable(CalendarDate())),
  number: Opt(Text()),
  statement_id: NonBlankText(),
  statement_path: Opt(
    Text({ format: 'document-path', description: 'PDF path, relative to the document root.' }),
  ),
});

const AgedDebtSchema = Obj({
  debt_amount: Opt(Decimal(8, 2)),
  due_date: Opt(CalendarDate()),
});

export const DebtSchema = Obj({
  aged_debt: Opt(List(AgedDebtSchema)),
  agency_name: Opt(Text({ maxLength: 256, description: 'Required when start_date is given.' })),
  cais_reference: Opt(Text()),
  campaign: Opt(Text({ maxLength: 256 })),
  is_insolvent: Opt(Bool({ default: false })),
  notes: Opt(Text({ maxLength: 256 })),
  start_date: Opt(CalendarDate()),
});

export const DunningPathSchema = Obj({
  path_name: NonBlankText({
    maxLength: 256,
    format: 'dunning-path-name',
    description: 'A dunning path of the instance.',
  }),
  start_date: Opt(CalendarDate()),
});

export const DepositAgreementSchema = Obj({
  accepted_at: Opt(Nullable(DateTime())),
  deposit_amount: Decimal(10, 10),
  fulfilled_at: Opt(Nullable(DateTime())),
  last_interest_date: Opt(
    Nullable(CalendarDate({ description: 'Only when fulfilled; not before fulfilled_at.' })),
  ),
  reason: NonBlankText(),
});

export type Statement = Static<typeof StatementSchema>;
export type Debt = Static<typeof DebtSchema>;
