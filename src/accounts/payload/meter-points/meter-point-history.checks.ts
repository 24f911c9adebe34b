/** Rules on a meter point's dated history: AQs, EACs, capacity, configuration periods, tax exemptions. */

import type { CheckContext } from '../../../validation/check-context.ts';
import { isActiveMeter, isBillable, type LocatedMeterPoint, settlementRegisters } from '../account-facts.ts';
import { compositeKey, findRepeatedIndexes } from '../rules/duplicates.ts';
import { findOverlaps, findSequenceBreaks } from '../rules/periods.ts';
import type { MeterPoint } from './meter-points.schema.ts';

export function checkMeterPointHistory(ctx: CheckContext, { point, path }: LocatedMeterPoint): void {
  checkTaxExemptions(ctx, point, path);
  if (point.supply_type === 'GAS') {
    checkAnnualQuantities(ctx, point.aq_history ?? [], `${path}.aq_history`);
    return;
  }
  checkConsecutivePeriods(ctx, point.capacity_values ?? [], `${path}.capacity_values`);
  const periods = point.configuration_periods ?? [];
  checkConsecutivePeriods(ctx, periods, `${path}.configuration_periods`);
  periods.forEach((period, k) => {
    if (period.effective_from_date > ctx.today) {
      ctx.report(
        `${path}.configuration_periods.${k}.effective_from_date`,
        'configuration_period_starts_in_future',
        'Configuration periods start in the past.',
      );
    }
  });
  const latest = periods.reduce<number>(
    (best, p, k) => (best < 0 || p.effective_from_date > periods[best].effective_from_date ? k : best),
    -1,
  );
  if (latest >= 0 && periods[latest].effective_to_date !== undefined) {
    ctx.report(
      `${path}.configuration_periods.${latest}.effective_to_date`,
      'latest_configuration_period_not_open_ended',
      'The latest configuration period is open-ended.',
    );
  }
  const eacs = point.eac_history ?? [];
  for (const index of findRepeatedIndexes(eacs, (eac) => compositeKey(eac.effective_from, eac.tpr))) {
    ctx.report(
      `${path}.eac_history.${index}`,
      'repeated_eac_for_tpr',
      'An EAC for this TPR and date is already given.',
    );
  }
  if (isBillable(point, ctx.today)) {
    const tprsWithEac = new Set(eacs.map((eac) => eac.tpr));
    (point.meters ?? []).forEach((meter, m) => {
      if (!isActiveMeter(meter, ctx.today)) return;
      for (const register of settlementRegisters(meter)) {
        if (register.tpr !== undefined && register.tpr !== '' && !tprsWithEac.has(register.tpr)) {
          const r = (meter.registers ?? []).indexOf(register);
          ctx.report(
            `${path}.meters.${m}.registers.${r}.tpr`,
            'missing_eacs_for_active_register_tpr',
            `eac_history has no EAC for TPR ${register.tpr}.`,
          );
        }
      }
    });
  }
}

interface DatedRange {
  effective_from_date: string;
  effective_to_date?: string;
}

/**
 * Capacity values and configuration periods: each period ends on the date the next one starts
 * (the reference's continuity rule), and no period starts and ends on the same date.
 */
function checkConsecutivePeriods(ctx: CheckContext, periods: readonly DatedRange[], path: string): void {
  periods.forEach((period, k) => {
    if (period.effective_to_date === undefined) return;
    if (period.effective_to_date < period.effective_from_date) {
      ctx.report(
        `${path}.${k}.effective_to_date`,
        'start_date_later_than_end_date',
        'effective_to_date is before effective_from_date.',
      );
    } else if (period.effective_to_date === period.effective_from_date) {
      ctx.report(
        `${path}.${k}.effective_to_date`,
        'zero_length_periods',
        'A period must not start and end on the same date.',
      );
    }
  });
  const ranges = periods.map((p) => ({ from: p.effective_from_date, to: p.effective_to_date }));
  for (const { index, kind } of findSequenceBreaks(ranges, 'exclusive')) {
    ctx.report(
      `${path}.${index}.effective_from_date`,
      'gaps_or_overlaps_in_periods',
      `This period ${kind === 'gap' ? 'leaves a gap after' : 'overlaps'} the previous one.`,
    );
  }
}

function checkAnnualQuantities(
  ctx: CheckContext,
  entries: NonNullable<Extract<MeterPoint, { supply_type: 'GAS' }>['aq_history']>,
  path: string,
): void {
  entries.forEach((entry, k) => {
    if (entry.effective_to != null && entry.effective_to < entry.effective_from) {
      ctx.report(
        `${path}.${k}.effective_to`,
        'start_date_later_than_end_date',
        'effective_to is before effective_from.',
      );
    }
  });
  const openEnded = entries.flatMap((entry, k) => (entry.effective_to == null ? [k] : []));
  for (const k of openEnded.slice(1)) {
    ctx.report(
      `${path}.${k}.effective_to`,
      'multiple_open_ended_aqs_in_meterpoint_aq_history',
      'Only one AQ entry may be open-ended.',
    );
  }
  if (openEnded.length > 1) return;
  const ranges = entries.map((entry) => ({ from: entry.effective_from, to: entry.effective_to }));
  for (const { index } of findSequenceBreaks(ranges, 'inclusive')) {
    ctx.report(
      `${path}.${index}.effective_from`,
      'gaps_or_overlaps_in_aq_history',
      'Each AQ entry starts the day after the previous one ends.',
    );
  }
}

function checkTaxExemptions(ctx: CheckContext, point: MeterPoint, path: string): void {
  for (const list of ['ccl_exemptions', 'vat_exemptions'] as const) {
    const exemptions = point[list] ?? [];
    exemptions.forEach((exemption, k) => {
      if (exemption.effective_to !== undefined && exemption.effective_to <= exemption.effective_from) {
        ctx.report(
          `${path}.${list}.${k}.effective_to`,
          'start_date_same_as_end_date',
          'effective_to must be after effective_from.',
        );
      }
    });
    const openEnded = exemptions.flatMap((exemption, k) => (exemption.effective_to === undefined ? [k] : []));
    for (const k of openEnded.slice(1)) {
      ctx.report(
        `${path}.${list}.${k}`,
        'multiple_open_ended_tax_exemptions',
        'Only one tax exemption may be open-ended.',
      );
    }
    if (openEnded.length > 1) continue;
    const ranges = exemptions.map((e) => ({ from: e.effective_from, to: e.effective_to }));
    for (const k of findOverlaps(ranges, 'exclusive')) {
      ctx.report(
        `${path}.${list}.${k}.effective_from`,
        'overlapping_effective_dates_for_tax_exemptions',
        'This exemption overlaps another one.',
      );
    }
  }
}
