/**
 * Facts about an account that many checks need: what kind of account it is, its meter points
 * with their paths, and which "last billed to date" applies where. Computed once per validation.
 */

import { type CheckContext, cleanItems } from '../../validation/check-context.ts';
import type { AccountPayload } from './account-payload.schema.ts';
import type { SupplyAddress } from './addresses/addresses.schema.ts';
import type { MeterPoint } from './meter-points/meter-points.schema.ts';
import type { ElectricityMeter, ElectricityRegister, GasMeter } from './meters/meters.schema.ts';

export interface LocatedMeterPoint {
  point: MeterPoint;
  path: string;
  address: SupplyAddress;
  addressPath: string;
}

export type AnyMeter = ElectricityMeter | GasMeter;

export interface AccountFacts {
  payload: AccountPayload;
  isBusiness: boolean;
  isDomestic: boolean;
  /** An unknown occupier, or an occupier account type. */
  isOccupier: boolean;
  isPortfolioLead: boolean;
  isSystem: boolean;
  /** Meter points that passed structural validation, in payload order. */
  meterPoints: LocatedMeterPoint[];
  /** Whether every supply address and meter point passed structural validation. */
  supplyAddressesClean: boolean;
  /** The account-level last billed to date, when it is a valid date. */
  lastBilledToDate: string | undefined;
}

const OCCUPIER_TYPES = new Set(['DOMESTIC_OCCUPIER', 'BUSINESS_OCCUPIER']);

export function describeAccount(payload: AccountPayload, ctx: CheckContext): AccountFacts {
  // Scalars are read only when structurally sound: a wrong type there must not break a check.
  const sound = <T>(field: keyof AccountPayload, value: T): T | undefined =>
    ctx.isSound(field) ? value : undefined;
  const type = sound('account_type', payload.account_type);
  const meterPoints: LocatedMeterPoint[] = [];
  for (const address of cleanItems(ctx, payload.supply_addresses, 'supply_addresses')) {
    for (const point of cleanItems(ctx, address.value.meter_points, `${address.path}.meter_points`)) {
      meterPoints.push({
        point: point.value,
        path: point.path,
        address: address.value,
        addressPath: address.path,
      });
    }
  }
  return {
    payload,
    isBusiness: type?.startsWith('BUSINESS') ?? false,
    // An account without a type is a domestic account (the reference's default).
    isDomestic: type === undefined || type.startsWith('DOMESTIC'),
    isOccupier: payload.unknown_occupier === true || (type !== undefined && OCCUPIER_TYPES.has(type)),
    isPortfolioLead: type === 'PORTFOLIO_LEAD' || payload.is_portfolio_lead === true,
    isSystem: type === 'SYSTEM',
    meterPoints,
    supplyAddressesClean: ctx.isClean('supply_addresses'),
    lastBilledToDate: sound('last_billed_to_date', payload.last_billed_to_date),
  };
}

/** A meter point is billable while its supply has not ended (open-ended or a future end). */
export function isBillable(point: MeterPoint, today: string): boolean {
  return point.supply_end_date == null || point.supply_end_date > today;
}

/** A meter still on the wall today. */
export function isActiveMeter(meter: AnyMeter, today: string): boolean {
  return meter.removed_on == null || meter.removed_on > today;
}

/** Electricity registers that bill (and so need a transfer reading, an EAC and a billed date). */
export function settlementRegisters(meter: ElectricityMeter): ElectricityRegister[] {
  return (meter.registers ?? []).filter((register) => register.is_settlement !== false);
}

/** Half-hourly electricity supplies: measurement classes C to G, or profile class 0. */
export function isHalfHourly(point: MeterPoint): boolean {
  if (point.supply_type !== 'ELECTRICITY') return false;
  const measurementClass = point.measurement_class;
  return (measurementClass !== undefined && 'CDEFG'.includes(measurementClass)) || point.profile_class === 0;
}

function latest(dates: Array<string | undefined>): string | undefined {
  let result: string | undefined;
  for (const date of dates) if (date !== undefined && (result === undefined || date > result)) result = date;
  return result;
}

/** The meter's own billed-to date: the meter's (gas) or its registers' latest (electricity). */
export function ownLastBilledToDate(meter: AnyMeter): string | undefined {
  if ('gas_number_of_digits' in meter) return meter.last_billed_to_date;
  return latest((meter.registers ?? []).map((register) => register.last_billed_to_date));
}

/** Billed-to date of a meter point: its own, else its meters' latest, else the account's. */
export function pointLastBilledToDate(point: MeterPoint, facts: AccountFacts): string | undefined {
  const meters: AnyMeter[] = point.meters ?? [];
  return point.last_billed_to_date ?? latest(meters.map(ownLastBilledToDate)) ?? facts.lastBilledToDate;
}

/** Billed-to date that applies to a meter: meter/register level wins over point and account level. */
export function meterLastBilledToDate(
  meter: AnyMeter,
  point: MeterPoint,
  facts: AccountFacts,
): string | undefined {
  return ownLastBilledToDate(meter) ?? point.last_billed_to_date ?? facts.lastBilledToDate;
}

/** Billed-to date that applies to one electricity register. */
export function registerLastBilledToDate(
  register: ElectricityRegister,
  point: MeterPoint,
  facts: AccountFacts,
): string | undefined {
  return register.last_billed_to_date ?? point.last_billed_to_date ?? facts.lastBilledToDate;
}

/** The earliest billed-to date on the account, its meter points, meters or registers. */
export function earliestLastBilledToDate(facts: AccountFacts): string | undefined {
  const dates: string[] = [];
  const add = (date: string | undefined) => {
    if (date !== undefined) dates.push(date);
  };
  add(facts.lastBilledToDate);
  for (const { point } of facts.meterPoints) {
    add(point.last_billed_to_date);
    for (const meter of (point.meters ?? []) as AnyMeter[]) {
      if ('gas_number_of_digits' in meter) add(meter.last_billed_to_date);
      else for (const register of meter.registers ?? []) add(register.last_billed_to_date);
    }
  }
  return dates.length === 0 ? undefined : dates.reduce((a, b) => (b < a ? b : a));
}
