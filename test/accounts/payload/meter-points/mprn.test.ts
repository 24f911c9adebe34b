import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidMprn, mprnCheckDigits } from '../../../../src/accounts/payload/meter-points/mprn.ts';

test('accepts MPRNs whose last two digits are the weighted sum modulo 11', () => {
  for (const mprn of ['9353824109', '3938424403']) assert.equal(isValidMprn(mprn), true, mprn);
});

test('accepts shorter MPRNs, weighting by distance from the check digits', () => {
  const base = '1234';
  assert.equal(isValidMprn(`${base}${mprnCheckDigits(base)}`), true);
});

test('rejects wrong check digits, fewer than 6 or more than 10 digits, and non-digits', () => {
  for (const mprn of ['9353824108', '93538', '93538241090', '935382410a', ''])
    assert.equal(isValidMprn(mprn), false, mprn);
});

test('writes a remainder below ten with a leading zero', () => {
  assert.equal(mprnCheckDigits('93538241'), '09');
  assert.equal(mprnCheckDigits('39384244'), '03');
});
