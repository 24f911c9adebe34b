/**
 * The account against the reference data the operator uploaded (decision 0091): each agreement's
 * tariff against the catalogue (known, available when it starts, the meter point's fuel,
 * registers, payment method and region, its rate overrides' bands), each supply charge's product
 * and line-item bands, and the code lists' values. A registry never uploaded checks nothing here:
 * its form check (the field formats) is all there is, as before.
 *
 * Reads the data by Map and Set look-ups; allocates nothing for an account that passes beyond
 * what walking its lists needs.
 */
import type { ReferenceData, TariffEntry } from '../../../catalogue/reference-data.ts';
import { type CheckContext, cleanItems, isFilled } from '../../../validation/check-context.ts';
import { type AccountFacts, type AnyMeter, isActiveMeter, type LocatedMeterPoint } from '../account-facts.ts';
import type { TransactionGroup } from '../ledgers/transaction-groups.ts';
import type { MeterPoint } from '../meter-points/meter-points.schema.ts';
import { checkCodeLists } from './code-list.checks.ts';

/** The GSP group of an MPAN's distributor id (its first two digits). */
const DISTRIBUTOR_REGIONS: Readonly<Record<string, string>> = {
  '10': 'A',
  '11': 'B',
  '12': 'C',
  '13': 'D',
  '14': 'E',
  '15': 'F',
  '16': 'G',
  '17': 'P',
  '18': 'N',
  '19': 'J',
  '20': 'H',
  '21': 'K',
  '22': 'L',
  '23': 'M',
};
const GAS_GSP_CHARACTERISTIC = 'gbr-gas.meter-point-grid-supply-point-equivalent';

/** What these checks read of an agreement (electricity and gas agreements both have it). */
interface Agreement {
  tariff_code: string;
  effective_from: string;
  effective_to?: string | null;
  rate_overrides?: ReadonlyArray<{ rate_band: string }> | null;
  characteristics?: ReadonlyArray<{ code: string; value: string }> | null;
}

export function checkReferenceData(
  ctx: CheckContext,
  facts: AccountFacts,
  groups: readonly TransactionGroup[],
  reference: ReferenceData,
): void {
  if (reference.tariffs !== null) {
    for (const located of facts.meterPoints) checkAgreements(ctx, located, reference);
    checkSupplyCharges(ctx, groups, reference);
  }
  if (reference.lists.size > 0) checkCodeLists(ctx, facts.payload, reference);
}

/** True when the value at `attr` already has an error (its form check failed): not reported twice. */
function reported(ctx: CheckContext, attr: string): boolean {
  return ctx.errors.length > 0 && ctx.errors.some((e) => e.attr === attr);
}

function checkAgreements(ctx: CheckContext, located: LocatedMeterPoint, reference: ReferenceData): void {
  const { point, path } = located;
  const agreements: readonly Agreement[] | undefined = point.agreements;
  for (const { value: agreement, path: at } of cleanItems(ctx, agreements, `${path}.agreements`)) {
    const codeAt = `${at}.tariff_code`;
    if (reported(ctx, codeAt)) continue;
    const tariff = reference.tariffs?.get(agreement.tariff_code);
    if (!tariff) {
      ctx.report(codeAt, 'tariff_code_not_found', `The catalogue has no tariff ${agreement.tariff_code}.`);
      continue;
    }
    const product = tariff.product;
    if (product.toDay !== null && agreement.effective_from >= product.toDay) {
      const detail = `Tariff ${tariff.code} was withdrawn before the agreement starts: its product ${product.code} is available until ${product.toDay}.`;
      ctx.report(codeAt, 'tariff_code_not_found', detail);
      continue;
    }
    if (agreement.effective_from < product.fromDay) {
      const detail = `The agreement starts before product ${product.code} is available (from ${product.fromDay}).`;
      const code =
        product.isVariable || product.isTracker
          ? 'agreement_effective_from_before_product_available_from'
          : 'agreement_cannot_start_before_product_available';
      ctx.report(at, code, detail);
    }
    if (product.toDay !== null && agreement.effective_to == null) {
      const detail = `Product ${product.code} ends (available until ${product.toDay}): give the agreement an effective_to.`;
      ctx.report(at, 'open_ended_agreement_for_end_dated_product', detail);
    }
    checkMeterPointFit(ctx, located, agreement, at, tariff);
    for (const override of agreement.rate_overrides ?? []) {
      if (!tariff.bands.has(override.rate_band)) {
        const detail = `Tariff ${tariff.code} has no rate band ${override.rate_band}.`;
        ctx.report(at, 'rate_band_does_not_exist', detail);
      }
    }
  }
}

