import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidMeterSerialNumber } from '../../../../src/accounts/payload/meters/meter-serial-number.ts';

test('accepts capitals and digits, optionally split by single hyphens, slashes or dots', () => {
  for (const serial of ['Z16N389556', '54BV', 'E10BG12345', 'K-12/3.4A'])
    assert.equal(isValidMeterSerialNumber(serial), true, serial);
});

test('rejects lower case, spaces, leading or doubled separators and serials over 32 characters', () => {
  for (const serial of ['', 'z16n389556', 'Z16 N38', '-Z16', 'Z16-', 'Z--16', 'A'.repeat(33), 'Z16_N']) {
    assert.equal(isValidMeterSerialNumber(serial), false, serial);
  }
});
