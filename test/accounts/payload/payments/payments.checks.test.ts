import { describe } from 'node:test';
import { ruleCases } from '../support/rule-cases.ts';

const SCHEDULE = 'payment_schedules.1';
const regular = (changes: Record<string, unknown> = {}) => ({
  amount: '60.00',
  day_of_month: 2,
  frequency: 'MONTHLY',
  means: 'DD',
  start_date: '2018-01-01',
  ...changes,
});
const adequacy = (changes: Record<string, unknown> = {}) => ({
  last_payment_review_date: null,
  payment_adequacy_changes: [
    {
      applied_at: '2020-01-02T00:00:00Z',
      average_monthly_charge: 50,
      average_monthly_elec_charge: 30,
      average_monthly_gas_charge: 20,
      balance_adjustment: 10,
      created_at: '2020-01-01T00:00:00Z',
      current_balance: -100,
      existing_direct_debit_payment: 40,
      new_direct_debit: 55,
      target_balance: 20,
      ...changes,
    },
  ],
});

describe('payment schedules', () => {
  ruleCases([
    {
      rejects: 'a schedule ending before it starts',
      changes: { [`${SCHEDULE}.end_date`]: '2017-12-31' },
      attr: `${SCHEDULE}.end_date`,
      code: 'start_date_later_than_end_date',
    },
    {
      rejects: 'a fixed schedule without an amount',
      changes: { [`${SCHEDULE}.amount`]: undefined },
      attr: `${SCHEDULE}.amount`,
      code: 'zero_payment_schedule_amount',
    },
    {
      accepts: 'a bill-triggered schedule without an amount',
      changes: {
        [SCHEDULE]: { means: 'DD', start_date: '2018-01-01', trigger: 'BILL', end_date: '2018-12-31' },
      },
    },
    {
      rejects: 'a regular schedule without a frequency',
      changes: { [`${SCHEDULE}.frequency`]: undefined },
      attr: `${SCHEDULE}.frequency`,
      code: 'fixed_payment_schedule_missing_frequency',
    },
    {
      rejects: 'a regular schedule without a payment day',
      changes: { [`${SCHEDULE}.day_of_month`]: null },
      attr: `${SCHEDULE}.day_of_month`,
      code: 'fixed_payment_schedule_missing_day_of_month',
    },
    {
      rejects: 'a payment day not in every month',
      changes: { [`${SCHEDULE}.day_of_month`]: 31 },
      attr: `${SCHEDULE}.day_of_month`,
      code: 'invalid_payment_day_for_payment_schedule',
    },
    {
      rejects: 'a balance-triggered schedule without a threshold',
      changes: { [SCHEDULE]: regular({ trigger: 'BALANCE' }) },
      attr: `${SCHEDULE}.balance_threshold`,
      code: 'balance_triggered_schedule_missing_threshold',
    },
    {
      rejects: 'a debt repayment element without an end date',
      changes: { 'payment_schedules.0.debt_repayment_end_date': undefined },
      attr: 'payment_schedules.0.debt_repayment_end_date',
      code: 'debt_repayment_missing_end_date',
    },
    {
      rejects: 'debt repayment ending after the schedule',
      changes: { 'payment_schedules.0.end_date': '2019-12-31' },
      attr: 'payment_schedules.0.debt_repayment_end_date',
      code: 'debt_repayment_end_date_after_schedule_end_date',
    },
    {
      rejects: 'a payment adequacy exemption on a schedule that is not REGULAR',
      changes: { [SCHEDULE]: regular({ trigger: 'REGULAR_PLAN', exempt_from_payment_adequacy: true }) },
      attr: `${SCHEDULE}.exempt_from_payment_adequacy`,
      code: 'invalid_payment_schedule_to_exempt_from_payment_adequacy',
    },
    {
      rejects: 'a payment delay on a schedule not triggered by bills',
      changes: { [`${SCHEDULE}.delay_strategy`]: 'FIXED', [`${SCHEDULE}.delay_days`]: 3 },
      attr: `${SCHEDULE}.delay_strategy`,
      code: 'payment_schedule_delay_must_have_bill_trigger',
    },
    {
      rejects: 'a delay strategy without delay days',
      changes: {
        [SCHEDULE]: {
          means: 'DD',
          start_date: '2018-01-01',
          trigger: 'BILL',
          delay_strategy: 'WORKING_DAYS',
        },
      },
      attr: `${SCHEDULE}.delay_days`,
      code: 'payment_schedule_delay_strategy_missing_delay_days',
    },
    {
      rejects: 'a PLAN schedule without instalments',
      changes: { [SCHEDULE]: regular({ trigger: 'PLAN', end_date: '2018-12-31' }) },
      attr: `${SCHEDULE}.instalments`,
      code: 'payment_instalments_not_provided',
    },
    {
      rejects: 'instalments that do not sum to the schedule amount',
      changes: {
        [SCHEDULE]: regular({
          trigger: 'PLAN',
          end_date: '2018-12-31',
          instalments: [
            { amount: '30.00', payment_date: '2018-02-01' },
            { amount: '29.99', payment_date: '2018-03-01' },
          ],
        }),
      },
      attr: `${SCHEDULE}.instalments`,
      code: 'payment_instalments_do_not_sum_to_total',
    },
    {
      rejects: 'an instalment outside the schedule’s period',
      changes: {
        [SCHEDULE]: regular({
          trigger: 'PLAN',
          end_date: '2018-12-31',
          instalments: [{ amount: '60.00', payment_date: '2019-01-01' }],
        }),
      },
      attr: `${SCHEDULE}.instalments.0.payment_date`,
      code: 'payment_instalments_date_outside_of_payment_schedule_active_period',
    },
    {
      rejects: 'two instalments on one date',
      changes: {
        [SCHEDULE]: regular({
          trigger: 'PLAN',
          end_date: '2018-12-31',
          instalments: [
            { amount: '30.00', payment_date: '2018-02-01' },
            { amount: '30.00', payment_date: '2018-02-01' },
          ],
        }),
      },
      attr: `${SCHEDULE}.instalments.1.payment_date`,
      code: 'children_with_duplicate_values',
    },
  ]);
});