/** Fuel, registers, region and payment method of the tariff against the meter point. */
function checkMeterPointFit(
  ctx: CheckContext,
  { point }: LocatedMeterPoint,
  agreement: Agreement,
  at: string,
  tariff: TariffEntry,
): void {
  const meters: AnyMeter[] = (point.meters ?? []).filter((meter: AnyMeter) =>
    isActiveMeter(meter, ctx.today),
  );
  if (tariff.product.fuel !== point.supply_type) {
    const detail = `Tariff ${tariff.code} is for ${tariff.product.fuel.toLowerCase()}, the meter point is ${point.supply_type.toLowerCase()}.`;
    ctx.report(at, 'tariff_type_does_not_match_meter_point_type', detail);
    return;
  }
  const meter = meters[0];
  if (point.supply_type === 'ELECTRICITY' && meter !== undefined && 'registers' in meter) {
    const registers = meter.registers?.length ?? 0;
    if (registers > 0 && registers !== tariff.registers) {
      const detail = `Tariff ${tariff.code} is for ${tariff.registers} register(s); the meter has ${registers}.`;
      ctx.report(at, 'tariff_type_does_not_match_meter_point_type', detail);
    }
  }
  const region = regionOf(point, agreement);
  if (region !== null && region !== tariff.region) {
    const detail = `Tariff ${tariff.code} is for region ${tariff.region}; the meter point is in GSP group ${region}.`;
    ctx.report(at, 'tariff_region_does_not_match_meter_point', detail);
  }
  const active =
    agreement.effective_from <= ctx.today &&
    (agreement.effective_to == null || agreement.effective_to > ctx.today);
  if (active && meters.length > 0) {
    const prepay = meters.some((m) => m.is_prepay === true);
    if (prepay !== (tariff.paymentMethod === 'PREPAYMENT')) {
      const detail = prepay
        ? `The meter is a prepayment meter; tariff ${tariff.code} is for ${tariff.paymentMethod}.`
        : `Tariff ${tariff.code} is a prepayment tariff; the meter is a credit meter.`;
      ctx.report(at, 'tariff_type_does_not_match_meter_type', detail);
    }
  }
}

/** The meter point's GSP group, or null when the payload does not say. */
function regionOf(point: MeterPoint, agreement: Agreement): string | null {
  if (point.supply_type === 'ELECTRICITY') {
    const periods = point.configuration_periods ?? [];
    for (let i = periods.length - 1; i >= 0; i--) {
      const gsp = periods[i].gsp;
      if (isFilled(gsp)) return gsp.replace(/^_/, '').toUpperCase();
    }
    return DISTRIBUTOR_REGIONS[point.identifier.slice(0, 2)] ?? null;
  }
  for (const characteristic of agreement.characteristics ?? []) {
    if (characteristic.code === GAS_GSP_CHARACTERISTIC) return characteristic.value.replace(/^_/, '');
  }
  return null;
}

function checkSupplyCharges(
  ctx: CheckContext,
  groups: readonly TransactionGroup[],
  reference: ReferenceData,
) {
  for (const group of groups) {
    for (const list of [group.current, group.historical]) {
      for (const { value, path } of list) {
        if (value.type !== 'SUPPLY_CHARGE') continue;
        const codeAt = `${path}.product_code`;
        if (reported(ctx, codeAt)) continue;
        const product = reference.products?.get(value.product_code);
        if (!product) {
          ctx.report(
            codeAt,
            'product_code_does_not_exist',
            `The catalogue has no product ${value.product_code}.`,
          );
          continue;
        }
        value.line_items.forEach((lineItem, i) => {
          const band = lineItem.rate_band;
          if (isFilled(band) && !product.bands.has(band)) {
            const detail = `No tariff of product ${product.code} has the rate band ${band}.`;
            ctx.report(`${path}.line_items.${i}.rate_band`, 'rate_band_does_not_exist', detail);
          }
        });
      }
    }
  }
}
