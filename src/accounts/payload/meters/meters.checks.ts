/** Rules on each meter: smart and prepay details, registers, readings, exchanges, billed-to dates. */

import type { ItemCode } from '../../../errors/item-codes.ts';
import { type CheckContext, isFilled } from '../../../validation/check-context.ts';
import {
  type AccountFacts,
  type AnyMeter,
  isActiveMeter,
  isBillable,
  isHalfHourly,
  type LocatedMeterPoint,
  meterLastBilledToDate,
  ownLastBilledToDate,
  registerLastBilledToDate,
  settlementRegisters,
} from '../account-facts.ts';
import type { MeterPoint } from '../meter-points/meter-points.schema.ts';
import { findRepeatedIndexes } from '../rules/duplicates.ts';
import type { ElectricityMeter } from './meters.schema.ts';
import { isAcceptedTransferVendReadDate } from './prepay-vend-date.ts';

interface MeterScope {
  ctx: CheckContext;
  facts: AccountFacts;
  point: MeterPoint;
  meter: AnyMeter;
  at: string;
}

export function checkMeters(
  ctx: CheckContext,
  facts: AccountFacts,
  { point, path }: LocatedMeterPoint,
  requireBilledDates: boolean,
): void {
  const meters: AnyMeter[] = point.meters ?? [];
  const isExchange = meters.some((meter) => meter.removed_on != null);
  meters.forEach((meter, m) => {
    const scope: MeterScope = { ctx, facts, point, meter, at: `${path}.meters.${m}` };
    checkSmartAndPrepay(scope);
    if ('gas_number_of_digits' in meter) checkGasTransferReadings(scope);
    else checkElectricityRegisters(scope, meter);
    checkReadingDates(scope);
    if (isExchange) checkExchange(scope, meters.length > 1);
    if (
      requireBilledDates &&
      isBillable(point, ctx.today) &&
      isActiveMeter(meter, ctx.today) &&
      !isHalfHourly(point)
    ) {
      checkBilledDatePresent(scope);
    }
  });
}

function checkSmartAndPrepay({ ctx, facts, point, meter, at }: MeterScope): void {
  const isSmart = meter.smart_type !== undefined && meter.smart_type !== 'NONE';
  if (!isSmart && isFilled(meter.smart_device_id)) {
    ctx.report(
      `${at}.smart_device_id`,
      'smart_details_provided_for_non_smart_meter',
      'Smart details are only for smart meters (smart_type).',
    );
  }
  if (!isSmart && meter.smart_commissioned_on != null) {
    ctx.report(
      `${at}.smart_commissioned_on`,
      'smart_details_provided_for_non_smart_meter',
      'Smart details are only for smart meters (smart_type).',
    );
  }
  if (meter.smart_commissioned_on != null && meter.smart_commissioned_on > ctx.today) {
    ctx.report(
      `${at}.smart_commissioned_on`,
      'future_smart_meter_commission_date',
      'A meter cannot be commissioned in the future.',
    );
  }
  if (meter.is_prepay !== true) {
    if (meter.prepay_details !== undefined) {
      ctx.report(
        `${at}.prepay_details`,
        'prepay_details_on_non_prepay_meter',
        'Prepay details are only for prepay meters (is_prepay).',
      );
    }
    if (isFilled(meter.prepay_customer_reference_number)) {
      ctx.report(
        `${at}.prepay_customer_reference_number`,
        'prepay_details_on_non_prepay_meter',
        'Prepay details are only for prepay meters (is_prepay).',
      );
    }
  } else if (
    !('gas_number_of_digits' in meter) &&
    meter.removed_on == null &&
    !isFilled(meter.prepay_customer_reference_number)
  ) {
    ctx.report(
      `${at}.prepay_customer_reference_number`,
      'electricity_prepay_meter_without_customer_reference_number',
      'An active electricity prepay meter needs its customer reference number.',
    );
  }
  const billedTo = meterLastBilledToDate(meter, point, facts);
  if (meter.prepay_details === undefined || billedTo === undefined) return;
  if (meter.removed_on != null && meter.removed_on <= billedTo) {
    ctx.report(
      `${at}.prepay_details`,
      'prepay_details_on_fully_billed_meter',
      'This meter is fully billed, so it takes no prepay details.',
    );
  } else if (!isAcceptedTransferVendReadDate(meter.prepay_details.transfer_vend_read_date, billedTo)) {
    ctx.report(
      `${at}.prepay_details.transfer_vend_read_date`,
      'transfer_vend_read_date_must_match_last_billed_to_date',
      `The transfer vend read date is the last billed to date (${billedTo}) or the day before it.`,
    );
  }
}

