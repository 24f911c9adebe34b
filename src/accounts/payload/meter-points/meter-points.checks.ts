/** Rules on each meter point: supply dates, agreements and whether a billable point can be billed. */

import { type CheckContext, isFilled } from '../../../validation/check-context.ts';
import { addDays } from '../../../vocabulary/calendar-date.ts';
import {
  type AccountFacts,
  type AnyMeter,
  isActiveMeter,
  isBillable,
  type LocatedMeterPoint,
  pointLastBilledToDate,
} from '../account-facts.ts';
import { compositeKey, findRepeatedIndexes } from '../rules/duplicates.ts';
import { coversDate, findSequenceBreaks } from '../rules/periods.ts';
import type { MeterPoint } from './meter-points.schema.ts';

/** Unmetered electricity supplies need no meter: non-half-hourly (B) and half-hourly (D). */
const UNMETERED_MEASUREMENT_CLASSES = new Set(['B', 'D']);

export function checkMeterPoint(ctx: CheckContext, facts: AccountFacts, located: LocatedMeterPoint): void {
  const { point, path } = located;
  const billable = isBillable(point, ctx.today);
  if (point.supply_end_date != null && point.supply_end_date < point.supply_start_date) {
    ctx.report(
      `${path}.supply_end_date`,
      'start_date_later_than_end_date',
      'The supply end date is before the supply start date.',
    );
  }
  if (point.supply_end_date != null && point.supply_end_date > ctx.today) {
    ctx.report(
      `${path}.supply_end_date`,
      'future_supply_end_date',
      'A future supply end date means a loss is in progress; import the point once it is lost.',
    );
  }
  if (billable && point.supply_start_date > ctx.today) {
    ctx.report(
      `${path}.supply_start_date`,
      'future_supply_start_date',
      'A billable meter point cannot start supply in the future.',
    );
  }
  if (point.dr_in_progress === true) {
    ctx.report(
      `${path}.dr_in_progress`,
      'disputed_read_in_progress',
      'A disputed read is in progress; import the point once it is resolved.',
    );
  }
  if (point.et_in_progress === true) {
    ctx.report(
      `${path}.et_in_progress`,
      'erroneous_transfer_not_in_progress',
      'An erroneous transfer is in progress; import the point once it is resolved.',
    );
  }
  if (
    point.smart_refusal_interest?.type === 'INTERESTED' &&
    point.smart_refusal_interest.refusal_reason !== undefined
  ) {
    ctx.report(
      `${path}.smart_refusal_interest.refusal_reason`,
      'smart_refusal_reason_given_for_interest',
      'No refusal reason when the customer is interested.',
    );
  }
  if (
    point.supply_type === 'ELECTRICITY' &&
    point.agents != null &&
    (isFilled(point.dc_to_appoint) || isFilled(point.mop_to_appoint))
  ) {
    ctx.report(
      `${path}.agents`,
      'agents_and_mpids_to_appoint_provided',
      'Send agents or dc_to_appoint / mop_to_appoint, not both.',
    );
  }
  checkAgreements(ctx, point, path);
  checkBillingCoverage(ctx, facts, point, path, billable);
  checkDummyMeterExchanges(ctx, point, path);
}

/**
 * At least one meter point must be billable. Accounts without meter points are left alone: some
 * suppliers migrate without supply points (an import-supplier setting we do not see here).
 */
export function checkSomePointOnSupply(ctx: CheckContext, facts: AccountFacts): void {
  if (!facts.supplyAddressesClean || facts.meterPoints.length === 0) return;
  if (!facts.meterPoints.some(({ point }) => isBillable(point, ctx.today))) {
    ctx.report(
      'supply_addresses',
      'no_supply_point_on_supply',
      'At least one meter point must still be on supply.',
    );
  }
}

function checkAgreements(ctx: CheckContext, point: MeterPoint, path: string): void {
  const agreements = point.agreements ?? [];
  agreements.forEach((agreement, k) => {
    const at = `${path}.agreements.${k}`;
    if (agreement.effective_to != null && agreement.effective_to < agreement.effective_from) {
      ctx.report(
        `${at}.effective_to`,
        'start_date_later_than_end_date',
        'effective_to is before effective_from.',
      );
    }
    if (agreement.effective_from < point.supply_start_date) {
      ctx.report(
        `${at}.effective_from`,
        'agreement_start_date_before_supply_start_date',
        'An agreement cannot start before the supply start date.',
      );
    }
    for (const index of findRepeatedIndexes(agreement.characteristics ?? [], (c) => c.code)) {
      ctx.report(
        `${at}.characteristics.${index}.code`,
        'children_with_duplicate_values',
        'Each characteristic code at most once.',
      );
    }
    const rates: Array<{ meter_serial_number?: string; payment_method?: string | null }> =
      agreement.bespoke_tariff_rates ?? [];
    for (const index of findRepeatedIndexes(rates, (r) =>
      compositeKey(r.meter_serial_number ?? '', r.payment_method ?? ''),
    )) {
      ctx.report(
        `${at}.bespoke_tariff_rates.${index}`,
        'duplicate_bespoke_rates',
        'A bespoke rate for this meter and payment method is already given.',
      );
    }
    if (point.supply_type === 'ELECTRICITY') {
      (point.agreements?.[k].bespoke_tariff_rates ?? []).forEach((rate, b) => {
        rate.registers.forEach((register, r) => {
          if (!isFilled(register.register_id) && register.rate_type === undefined) {
            ctx.report(
              `${at}.bespoke_tariff_rates.${b}.registers.${r}.register_id`,
              'no_register_id_or_rate_type_provided_for_bespoke_elec_rate',
              'A bespoke register rate needs a register_id or a rate_type.',
            );
          }
        });
      });
    }
  });
  // Agreements follow on from each other; a gap is allowed only before the current supply period.
  for (const { index, kind } of findSequenceBreaks(periodsOf(agreements), 'exclusive')) {
    if (kind === 'gap' && agreements[index].effective_from <= point.supply_start_date) continue;
    ctx.report(
      `${path}.agreements.${index}.effective_from`,
      'gaps_or_overlaps_in_agreement_dates',
      kind === 'gap'
        ? 'This agreement does not start when the previous one ends.'
        : 'This agreement overlaps another one.',
    );
  }
}

