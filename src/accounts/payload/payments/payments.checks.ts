/** Rules on payment instructions, schedules, plans, preferences and payment adequacy reviews. */

import type { ItemCode } from '../../../errors/item-codes.ts';
import {
  type CheckContext,
  cleanItems,
  count,
  isFilled,
  type Located,
} from '../../../validation/check-context.ts';
import { calendarDateOf, instantOf } from '../../../vocabulary/calendar-date.ts';
import { MONEY_SCALE, toScaledInteger } from '../../../vocabulary/decimal.ts';
import type { AccountFacts } from '../account-facts.ts';
import { compositeKey, findRepeatedIndexes } from '../rules/duplicates.ts';
import { isDayOfEveryMonth } from '../rules/industry-identifiers.ts';
import { findSequenceBreaks } from '../rules/periods.ts';
import type { PaymentSchedule } from './payments.schema.ts';

export function checkPayments(ctx: CheckContext, facts: AccountFacts): void {
  const { payload } = facts;
  checkLedgerCodeUniformity(
    ctx,
    payload.payment_instructions,
    'payment_instructions',
    'payment_instructions_ledger_code_uniformity_failed',
  );
  checkLedgerCodeUniformity(
    ctx,
    payload.payment_schedules,
    'payment_schedules',
    'payment_schedules_ledger_code_uniformity_failed',
  );
  const schedules = cleanItems(ctx, payload.payment_schedules, 'payment_schedules');
  for (const schedule of schedules) checkSchedule(ctx, schedule);
  checkScheduleTimelines(ctx, schedules);
  if (count(payload.payment_plans) > 0 && schedules.some(({ value }) => !isFilled(value.ledger_code))) {
    ctx.report(
      'payment_plans',
      'payment_plan_and_payment_schedule_not_allowed_on_same_ledger',
      'A payment plan creates its own schedule: no payment schedule on the same ledger.',
    );
  }
  for (const { value: plan, path } of cleanItems(ctx, payload.payment_plans, 'payment_plans')) {
    const components = plan.payments.flatMap((payment, j) =>
      payment.amount_components.map((component, k) => ({
        key: compositeKey(payment.payment_date, component.component_type),
        path: `${path}.payments.${j}.amount_components.${k}.component_type`,
      })),
    );
    for (const index of findRepeatedIndexes(components, (c) => c.key)) {
      ctx.report(
        components[index].path,
        'duplicate_payment_component_combinations',
        'Each component type at most once per payment date.',
      );
    }
    plan.payments.forEach((payment, j) => {
      const sum = payment.amount_components.reduce((total, component) => total + component.amount, 0);
      if (payment.amount_components.length > 0 && sum !== payment.total_amount) {
        ctx.report(
          `${path}.payments.${j}.total_amount`,
          'payment_plan_payment_components_do_not_sum_to_total',
          `The components sum to ${sum}.`,
        );
      }
    });
  }
  for (const { value: change, path } of cleanItems(
    ctx,
    payload.payment_adequacy_changes,
    'payment_adequacy_changes',
  )) {
    if (calendarDateOf(change.created_at) > ctx.today) {
      ctx.report(
        `${path}.created_at`,
        'payment_adequacy_invalid_dates',
        'created_at cannot be in the future.',
      );
    }
    if (change.applied_at != null) {
      if (calendarDateOf(change.applied_at) > ctx.today)
        ctx.report(
          `${path}.applied_at`,
          'payment_adequacy_invalid_dates',
          'applied_at cannot be in the future.',
        );
      else if (instantOf(change.applied_at) < instantOf(change.created_at))
        ctx.report(
          `${path}.applied_at`,
          'payment_adequacy_invalid_dates',
          'A change is applied after it was created.',
        );
    }
    const applied = change.applied_at != null;
    const reasoned = isFilled(change.should_not_be_applied_reason);
    if (applied === reasoned) {
      const code = applied
        ? 'payment_adequacy_should_not_have_been_applied'
        : 'payment_adequacy_missing_reason';
      ctx.report(
        `${path}.should_not_be_applied_reason`,
        code,
        'Give applied_at, or a reason it was not applied, but not both.',
      );
    }
    if (
      change.average_monthly_charge !==
      change.average_monthly_elec_charge + change.average_monthly_gas_charge
    ) {
      ctx.report(
        `${path}.average_monthly_charge`,
        'payment_adequacy_monthly_charges_unequal',
        'The average monthly charge is the electricity plus the gas average.',
      );
    }
    const ceiling = change.average_monthly_charge + change.balance_adjustment;
    const [low, high] = [
      Math.min(change.existing_direct_debit_payment, ceiling),
      Math.max(change.existing_direct_debit_payment, ceiling),
    ];
    if (change.new_direct_debit < low || change.new_direct_debit > high) {
      ctx.report(
        `${path}.new_direct_debit`,
        'payment_adequacy_new_direct_debit_amount_mismatch',
        'The new direct debit lies between the existing one and the average charge plus the balance adjustment.',
      );
    }
  }
}