/** A meter installed after the billed-to date was not on the wall at transfer: it has no transfer reading. */
function isNewSinceTransfer({ facts, point, meter }: MeterScope): boolean {
  const billedTo = meterLastBilledToDate(meter, point, facts);
  return meter.installed_on != null && billedTo !== undefined && meter.installed_on > billedTo;
}

function checkGasTransferReadings(scope: MeterScope): void {
  const { ctx, facts, point, meter, at } = scope;
  const readings = meter.transfer_readings ?? [];
  const billedTo = meterLastBilledToDate(meter, point, facts);
  if (
    meter.removed_on != null &&
    billedTo !== undefined &&
    meter.removed_on <= billedTo &&
    readings.length > 0
  ) {
    ctx.report(
      `${at}.transfer_readings`,
      'reading_meter_fully_billed',
      'This meter is fully billed, so it takes no transfer reading.',
    );
  }
  if (!isBillable(point, ctx.today) || !isActiveMeter(meter, ctx.today) || isNewSinceTransfer(scope)) return;
  if (readings.length === 0) {
    ctx.report(
      `${at}.transfer_readings`,
      'active_gas_meter_without_transfer_reading',
      'An active gas meter needs one transfer reading.',
    );
  } else if (readings.length > 1) {
    ctx.report(
      `${at}.transfer_readings.1`,
      'active_gas_meter_with_multiple_transfer_readings',
      'An active gas meter has exactly one transfer reading.',
    );
  }
}

function checkElectricityRegisters(scope: MeterScope, meter: ElectricityMeter): void {
  const { ctx, point, at } = scope;
  const registers = meter.registers ?? [];
  const active = isActiveMeter(meter, ctx.today);
  for (const r of findRepeatedIndexes(registers, (register) => register.register_id)) {
    ctx.report(
      `${at}.registers.${r}.register_id`,
      'meter_with_duplicate_register_ids',
      'Each register id at most once per meter.',
    );
  }
  for (const r of findRepeatedIndexes(registers, (register) =>
    mayRepeatTpr(register.tpr) ? undefined : register.tpr || undefined,
  )) {
    ctx.report(
      `${at}.registers.${r}.tpr`,
      'registers_have_duplicate_tprs',
      'Each TPR at most once per meter (odd TPRs 01201 to 01229 excepted).',
    );
  }
  if (active && registers.length === 0) {
    ctx.report(
      `${at}.registers`,
      'registers_missing_for_active_electricity_meter',
      'An active electricity meter needs its registers.',
    );
  }
  if (active && !isHalfHourly(point)) {
    registers.forEach((register, r) => {
      if (!isFilled(register.tpr)) {
        ctx.report(
          `${at}.registers.${r}.tpr`,
          'registers_missing_for_active_electricity_meter',
          'Registers of a non-half-hourly meter need a TPR.',
        );
      }
    });
  }
  const knownIds = new Set(registers.map((register) => register.register_id));
  for (const [list, missingCode, unknownCode] of READING_REGISTER_ID_CODES) {
    (meter[list] ?? []).forEach((reading, t) => {
      if (!isFilled(reading.register_id)) {
        ctx.report(
          `${at}.${list}.${t}.register_id`,
          missingCode,
          'Electricity readings name the register they were taken from.',
        );
      } else if (!knownIds.has(reading.register_id)) {
        ctx.report(
          `${at}.${list}.${t}.register_id`,
          unknownCode,
          `Register ${reading.register_id} is not one of this meter's registers.`,
        );
      }
    });
  }
  if (!active || !isBillable(point, ctx.today) || isNewSinceTransfer(scope)) return;
  const readings = meter.transfer_readings ?? [];
  for (const register of settlementRegisters(meter)) {
    const forRegister = readings.flatMap((reading, t) =>
      reading.register_id === register.register_id ? [t] : [],
    );
    if (forRegister.length === 0) {
      ctx.report(
        `${at}.registers.${registers.indexOf(register)}`,
        'missing_transfer_reading_for_register',
        `Register ${register.register_id} needs a transfer reading.`,
      );
    } else if (forRegister.length > 1) {
      ctx.report(
        `${at}.transfer_readings.${forRegister[1]}`,
        'multiple_transfer_readings_for_register',
        `Register ${register.register_id} has one transfer reading.`,
      );
    }
  }
}

/** Per reading list: the code for a reading without a register id, and for an unknown one. */
const READING_REGISTER_ID_CODES = [
  ['transfer_readings', 'reading_without_register_id', 'reading_register_id_not_recognised'],
  ['reading_history', 'no_register_id_for_reading', 'historical_reading_register_id_not_recognised'],
] as const;

