import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidMpan, mpanCheckDigit } from '../../../../src/accounts/payload/meter-points/mpan.ts';

test('accepts MPAN cores whose check digit matches', () => {
  for (const mpan of ['1200060176720', '1800021679848', '1312345678907'])
    assert.equal(isValidMpan(mpan), true, mpan);
});

test('rejects a wrong check digit, a wrong length and non-digits', () => {
  for (const mpan of [
    '1200060176721',
    '120006017672',
    '12000601767200',
    '12000601767a0',
    ' 1200060176720',
    '',
  ]) {
    assert.equal(isValidMpan(mpan), false, mpan);
  }
});

test('computes the check digit from the first twelve digits with the prime weights', () => {
  assert.equal(mpanCheckDigit('120006017672'), 0);
  assert.equal(mpanCheckDigit('180002167984'), 8);
});
