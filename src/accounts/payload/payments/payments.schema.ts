/** Payment arrangements: instructions, preferences, schedules, plans, promises, adequacy reviews. */
import { type Static, Type } from '@sinclair/typebox';
import * as S from '../../../validation/schema-builders.ts';

export const PAYMENT_VENDORS = [
  'STRIPE',
  'BOTTOMLINE_GLOBAL_PAYMENTS_HUB',
  'BOTTOMLINE_PTX',
  'BOTTOMLINE_PTX_BATCHED',
] as const;
const PAYMENT_MEANS = ['DD', 'CARD', 'MANUAL', 'PAYMENT_SLIP'] as const;

const LedgerCode = (description?: string) => S.Text({ format: 'ledger-code', description });

export const PaymentAdequacyChangeSchema = S.Obj({
  applied_at: S.Opt(
    S.Nullable(S.DateTime({ description: 'After created_at; not with should_not_be_applied_reason.' })),
  ),
  average_monthly_charge: S.Int({ minimum: 0, description: 'The electricity plus the gas average.' }),
  average_monthly_elec_charge: S.Int({ minimum: 0 }),
  average_monthly_gas_charge: S.Int({ minimum: 0 }),
  balance_adjustment: S.Int({
    description: 'If not zero, the monthly gap between target and current balance.',
  }),
  created_at: S.DateTime({ description: 'Not in the future.' }),
  current_balance: S.Int(),
  existing_direct_debit_payment: S.Int({ minimum: 0 }),
  ledger: S.Opt(
    S.Obj({ ledger_code: S.NonBlankText({ format: 'ledger-code' }), ledger_identifier: S.Opt(S.Text()) }),
  ),
  new_direct_debit: S.Int({
    minimum: 0,
    description: 'Between the existing payment and charge plus adjustment.',
  }),
  should_not_be_applied_reason: S.Opt(
    S.Nullable(S.Text({ maxLength: 512, description: 'Required when not applied.' })),
  ),
  target_balance: S.Int(),
});

export const PaymentInstructionSchema = S.Obj({
  customer_reference: S.Opt(S.Text({ maxLength: 512 })),
  instruction_identifier: S.Opt(S.Text({ description: 'Key ACTIVE_NEW payment preferences refer to.' })),
  ledger_code: S.Opt(LedgerCode('On every instruction or on none.')),
  reference: S.NonBlankText({ maxLength: 512, description: 'The vendor’s reference, e.g. a mandate id.' }),
  type: S.Choice(['BPAY', 'CARD', 'CUSTOM', 'DIRECT_DEBIT', 'GMO_REFUND', 'PAYMENT_SLIP'] as const),
  use_for_scheduled_payments: S.Opt(S.Bool()),
  valid_from: S.Opt(S.Nullable(S.CalendarDate())),
  vendor: S.Choice(PAYMENT_VENDORS),
});

const PaymentPlanPaymentSchema = S.Obj({
  amount_components: S.List(
    S.Obj({
      amount: S.Int({ minimum: 0 }),
      component_type: S.NonBlankText({ description: 'Depends on the strategy.' }),
    }),
    { description: 'Amounts sum to total_amount.' },
  ),
  payment_date: S.CalendarDate(),
  total_amount: S.Int({ minimum: 0 }),
});

export const PaymentPlanSchema = S.Obj({
  accepted_at: S.DateTime(),
  payments: S.List(PaymentPlanPaymentSchema, { description: 'Each (payment date, component type) once.' }),
  schedule_means: S.Choice(PAYMENT_MEANS),
  strategy_name: S.NonBlankText({ description: 'An existing payment plan strategy.' }),
});

const ledgerIdentifier = S.NonBlankText({
  description: 'ledger_identifier of one of the payload’s ledgers.',
});

export const PaymentPreferenceSchema = S.TaggedUnion('type', [
  S.Obj({
    type: Type.Literal('ACTIVE_EXISTING'),
    instruction_reference_params: S.Obj({
      vendor_name: S.Choice(PAYMENT_VENDORS),
      vendor_reference: S.NonBlankText({ maxLength: 512 }),
    }),
    ledger_identifier: ledgerIdentifier,
  }),
  S.Obj({
    type: Type.Literal('ACTIVE_NEW'),
    instruction_reference_params: S.Obj({
      instruction_identifier: S.NonBlankText({
        maxLength: 512,
        description: 'instruction_identifier of one of payment_instructions.',
      }),
    }),
    ledger_identifier: ledgerIdentifier,
  }),
  S.Obj({ type: Type.Literal('PASSIVE'), ledger_identifier: ledgerIdentifier }),
]);

export const PaymentPromiseSchema = S.Obj({
  amount: S.Decimal(8, 2),
  ledger_code: S.Opt(LedgerCode()),
  payment_date: S.CalendarDate(),
});

const InstalmentSchema = S.Obj({
  amount: S.Decimal(8, 2),
  payment_date: S.CalendarDate({ description: 'Inside the schedule’s period.' }),
  payment_type: S.Opt(S.Choice([''] as const)),
});

export const PaymentScheduleSchema = S.Obj({
  amount: S.Opt(
    S.Decimal(8, 2, { default: '0.00', description: 'Not zero for schedules not triggered by bills.' }),
  ),
  balance_threshold: S.Opt(S.Decimal(8, 2, { description: 'Required for BALANCE-triggered schedules.' })),
  day_of_month: S.Opt(
    S.Nullable(S.Int({ description: 'Payment day, 1 to 28; required for REGULAR schedules.' })),
  ),
  debt_repayment_element: S.Opt(S.Decimal(8, 2, { description: 'Needs debt_repayment_end_date.' })),
  debt_repayment_end_date: S.Opt(S.CalendarDate({ description: 'Not after end_date.' })),
  delay_days: S.Opt(S.Int({ description: 'Required with delay_strategy; BILL trigger only.' })),
  delay_strategy: S.Opt(S.Choice(['FIXED', 'WORKING_DAYS'] as const)),
  end_date: S.Opt(S.Nullable(S.CalendarDate({ description: 'Not before start_date; omit for open-ended.' }))),
  exempt_from_payment_adequacy: S.Opt(S.Bool({ default: false, description: 'REGULAR schedules only.' })),
  frequency: S.Opt(
    S.Choice([
      'MONTHLY',
      'QUARTERLY',
      'WEEKLY',
      'FORTNIGHTLY',
      'FOUR_WEEKLY',
      'ANNUALLY',
      'SIX_MONTHLY',
    ] as const),
  ),
  instalments: S.Opt(S.List(InstalmentSchema, { description: 'Required for PLAN; they sum to amount.' })),
  is_debt_repayment_plan: S.Opt(S.Bool({ default: false })),
  ledger_code: S.Opt(LedgerCode('On every schedule or on none.')),
  means: S.Choice(PAYMENT_MEANS),
  paid_by: S.Opt(S.Choice(['CUSTOMER', 'FUEL_DIRECT'] as const, { default: 'CUSTOMER' })),
  start_date: S.CalendarDate(),
  trigger: S.Opt(
    S.Choice(['PLAN', 'REGULAR', 'REGULAR_PLAN', 'BALANCE', 'BILL'] as const, {
      description: 'Omitted means REGULAR.',
    }),
  ),
});

export type PaymentSchedule = Static<typeof PaymentScheduleSchema>;
export type PaymentPreference = Static<typeof PaymentPreferenceSchema>;
export type PaymentAdequacyChange = Static<typeof PaymentAdequacyChangeSchema>;
