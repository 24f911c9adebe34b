import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isGbPostcode, normaliseGbPostcode } from '../../../../src/accounts/payload/addresses/gb-postcode.ts';

test('normalises every outward-code shape to upper case with one space before the inward code', () => {
  const cases: Array<[string, string]> = [
    ['m1 1aa', 'M1 1AA'],
    ['M60 1NW', 'M60 1NW'],
    ['cr26xh', 'CR2 6XH'],
    ['DN55  1PT', 'DN55 1PT'],
    ['w1a1hq', 'W1A 1HQ'],
    [' EC1A 1BB ', 'EC1A 1BB'],
    ['W1F 9DE', 'W1F 9DE'],
    ['gir 0aa', 'GIR 0AA'],
  ];
  for (const [input, canonical] of cases) assert.equal(normaliseGbPostcode(input), canonical, input);
});

test('rejects values that are not postcodes', () => {
  for (const value of [
    '',
    'W1F',
    '9DE W1F',
    'QQ1 1QQ',
    'W1F 9CE',
    'W1F 9D',
    'SW1A 1AAA',
    '12345',
    'W1F-9DE',
  ]) {
    assert.equal(normaliseGbPostcode(value), null, value);
    assert.equal(isGbPostcode(value), false, value);
  }
});