function checkLedgerCodeUniformity(
  ctx: CheckContext,
  items: ReadonlyArray<{ ledger_code?: string }> | undefined,
  path: string,
  code: ItemCode,
): void {
  if (!ctx.isClean(path) || !Array.isArray(items)) return;
  const withCode = items.filter((item) => isFilled(item.ledger_code)).length;
  if (withCode === 0 || withCode === items.length) return;
  const first = items.findIndex((item) => !isFilled(item.ledger_code));
  ctx.report(`${path}.${first}.ledger_code`, code, 'Give ledger_code on every item of this list or on none.');
}

const scheduleAmount = (schedule: PaymentSchedule) => toScaledInteger(schedule.amount ?? '0.00', MONEY_SCALE);

function checkSchedule(ctx: CheckContext, { value: schedule, path }: Located<PaymentSchedule>): void {
  const trigger = schedule.trigger ?? 'REGULAR';
  const report = (field: string, code: ItemCode, detail: string) =>
    ctx.report(`${path}.${field}`, code, detail);
  if (schedule.end_date != null && schedule.end_date < schedule.start_date)
    report('end_date', 'start_date_later_than_end_date', 'end_date is before start_date.');
  if (trigger !== 'BILL' && scheduleAmount(schedule) === 0n)
    report('amount', 'zero_payment_schedule_amount', 'A schedule not triggered by bills needs an amount.');
  if (trigger === 'REGULAR' && schedule.frequency === undefined)
    report('frequency', 'fixed_payment_schedule_missing_frequency', 'A regular schedule needs a frequency.');
  if (trigger === 'REGULAR' && schedule.day_of_month == null)
    report(
      'day_of_month',
      'fixed_payment_schedule_missing_day_of_month',
      'A regular schedule needs a payment day.',
    );
  if (schedule.day_of_month != null && !isDayOfEveryMonth(schedule.day_of_month)) {
    report('day_of_month', 'invalid_payment_day_for_payment_schedule', 'Use a payment day from 1 to 28.');
  }
  if (trigger === 'BALANCE' && !isFilled(schedule.balance_threshold)) {
    report(
      'balance_threshold',
      'balance_triggered_schedule_missing_threshold',
      'A balance-triggered schedule needs a balance threshold.',
    );
  }
  if (isFilled(schedule.debt_repayment_element) && schedule.debt_repayment_end_date === undefined) {
    report(
      'debt_repayment_end_date',
      'debt_repayment_missing_end_date',
      'A debt repayment element needs a debt repayment end date.',
    );
  }
  if (
    schedule.debt_repayment_end_date !== undefined &&
    schedule.end_date != null &&
    schedule.debt_repayment_end_date > schedule.end_date
  ) {
    report(
      'debt_repayment_end_date',
      'debt_repayment_end_date_after_schedule_end_date',
      'Debt repayment ends no later than the schedule.',
    );
  }
  if (schedule.exempt_from_payment_adequacy === true && trigger !== 'REGULAR') {
    report(
      'exempt_from_payment_adequacy',
      'invalid_payment_schedule_to_exempt_from_payment_adequacy',
      'Only a regular schedule can be exempt from payment adequacy.',
    );
  }
  if (schedule.delay_strategy !== undefined && trigger !== 'BILL') {
    report(
      'delay_strategy',
      'payment_schedule_delay_must_have_bill_trigger',
      'A payment delay applies to bill-triggered schedules only.',
    );
  }
  if (schedule.delay_strategy !== undefined && schedule.delay_days === undefined) {
    report(
      'delay_days',
      'payment_schedule_delay_strategy_missing_delay_days',
      'A delay strategy needs delay_days.',
    );
  }
  checkInstalments(ctx, schedule, path, trigger);
}

