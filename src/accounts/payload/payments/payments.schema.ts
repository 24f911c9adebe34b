/** Payment arrangements: instructions, preferences, schedules, plans, promises, adequacy reviews. */
import { type Static, Type } from '@sinclair/typebox';
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
  TaggedUnion,
  Text,
} from '../validation/schema-builders.ts';

export const PAYMENT_VENDORS = [
  'STRIPE',
  'BOTTOMLINE_GLOBAL_PAYMENTS_HUB',
  'BOTTOMLINE_PTX',
  'BOTTOMLINE_PTX_BATCHED',
] as const;
const PAYMENT_MEANS = ['DD', 'CARD', 'MANUAL', 'PAYMENT_SLIP'] as const;

const LedgerCode = (description?: string) => Text({ format: 'ledger-code', description });

export const PaymentAdequacyChangeSchema = Obj({
  applied_at: Opt(
    Nullable(DateTime({ description: 'After created_at; not with should_not_be_applied_reason.' })),
  ),
  average_monthly_charge: Int({ minimum: 0, description: 'The electricity plus the gas average.' }),
  average_monthly_elec_charge: Int({ minimum: 0 }),
  average_monthly_gas_charge: Int({ minimum: 0 }),
  balance_adjustment: Int({
    description: 'If not zero, the monthly gap between target and current balance.',
  }),
  created_at: DateTime({ description: 'Not in the future.' }),
  current_balance: Int(),
  existing_direct_debit_payment: Int({ minimum: 0 }),
  ledger: Opt(Obj({ ledger_code: NonBlankText({ format: 'ledger-code' }), ledger_identifier: Opt(Text()) })),
  new_direct_debit: Int({
    minimum: 0,
    description: 'Between the existing payment and charge plus adjustment.',
  }),
  should_not_be_applied_reason: Opt(
    Nullable(Text({ maxLength: 512, description: 'Required when not applied.' })),
  ),
  target_balance: Int(),
});

export const PaymentInstructionSchema = Obj({
  customer_reference: Opt(Text({ maxLength: 512 })),
  instruction_identifier: Opt(Text({ description: 'Key ACTIVE_NEW payment preferences refer to.' })),
  ledger_code: Opt(LedgerCode('On every instruction or on none.')),
  reference: NonBlankText({ maxLength: 512, description: 'The vendor’s reference, e.g. a mandate id.' }),
  type: Choice(['BPAY', 'CARD', 'CUSTOM', 'DIRECT_DEBIT', 'GMO_REFUND', 'PAYMENT_SLIP'] as const),
  use_for_scheduled_payments: Opt(Bool()),
  valid_from: Opt(Nullable(CalendarDate())),
  vendor: Choice(PAYMENT_VENDORS),
});

const PaymentPlanPaymentSchema = Obj({
  amount_components: List(
    Obj({
      amount: Int({ minimum: 0 }),
      component_type: NonBlankText({ description: 'Depends on the strategy.' }),
    }),
    { description: 'Amounts sum to total_amount.' },
  ),
  payment_date: CalendarDate(),
  total_amount: Int({ minimum: 0 }),
});

export const PaymentPlanSchema = Obj({
  accepted_at: DateTime(),
  payments: List(PaymentPlanPaymentSchema, { description: 'Each (payment date, component type) once.' }),
  schedule_means: Choice(PAYMENT_MEANS),
  strategy_name: NonBlankText({ description: 'An existing payment plan strategy.' }),
});

const ledgerIdentifier = NonBlankText({ description: 'ledger_identifier of one of the payload’s ledgers.' });

export const PaymentPreferenceSchema = TaggedUnion('type', [
  Obj({
    type: Type.Literal('ACTIVE_EXISTING'),
    instruction_reference_params: Obj({
      vendor_name: Choice(PAYMENT_VENDORS),
      vendor_reference: NonBlankText({ maxLength: 512 }),
    }),
    ledger_identifier: ledgerIdentifier,
  }),
  Obj({
    type: Type.Literal('ACTIVE_NEW'),
    instruction_reference_params: Obj({
      instruction_identifier: NonBlankText({
        maxLength: 512,
        description: 'instruction_identifier of one of payment_instructions.',
      }),
    }),
    ledger_identifier: ledgerIdentifier,
  }),
  Obj({ type: Type.Literal('PASSIVE'), ledger_identifier: ledgerIdentifier }),
]);

export const PaymentPromiseSchema = Obj({
  amount: Decimal(8, 2),
  ledger_code: Opt(LedgerCode()),
  payment_date: CalendarDate(),
});

const InstalmentSchema = Obj({
  amount: Decimal(8, 2),
  payment_date: CalendarDate({ description: 'Inside the schedule’s period.' }),
  payment_type: Opt(Choice([''] as const)),
});

export const PaymentScheduleSchema = Obj({
  amount: Opt(
    Decimal(8, 2, { default: '0.00', description: 'Not zero for schedules not triggered by bills.' }),
  ),
  balance_threshold: Opt(Decimal(8, 2, { description: 'Required for BALANCE-triggered schedules.' })),
  day_of_month: Opt(Nullable(Int({ description: 'Payment day, 1 to 28; required for REGULAR schedules.' }))),
  debt_repayment_element: Opt(Decimal(8, 2, { description: 'Needs debt_repayment_end_date.' })),
  debt_repayment_end_date: Opt(CalendarDate({ description: 'Not after end_date.' })),
  delay_days: Opt(Int({ description: 'Required with delay_strategy; BILL trigger only.' })),
  delay_strategy: Opt(Choice(['FIXED', 'WORKING_DAYS'] as const)),
  end_date: Opt(Nullable(CalendarDate({ description: 'Not before start_date; omit for open-ended.' }))),
  exempt_from_payment_adequacy: Opt(Bool({ default: false, description: 'REGULAR schedules only.' })),
  frequency: Opt(
    Choice([
      'MONTHLY',
      'QUARTERLY',
      'WEEKLY',
      'FORTNIGHTLY',
      'FOUR_WEEKLY',
      'ANNUALLY',
      'SIX_MONTHLY',
    ] as const),
  ),
  instalments: Opt(List(InstalmentSchema, { description: 'Required for PLAN; they sum to amount.' })),
  is_debt_repayment_plan: Opt(Bool({ default: false })),
  ledger_code: Opt(LedgerCode('On every schedule or on none.')),
  means: Choice(PAYMENT_MEANS),
  paid_by: Opt(Choice(['CUSTOMER', 'FUEL_DIRECT'] as const, { default: 'CUSTOMER' })),
  start_date: CalendarDate(),
  trigger: Opt(
    Choice(['PLAN', 'REGULAR', 'REGULAR_PLAN', 'BALANCE', 'BILL'] as const, {
      description: 'Omitted means REGULAR.',
    }),
  ),
});

export type PaymentSchedule = Static<typeof PaymentScheduleSchema>;
export type PaymentPreference = Static<typeof PaymentPreferenceSchema>;
export type PaymentAdequacyChange = Static<typeof PaymentAdequacyChangeSchema>;