/** Odd TPRs 01201 to 01229 may appear on two registers of one meter. */
function mayRepeatTpr(tpr: string | undefined): boolean {
  if (tpr === undefined || !/^\d{5}$/.test(tpr)) return false;
  const value = Number(tpr);
  return value >= 1201 && value <= 1229 && value % 2 === 1;
}

function checkReadingDates({ ctx, facts, point, meter, at }: MeterScope): void {
  const registers = 'gas_number_of_digits' in meter ? [] : (meter.registers ?? []);
  const billedToFor = (registerId: string | undefined): string | undefined => {
    const register = registers.find((r) => r.register_id === registerId);
    return register
      ? registerLastBilledToDate(register, point, facts)
      : meterLastBilledToDate(meter, point, facts);
  };
  (meter.transfer_readings ?? []).forEach((reading, t) => {
    const billedTo = billedToFor(reading.register_id);
    if (billedTo !== undefined && reading.reading_date !== billedTo) {
      ctx.report(
        `${at}.transfer_readings.${t}.reading_date`,
        'transfer_reading_dates_must_match_last_billed_to_date',
        `Transfer readings are taken on the last billed to date (${billedTo}).`,
      );
    }
  });
  (meter.reading_history ?? []).forEach((reading, h) => {
    const billedTo = billedToFor(reading.register_id);
    if (reading.billed && billedTo !== undefined && reading.reading_date > billedTo) {
      ctx.report(
        `${at}.reading_history.${h}.reading_date`,
        'billed_reading_after_last_billed_to_date',
        `A billed reading cannot be after the last billed to date (${billedTo}).`,
      );
    }
  });
}

/** Meter exchanges: the old meter's final reading and billed date, and no billed date on the new meter. */
function checkExchange(scope: MeterScope, hasOtherMeters: boolean): void {
  const { ctx, facts, point, meter, at } = scope;
  const pointBilledTo = point.last_billed_to_date ?? facts.lastBilledToDate;
  if (meter.removed_on != null) {
    const removedOn = meter.removed_on;
    const readings = [...(meter.transfer_readings ?? []), ...(meter.reading_history ?? [])];
    if (!readings.some((reading) => reading.reading_date === removedOn)) {
      ctx.report(
        `${at}.removed_on`,
        'no_reading_on_removed_on',
        'An exchanged meter needs a reading on the date it was removed.',
      );
    }
    const billedTo = meterLastBilledToDate(meter, point, facts);
    if ((billedTo === undefined || removedOn > billedTo) && (meter.transfer_readings?.length ?? 0) === 0) {
      ctx.report(
        `${at}.transfer_readings`,
        'no_transfer_reading_on_exchanged_meter',
        'A meter removed after the transfer needs its transfer readings.',
      );
    }
    if (hasOtherMeters)
      reportMissingOwnBilledDate(
        scope,
        'no_last_billed_to_date_on_exchanged_meter',
        'An exchanged meter needs its own last billed to date.',
      );
  } else if (
    meter.installed_on != null &&
    pointBilledTo !== undefined &&
    meter.installed_on > pointBilledTo &&
    ownLastBilledToDate(meter) !== undefined
  ) {
    const where = 'gas_number_of_digits' in meter ? `${at}.last_billed_to_date` : `${at}.registers`;
    ctx.report(
      where,
      'last_billed_to_date_on_new_meter',
      'A replacement meter installed after the last billed to date has not been billed.',
    );
  }
}

/** The reference's `last_billed_to_date_not_found`: with billing history, every meter says how far it is billed. */
function checkBilledDatePresent(scope: MeterScope): void {
  reportMissingOwnBilledDate(
    scope,
    'last_billed_to_date_not_found',
    'Give the last billed to date for this meter (or the account).',
    true,
  );
}

function reportMissingOwnBilledDate(
  { ctx, point, meter, at }: MeterScope,
  code: ItemCode,
  detail: string,
  pointLevelCounts = false,
): void {
  const pointDate = pointLevelCounts ? point.last_billed_to_date : undefined;
  if ('gas_number_of_digits' in meter) {
    if ((meter.last_billed_to_date ?? pointDate) === undefined)
      ctx.report(`${at}.last_billed_to_date`, code, detail);
    return;
  }
  const registers = meter.registers ?? [];
  for (const register of settlementRegisters(meter)) {
    if ((register.last_billed_to_date ?? pointDate) === undefined) {
      ctx.report(`${at}.registers.${registers.indexOf(register)}.last_billed_to_date`, code, detail);
    }
  }
}