function checkInstalments(ctx: CheckContext, schedule: PaymentSchedule, path: string, trigger: string): void {
  const instalments = schedule.instalments ?? [];
  if (trigger === 'PLAN' && instalments.length === 0) {
    ctx.report(
      `${path}.instalments`,
      'payment_instalments_not_provided',
      'A PLAN schedule lists its instalments.',
    );
  }
  if (instalments.length === 0) return;
  let sum: bigint | null = 0n;
  for (const instalment of instalments) {
    const amount = toScaledInteger(instalment.amount, MONEY_SCALE);
    sum = sum === null || amount === null ? null : sum + amount;
  }
  if (sum !== null && sum !== scheduleAmount(schedule)) {
    ctx.report(
      `${path}.instalments`,
      'payment_instalments_do_not_sum_to_total',
      'The instalments sum to the schedule amount.',
    );
  }
  instalments.forEach((instalment, k) => {
    if (
      instalment.payment_date < schedule.start_date ||
      (schedule.end_date != null && instalment.payment_date > schedule.end_date)
    ) {
      ctx.report(
        `${path}.instalments.${k}.payment_date`,
        'payment_instalments_date_outside_of_payment_schedule_active_period',
        'Instalments fall between the schedule’s start and end dates.',
      );
    }
  });
  for (const k of findRepeatedIndexes(instalments, (i) =>
    compositeKey(i.payment_date, i.payment_type ?? ''),
  )) {
    ctx.report(
      `${path}.instalments.${k}.payment_date`,
      'children_with_duplicate_values',
      'One instalment per payment date and type.',
    );
  }
}

/**
 * Within each ledger code, the schedules that are not debt repayment plans form one timeline:
 * at most one open-ended, none starting together or overlapping, and no gaps before future ones.
 */
function checkScheduleTimelines(ctx: CheckContext, schedules: ReadonlyArray<Located<PaymentSchedule>>): void {
  const timelines = new Map<string, Array<Located<PaymentSchedule>>>();
  for (const located of schedules) {
    if (located.value.is_debt_repayment_plan === true) continue;
    const key = located.value.ledger_code ?? '';
    timelines.set(key, [...(timelines.get(key) ?? []), located]);
  }
  for (const timeline of timelines.values()) {
    const openEnded = timeline.filter(({ value }) => value.end_date == null);
    for (const { path } of openEnded.slice(1)) {
      ctx.report(
        `${path}.end_date`,
        'multiple_open_ended_payment_schedules',
        'Only one open-ended payment schedule per ledger.',
      );
    }
    const periods = timeline.map(({ value }) => ({ from: value.start_date, to: value.end_date }));
    for (const { index, kind } of findSequenceBreaks(periods, 'inclusive')) {
      const { value, path } = timeline[index];
      if (kind === 'overlap' && !(openEnded.length > 1 && value.end_date == null)) {
        ctx.report(
          `${path}.start_date`,
          'payment_schedule_date_overlaps',
          'This schedule overlaps another one on the same ledger.',
        );
      } else if (kind === 'gap' && value.start_date > ctx.today) {
        ctx.report(
          `${path}.start_date`,
          'payment_schedule_date_gaps',
          'A future schedule starts the day after the previous one ends.',
        );
      }
    }
  }
}

/** Each payment preference points at a ledger of the payload (once) and, when ACTIVE_NEW, at a payment instruction. */
export function checkPaymentPreferences(
  ctx: CheckContext,
  facts: AccountFacts,
  ledgerIds: Set<string>,
): void {
  const { payload } = facts;
  const preferences = cleanItems(ctx, payload.payment_preferences, 'payment_preferences');
  const ledgersKnown = ctx.isClean('ledgers');
  for (const { value, path } of preferences) {
    if (ledgersKnown && !ledgerIds.has(value.ledger_identifier)) {
      ctx.report(
        `${path}.ledger_identifier`,
        'invalid_payment_preference_ledger_identifier',
        'No ledger has this ledger_identifier.',
      );
    }
  }
  for (const index of findRepeatedIndexes(preferences, ({ value }) => value.ledger_identifier)) {
    ctx.report(
      `${preferences[index].path}.ledger_identifier`,
      'duplicate_ledger_in_payment_preferences',
      'A ledger has at most one payment preference.',
    );
  }
  if (!ctx.isClean('payment_instructions')) return;
  const instructionIds = new Set(
    (payload.payment_instructions ?? []).map((i) => i.instruction_identifier).filter(isFilled),
  );
  for (const { value, path } of preferences) {
    if (
      value.type === 'ACTIVE_NEW' &&
      !instructionIds.has(value.instruction_reference_params.instruction_identifier)
    ) {
      ctx.report(
        `${path}.instruction_reference_params.instruction_identifier`,
        'active_new_payment_preference_invalid_instruction_identifier',
        'No payment instruction has this instruction_identifier.',
      );
    }
  }
}