describe('payment schedule timelines per ledger', () => {
  ruleCases([
    { accepts: 'a debt repayment plan alongside the regular schedule (the example)', changes: {} },
    {
      rejects: 'two open-ended regular schedules',
      changes: { 'payment_schedules.0.is_debt_repayment_plan': false },
      attr: `${SCHEDULE}.end_date`,
      code: 'multiple_open_ended_payment_schedules',
    },
    {
      rejects: 'overlapping regular schedules',
      changes: {
        'payment_schedules.0': regular({ end_date: '2018-06-30' }),
        [`${SCHEDULE}.start_date`]: '2018-06-01',
      },
      attr: `${SCHEDULE}.start_date`,
      code: 'payment_schedule_date_overlaps',
    },
    {
      rejects: 'a future schedule that leaves a gap after the current one',
      changes: {
        'payment_schedules.0': regular({ end_date: '2025-06-30' }),
        [`${SCHEDULE}.start_date`]: '2025-08-01',
      },
      attr: `${SCHEDULE}.start_date`,
      code: 'payment_schedule_date_gaps',
    },
    {
      accepts: 'a gap between past schedules',
      changes: { 'payment_schedules.0': regular({ start_date: '2017-01-01', end_date: '2017-06-30' }) },
    },
    {
      rejects: 'a ledger code on some schedules but not all',
      changes: { 'payment_schedules.0.ledger_code': 'MAIN' },
      attr: 'payment_schedules.1.ledger_code',
      code: 'payment_schedules_ledger_code_uniformity_failed',
    },
    {
      rejects: 'a ledger code on some payment instructions but not all',
      changes: {
        payment_instructions: [
          { reference: 'A', type: 'CARD', vendor: 'STRIPE', ledger_code: 'MAIN' },
          { reference: 'B', type: 'CARD', vendor: 'STRIPE' },
        ],
      },
      attr: 'payment_instructions.1.ledger_code',
      code: 'payment_instructions_ledger_code_uniformity_failed',
    },
  ]);
});

