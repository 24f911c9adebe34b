import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AccountPayload } from '../../../src/accounts/payload/account-payload.schema.ts';
import { normaliseAccountPayload } from '../../../src/accounts/payload/normalise-account-payload.ts';
import { exampleWith } from './support/payload-fixtures.ts';

const normalise = (changes: Record<string, unknown>) => {
  const input = exampleWith(changes) as unknown as AccountPayload;
  const before = JSON.stringify(input);
  const output = normaliseAccountPayload(input);
  assert.equal(JSON.stringify(input), before, 'the input is not modified');
  return { input, output };
};

test('normalises billing, supply and FiT postcodes', () => {
  const { output } = normalise({
    billing_postcode: 'w1f9de',
    'supply_addresses.0.supply_postcode': 'ec1a1bb',
    fit: {
      installations: [{ fit_id: 'F', address: { line1: 'a', postcode: 'm11aa' } }],
      meters: [],
      payment_method: 'CHEQUE',
    },
  });
  assert.equal(output.billing_postcode, 'W1F 9DE');
  assert.equal(output.supply_addresses?.[0].supply_postcode, 'EC1A 1BB');
  assert.equal(output.fit?.installations[0].address?.postcode, 'M1 1AA');
});

test('normalises a GB billing_address postcode but leaves other countries alone', () => {
  assert.equal(
    normalise({ billing_address: { country: 'gb', postal_code: 'w1f9de' } }).output.billing_address
      ?.postal_code,
    'W1F 9DE',
  );
  assert.equal(
    normalise({ billing_address: { country: 'FR', postal_code: '75001' } }).output.billing_address
      ?.postal_code,
    '75001',
  );
});

test('standardises company numbers', () => {
  const { output } = normalise({ company_number: '12345', business: { company_number: 'sc 1234' } });
  assert.equal(output.company_number, '00012345');
  assert.equal(output.business?.company_number, 'SC001234');
});

test('copies only the objects on the way to a changed value', () => {
  const { input, output } = normalise({ 'supply_addresses.0.supply_postcode': 'w1f9de' });
  assert.notEqual(output, input);
  assert.notEqual(output.supply_addresses, input.supply_addresses);
  assert.equal(output.supply_addresses?.[0].meter_points, input.supply_addresses?.[0].meter_points);
  assert.equal(output.customers, input.customers);
});

test('returns the input itself when nothing changes', () => {
  const { input, output } = normalise({});
  assert.equal(output, input);
});
