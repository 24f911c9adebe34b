/** Billing set-up and history: billing options, statements, debts, dunning, deposits. */
import type { Static } from '@sinclair/typebox';
import * as S from '../../../validation/schema-builders.ts';

export const BillingOptionsSchema = S.Obj(
  {
    period_length: S.Opt(S.Nullable(S.Choice(['MONTHLY', 'QUARTERLY'] as const))),
    period_length_multiplier: S.Opt(
      S.Int({ description: 'Multiplies period_length: 2 × MONTHLY is bi-monthly.' }),
    ),
    period_start_day: S.Opt(
      S.Nullable(S.Int({ minimum: 1, maximum: 28, description: 'Needs period_length.' })),
    ),
    period_start_month: S.Opt(S.Nullable(S.Int({ minimum: 1, maximum: 12 }))),
    use_industry_billing: S.Opt(S.Bool({ description: 'If true, no period data may be given.' })),
  },
  { description: 'Business accounts only.' },
);

export const StatementSchema = S.Obj({
  bill_period_from_date: S.CalendarDate({ description: 'Inclusive.' }),
  bill_period_to_date: S.CalendarDate({ description: 'Inclusive; not before the from date.' }),
  gross_amount: S.Opt(S.Nullable(S.Int({ description: 'Pence.' }))),
  issued_date: S.Opt(S.Nullable(S.CalendarDate())),
  number: S.Opt(S.Text()),
  // The statements endpoint's limit: the same indexed column (decision 0048).
  statement_id: S.NonBlankText({ maxLength: 128 }),
  statement_path: S.Opt(
    S.Text({ format: 'document-path', description: 'PDF path, relative to the document root.' }),
  ),
});

const AgedDebtSchema = S.Obj({
  debt_amount: S.Opt(S.Decimal(8, 2)),
  due_date: S.Opt(S.CalendarDate()),
});

export const DebtSchema = S.Obj({
  aged_debt: S.Opt(S.List(AgedDebtSchema)),
  agency_name: S.Opt(S.Text({ maxLength: 256, description: 'Required when start_date is given.' })),
  cais_reference: S.Opt(S.Text()),
  campaign: S.Opt(S.Text({ maxLength: 256 })),
  is_insolvent: S.Opt(S.Bool({ default: false })),
  notes: S.Opt(S.Text({ maxLength: 256 })),
  start_date: S.Opt(S.CalendarDate()),
});

export const DunningPathSchema = S.Obj({
  path_name: S.NonBlankText({
    maxLength: 256,
    format: 'dunning-path-name',
    description: 'A dunning path of the instance.',
  }),
  start_date: S.Opt(S.CalendarDate()),
});

export const DepositAgreementSchema = S.Obj({
  accepted_at: S.Opt(S.Nullable(S.DateTime())),
  deposit_amount: S.Decimal(10, 10),
  fulfilled_at: S.Opt(S.Nullable(S.DateTime())),
  last_interest_date: S.Opt(
    S.Nullable(S.CalendarDate({ description: 'Only when fulfilled; not before fulfilled_at.' })),
  ),
  reason: S.NonBlankText(),
});

export type Statement = Static<typeof StatementSchema>;
export type Debt = Static<typeof DebtSchema>;
