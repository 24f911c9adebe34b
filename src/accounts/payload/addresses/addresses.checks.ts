/**
 * Rules on addresses: the billing address (new style or legacy lines), and across supply
 * addresses: duplicates, administrators, former addresses, MPxNs and shared meters.
 */

import { type CheckContext, cleanItems, isFilled } from '../../../validation/check-context.ts';
import { instantOf } from '../../../vocabulary/calendar-date.ts';
import { type AccountFacts, type AnyMeter, pointLastBilledToDate } from '../account-facts.ts';
import { checkMetadataKeys } from '../customers/customers.checks.ts';
import { compositeKey, findRepeatedIndexes } from '../rules/duplicates.ts';
import { isGbPostcode, normaliseGbPostcode } from './gb-postcode.ts';

const LEGACY_BILLING_FIELDS = [
  'billing_address2',
  'billing_address3',
  'billing_address4',
  'billing_address5',
  'billing_postcode',
] as const;

export function checkBillingAddress(ctx: CheckContext, facts: AccountFacts): void {
  const { payload } = facts;
  const legacyGiven =
    isFilled(payload.billing_address1) || LEGACY_BILLING_FIELDS.some((f) => isFilled(payload[f]));
  if (payload.billing_address !== undefined && legacyGiven) {
    ctx.report(
      'billing_address',
      'billing_address_new_style_and_legacy',
      'Send billing_address or billing_address1..5 and billing_postcode, not both.',
    );
    return;
  }
  if (payload.billing_address !== undefined) {
    if (ctx.isClean('billing_address')) checkAddressObject(ctx, payload.billing_address);
    return;
  }
  if (!facts.isOccupier) {
    for (const field of ['billing_address1', 'billing_postcode'] as const) {
      if (!isFilled(payload[field])) {
        ctx.report(
          field,
          'billing_address_not_provided',
          'Accounts other than occupier accounts need billing_address1 and billing_postcode.',
        );
      }
    }
  } else if (legacyGiven && !isFilled(payload.billing_address1)) {
    ctx.report('billing_address1', 'invalid_address', 'A billing address starts with billing_address1.');
  }
}

function checkAddressObject(
  ctx: CheckContext,
  address: NonNullable<AccountFacts['payload']['billing_address']>,
): void {
  if (
    address.country.toUpperCase() === 'GB' &&
    isFilled(address.postal_code) &&
    !isGbPostcode(address.postal_code)
  ) {
    ctx.report('billing_address.postal_code', 'invalid_postcode', 'Enter a valid UK postcode.');
  }
  if (isFilled(address.street_address) && address.structured_street_address != null) {
    ctx.report(
      'billing_address.structured_street_address',
      'invalid_address',
      'Send street_address or structured_street_address, not both.',
    );
  }
}

export function checkSupplyAddresses(ctx: CheckContext, facts: AccountFacts): void {
  const addresses = cleanItems(ctx, facts.payload.supply_addresses, 'supply_addresses');
  const addressKey = ({ value }: (typeof addresses)[number]) =>
    compositeKey(
      value.supply_address1.trim().toLowerCase(),
      (value.supply_address2 ?? '').trim().toLowerCase(),
      normaliseGbPostcode(value.supply_postcode) ?? value.supply_postcode,
    );
  for (const index of findRepeatedIndexes(addresses, addressKey)) {
    ctx.report(
      addresses[index].path,
      'duplicate_supply_addresses_found',
      'This supply address appears twice (same first two lines and postcode).',
    );
  }
  const externalIds = addresses.map(({ value, path }) => ({
    id: value.property_external_identifier || undefined,
    path,
  }));
  for (const index of findRepeatedIndexes(externalIds, (entry) => entry.id)) {
    ctx.report(
      `${externalIds[index].path}.property_external_identifier`,
      'duplicate_property_external_identifiers',
      'Each property_external_identifier at most once.',
    );
  }
  for (const { value: address, path } of addresses) {
    checkMetadataKeys(ctx, address.metadata, `${path}.metadata`);
    const to = address.customer_at_supply_address_to_date;
    if (to != null && to < address.customer_at_supply_address_from_date) {
      ctx.report(
        `${path}.customer_at_supply_address_to_date`,
        'start_date_later_than_end_date',
        'The to date is before the from date.',
      );
    }
    const administrators = address.property_administrators ?? [];
    if (administrators.length > 1) {
      ctx.report(
        `${path}.property_administrators.1`,
        'multiple_property_administrators',
        'A supply address has at most one property administrator.',
      );
    }
    administrators.forEach((administrator, k) => {
      const { effective_from: from, effective_to: until } = administrator;
      if (from != null && until != null && instantOf(until) < instantOf(from)) {
        ctx.report(
          `${path}.property_administrators.${k}.effective_to`,
          'start_date_later_than_end_date',
          'effective_to is before effective_from.',
        );
      }
    });
  }
  checkMeterPointIdentifiers(ctx, facts);
  checkFormerAddressesBilled(ctx, facts);
  checkSharedMeters(ctx, facts);
}