function periodsOf(agreements: NonNullable<MeterPoint['agreements']>) {
  return agreements.map((agreement) => ({ from: agreement.effective_from, to: agreement.effective_to }));
}

function checkBillingCoverage(
  ctx: CheckContext,
  facts: AccountFacts,
  point: MeterPoint,
  path: string,
  billable: boolean,
): void {
  const agreements = point.agreements ?? [];
  const meters: AnyMeter[] = point.meters ?? [];
  if (billable && agreements.length === 0) {
    ctx.report(
      `${path}.agreements`,
      'meter_point_with_no_agreement',
      'A billable meter point needs an agreement.',
    );
  }
  if (point.supply_end_date != null) {
    const ended = point.supply_end_date;
    agreements.forEach((agreement, k) => {
      if (agreement.effective_from > ended) {
        ctx.report(
          `${path}.agreements.${k}.effective_from`,
          'meterpoint_with_agreement_not_on_supply',
          'This agreement starts after the meter point left supply.',
        );
      }
    });
  }
  const billedTo = pointLastBilledToDate(point, facts);
  if (billable && agreements.length > 0 && billedTo !== undefined && billedTo >= point.supply_start_date) {
    if (
      !agreements.some((agreement) =>
        coversDate({ from: agreement.effective_from, to: agreement.effective_to }, billedTo, 'exclusive'),
      )
    ) {
      ctx.report(
        `${path}.agreements`,
        'no_agreement_covering_last_billed_to_date',
        `No agreement covers the last billed to date ${billedTo}.`,
      );
    }
  }
  const unmetered =
    point.supply_type === 'ELECTRICITY' && UNMETERED_MEASUREMENT_CLASSES.has(point.measurement_class ?? '');
  if (billable && !unmetered && !meters.some((meter) => isActiveMeter(meter, ctx.today))) {
    ctx.report(
      `${path}.meters`,
      'meter_point_with_no_meters',
      'A billable meter point needs an active meter, or an unmetered measurement class.',
    );
  }
  if (!billable && point.supply_end_date != null && meters.length > 0) {
    const endedOn = point.supply_end_date;
    const readingDates = meters
      .flatMap((meter) => [...(meter.transfer_readings ?? []), ...(meter.reading_history ?? [])])
      .map((r) => r.reading_date);
    if (!readingDates.includes(endedOn)) {
      ctx.report(
        `${path}.supply_end_date`,
        'no_reading_on_supply_end_date',
        'A meter point off supply needs a final reading on its supply end date.',
      );
    }
  }
  if (point.supply_type === 'GAS' && billable) {
    const current = (point.aq_history ?? []).some(
      (entry) => entry.effective_to == null || entry.effective_to >= ctx.today,
    );
    if (!current)
      ctx.report(
        `${path}.aq_history`,
        'no_current_or_future_aq_entry_found',
        'A billable gas meter point needs a current AQ.',
      );
  }
}

/** Meters sharing a serial are only valid as a dummy exchange: one removed, the next commissioned the day after. */
function checkDummyMeterExchanges(ctx: CheckContext, point: MeterPoint, path: string): void {
  const meters: AnyMeter[] = point.meters ?? [];
  const bySerial = new Map<string, number[]>();
  meters.forEach((meter, m) => {
    bySerial.set(meter.meter_serial_number, [...(bySerial.get(meter.meter_serial_number) ?? []), m]);
  });
  for (const indexes of bySerial.values()) {
    if (indexes.length < 2) continue;
    const ordered = [...indexes].sort((a, b) =>
      (meters[a].installed_on ?? '') < (meters[b].installed_on ?? '') ? -1 : 1,
    );
    for (let k = 1; k < ordered.length; k++) {
      const removed = meters[ordered[k - 1]].removed_on;
      const installed = meters[ordered[k]].installed_on;
      if (removed == null || installed == null || installed !== addDays(removed, 1)) {
        ctx.report(
          `${path}.meters.${ordered[k]}.meter_serial_number`,
          'multiple_non_dmex_meters_with_serial_number',
          'Meters may share a serial only as a dummy exchange: installed the day after the other was removed.',
        );
      }
    }
  }
}
