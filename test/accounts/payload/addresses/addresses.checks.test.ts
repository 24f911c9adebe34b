import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mpanCheckDigit } from '../../../../src/accounts/payload/meter-points/mpan.ts';
import { errorsOf, exampleAccount, get, set } from '../support/payload-fixtures.ts';
import { ruleCases } from '../support/rule-cases.ts';

const NO_LEGACY_BILLING = {
  billing_address1: undefined,
  billing_address2: undefined,
  billing_address3: undefined,
  billing_address4: undefined,
  billing_address5: undefined,
  billing_postcode: undefined,
};
const OCCUPIER = { unknown_occupier: true, customers: [] };

const secondAddress = (changes: Record<string, unknown> = {}) => ({
  customer_at_supply_address_from_date: '2019-01-01',
  supply_address1: '2 Other Road',
  supply_postcode: 'W1F 9DF',
  meter_points: [],
  ...changes,
});
const electricityPoint = () =>
  structuredClone(get(exampleAccount(), 'supply_addresses.0.meter_points.0')) as Record<string, unknown>;

describe('supply addresses', () => {
  ruleCases([
    {
      rejects: 'the same MPAN twice at one address',
      changes: { 'supply_addresses.0.meter_points.2': electricityPoint() },
      attr: 'supply_addresses.0.meter_points.2.identifier',
      code: 'duplicate_meter_points_provided',
    },
    {
      rejects: 'the same MPAN at two addresses',
      changes: { 'supply_addresses.1': secondAddress({ meter_points: [electricityPoint()] }) },
      attr: 'supply_addresses.1.meter_points.0.identifier',
      code: 'duplicate_meter_points_on_different_supply_addresses_provided',
    },
    {
      rejects: 'the same address twice, postcodes compared in canonical form',
      changes: {
        'supply_addresses.1': secondAddress({
          supply_address1: '123 fake street',
          supply_address2: '',
          supply_postcode: 'w1f9de',
        }),
      },
      attr: 'supply_addresses.1',
      code: 'duplicate_supply_addresses_found',
    },
    {
      rejects: 'a property external identifier used twice',
      changes: {
        'supply_addresses.0.property_external_identifier': 'P1',
        'supply_addresses.1': secondAddress({ property_external_identifier: 'P1' }),
      },
      attr: 'supply_addresses.1.property_external_identifier',
      code: 'duplicate_property_external_identifiers',
    },
    {
      rejects: 'two property administrators',
      changes: { 'supply_addresses.0.property_administrators.1': { family_name: 'Second' } },
      attr: 'supply_addresses.0.property_administrators.1',
      code: 'multiple_property_administrators',
    },
    {
      rejects: 'a property administrator whose period ends before it starts',
      changes: {
        'supply_addresses.0.property_administrators.0.effective_from': '2020-01-02T00:00:00Z',
        'supply_addresses.0.property_administrators.0.effective_to': '2020-01-01T00:00:00Z',
      },
      attr: 'supply_addresses.0.property_administrators.0.effective_to',
      code: 'start_date_later_than_end_date',
    },
    {
      rejects: 'a customer leaving an address before arriving',
      changes: { 'supply_addresses.0.customer_at_supply_address_to_date': '2018-12-31' },
      attr: 'supply_addresses.0.customer_at_supply_address_to_date',
      code: 'start_date_later_than_end_date',
    },
    {
      rejects: 'a former address billed only up to before the customer left',
      changes: { 'supply_addresses.0.customer_at_supply_address_to_date': '2019-09-01' },
      attr: 'supply_addresses.0.customer_at_supply_address_to_date',
      code: 'unbilled_former_supply_address',
    },
    {
      rejects: 'a supply address metadata key given twice',
      changes: {
        'supply_addresses.0.metadata': [
          { key: 'k', value: 1 },
          { key: 'k', value: 2 },
        ],
      },
      attr: 'supply_addresses.0.metadata.1.key',
      code: 'metadata_has_duplicate_keys',
    },
    {
      rejects: 'an IMPORT_EXPORT meter point without an import point sharing its meter',
      changes: { 'supply_addresses.0.meter_points.0.export_type': 'IMPORT_EXPORT' },
      attr: 'supply_addresses.0.meter_points.0.export_type',
      code: 'import_meter_not_found_for_export_meter',
    },
    {
      rejects: 'one meter serial on two meter points that are not an import/export pair',
      changes: { 'supply_addresses.0.meter_points.1.meters.0.meter_serial_number': 'Z16N389556' },
      attr: 'supply_addresses.0.meter_points.1.meters.0.meter_serial_number',
      code: 'unexpected_number_of_meter_points_found_for_meter',
    },
  ]);
});

describe('twin element (import/export) meters', () => {
  test('accepts one meter serial on an import point and an IMPORT_EXPORT point', () => {
    const payload = exampleAccount();
    const exportPoint = electricityPoint();
    exportPoint.identifier = `120006017673${mpanCheckDigit('120006017673')}`;
    exportPoint.export_type = 'IMPORT_EXPORT';
    set(payload, 'supply_addresses.0.meter_points.2', exportPoint);
    const codes = errorsOf(payload).map((e) => e.code);
    assert.ok(!codes.includes('import_meter_not_found_for_export_meter'), codes.join());
    assert.ok(!codes.includes('unexpected_number_of_meter_points_found_for_meter'), codes.join());
  });
});

describe('billing address', () => {
  ruleCases([
    {
      rejects: 'a billing_address object alongside billing_address1..5',
      changes: { billing_address: { country: 'GB', postal_code: 'W1F 9DE' } },
      attr: 'billing_address',
      code: 'billing_address_new_style_and_legacy',
    },
    {
      rejects: 'a non-occupier account without billing_postcode',
      changes: { billing_postcode: '' },
      attr: 'billing_postcode',
      code: 'billing_address_not_provided',
    },
    {
      rejects: 'a non-occupier account without billing_address1',
      changes: { billing_address1: undefined },
      attr: 'billing_address1',
      code: 'billing_address_not_provided',
    },
    {
      accepts: 'a billing_address object instead of the legacy lines',
      changes: { ...NO_LEGACY_BILLING, billing_address: { country: 'GB', postal_code: 'w1f9de' } },
    },
    {
      accepts: 'an occupier account without a billing address',
      changes: { ...OCCUPIER, ...NO_LEGACY_BILLING },
    },
    {
      rejects: 'an occupier billing address with lines but no first line',
      changes: { ...OCCUPIER, billing_address1: '' },
      attr: 'billing_address1',
      code: 'invalid_address',
    },
    {
      rejects: 'a GB billing_address with an invalid postcode',
      changes: { ...NO_LEGACY_BILLING, billing_address: { country: 'GB', postal_code: 'NOT A CODE' } },
      attr: 'billing_address.postal_code',
      code: 'invalid_postcode',
    },
    {
      accepts: 'a foreign billing_address postcode',
      changes: { ...NO_LEGACY_BILLING, billing_address: { country: 'FR', postal_code: '75001' } },
    },
    {
      rejects: 'a billing_address with both street_address and structured_street_address',
      changes: {
        ...NO_LEGACY_BILLING,
        billing_address: {
          country: 'GB',
          street_address: '1 A St',
          structured_street_address: { line: '1 A St' },
        },
      },
      attr: 'billing_address.structured_street_address',
      code: 'invalid_address',
    },
  ]);
});