function checkMeterPointIdentifiers(ctx: CheckContext, facts: AccountFacts): void {
  const addressOf = new Map<string, string>();
  for (const { point, path, addressPath } of facts.meterPoints) {
    const seenAt = addressOf.get(point.identifier);
    if (seenAt === undefined) addressOf.set(point.identifier, addressPath);
    else if (seenAt === addressPath) {
      ctx.report(
        `${path}.identifier`,
        'duplicate_meter_points_provided',
        'This MPxN appears twice at this supply address.',
      );
    } else {
      ctx.report(
        `${path}.identifier`,
        'duplicate_meter_points_on_different_supply_addresses_provided',
        'This MPxN is already on another supply address.',
      );
    }
  }
}

function checkFormerAddressesBilled(ctx: CheckContext, facts: AccountFacts): void {
  const reported = new Set<string>();
  for (const { point, address, addressPath } of facts.meterPoints) {
    const movedOut = address.customer_at_supply_address_to_date;
    if (movedOut == null || reported.has(addressPath)) continue;
    const billedTo = pointLastBilledToDate(point, facts);
    if (billedTo === undefined || billedTo < movedOut) {
      reported.add(addressPath);
      ctx.report(
        `${addressPath}.customer_at_supply_address_to_date`,
        'unbilled_former_supply_address',
        'The customer left this address, so it must be billed up to the date they left.',
      );
    }
  }
}

/** Meter serials shared between meter points: only an import/export (twin element) pair may share one. */
function checkSharedMeters(ctx: CheckContext, facts: AccountFacts): void {
  const pointsBySerial = new Map<
    string,
    Array<{ exportType?: string; serialPath: string; pointPath: string }>
  >();
  for (const { point, path } of facts.meterPoints) {
    const serials = new Set<string>();
    ((point.meters ?? []) as AnyMeter[]).forEach((meter, m) => {
      if (serials.has(meter.meter_serial_number)) return;
      serials.add(meter.meter_serial_number);
      const entries = pointsBySerial.get(meter.meter_serial_number) ?? [];
      const exportType = point.supply_type === 'ELECTRICITY' ? point.export_type : undefined;
      entries.push({ exportType, serialPath: `${path}.meters.${m}.meter_serial_number`, pointPath: path });
      pointsBySerial.set(meter.meter_serial_number, entries);
    });
  }
  for (const { point, path } of facts.meterPoints) {
    if (point.supply_type !== 'ELECTRICITY' || point.export_type !== 'IMPORT_EXPORT') continue;
    const pairs = (point.meters ?? []).map((meter) => pointsBySerial.get(meter.meter_serial_number) ?? []);
    const paired =
      pairs.length > 0 &&
      pairs.every(
        (entries) =>
          entries.length === 2 && entries.filter((e) => e.exportType === 'IMPORT_EXPORT').length === 1,
      );
    if (!paired) {
      ctx.report(
        `${path}.export_type`,
        'import_meter_not_found_for_export_meter',
        'An IMPORT_EXPORT meter point needs exactly one import meter point sharing its meter serial.',
      );
    }
  }
  for (const entries of pointsBySerial.values()) {
    const isTwinElement = entries.length === 2 && entries.some((e) => e.exportType === 'IMPORT_EXPORT');
    if (entries.length > 1 && !isTwinElement) {
      for (const entry of entries.slice(1)) {
        ctx.report(
          entry.serialPath,
          'unexpected_number_of_meter_points_found_for_meter',
          'Only an import/export (twin element) meter may be on two meter points.',
        );
      }
    }
  }
}