describe('payment plans', () => {
  const plan = (payments: unknown[]) => ({
    payment_schedules: undefined,
    payment_plans: [
      { accepted_at: '2020-01-01T00:00:00Z', payments, schedule_means: 'DD', strategy_name: 'standard' },
    ],
  });
  ruleCases([
    {
      accepts: 'a plan whose components sum to each payment',
      changes: plan([
        {
          payment_date: '2020-02-01',
          total_amount: 30,
          amount_components: [
            { amount: 20, component_type: 'a' },
            { amount: 10, component_type: 'b' },
          ],
        },
      ]),
    },
    {
      rejects: 'components that do not sum to the payment total',
      changes: plan([
        {
          payment_date: '2020-02-01',
          total_amount: 30,
          amount_components: [{ amount: 20, component_type: 'a' }],
        },
      ]),
      attr: 'payment_plans.0.payments.0.total_amount',
      code: 'payment_plan_payment_components_do_not_sum_to_total',
    },
    {
      rejects: 'a component type twice on one payment date',
      changes: plan([
        {
          payment_date: '2020-02-01',
          total_amount: 10,
          amount_components: [{ amount: 10, component_type: 'a' }],
        },
        {
          payment_date: '2020-02-01',
          total_amount: 10,
          amount_components: [{ amount: 10, component_type: 'a' }],
        },
      ]),
      attr: 'payment_plans.0.payments.1.amount_components.0.component_type',
      code: 'duplicate_payment_component_combinations',
    },
    {
      rejects: 'a payment plan and a payment schedule on the same ledger',
      changes: {
        payment_plans: [
          {
            accepted_at: '2020-01-01T00:00:00Z',
            payments: [],
            schedule_means: 'DD',
            strategy_name: 'standard',
          },
        ],
      },
      attr: 'payment_plans',
      code: 'payment_plan_and_payment_schedule_not_allowed_on_same_ledger',
    },
  ]);
});

describe('payment adequacy changes', () => {
  ruleCases([
    { accepts: 'a consistent applied change', changes: adequacy() },
    {
      rejects: 'a change created in the future',
      changes: adequacy({ created_at: '2025-06-02T00:00:00Z', applied_at: '2025-06-03T00:00:00Z' }),
      attr: 'payment_adequacy_changes.0.created_at',
      code: 'payment_adequacy_invalid_dates',
    },
    {
      rejects: 'a change applied before it was created',
      changes: adequacy({ applied_at: '2019-12-31T23:59:59Z' }),
      attr: 'payment_adequacy_changes.0.applied_at',
      code: 'payment_adequacy_invalid_dates',
    },
    {
      rejects: 'a change neither applied nor explained',
      changes: adequacy({ applied_at: null }),
      attr: 'payment_adequacy_changes.0.should_not_be_applied_reason',
      code: 'payment_adequacy_missing_reason',
    },
    {
      rejects: 'a change both applied and explained as not applied',
      changes: adequacy({ should_not_be_applied_reason: 'No' }),
      attr: 'payment_adequacy_changes.0.should_not_be_applied_reason',
      code: 'payment_adequacy_should_not_have_been_applied',
    },
    {
      rejects: 'an average that is not electricity plus gas',
      changes: adequacy({ average_monthly_gas_charge: 21 }),
      attr: 'payment_adequacy_changes.0.average_monthly_charge',
      code: 'payment_adequacy_monthly_charges_unequal',
    },
    {
      rejects: 'a new direct debit above charge plus adjustment',
      changes: adequacy({ new_direct_debit: 61 }),
      attr: 'payment_adequacy_changes.0.new_direct_debit',
      code: 'payment_adequacy_new_direct_debit_amount_mismatch',
    },
  ]);
});
