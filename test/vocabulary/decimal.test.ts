import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  decimalProblem,
  formatScaled,
  isDecimalString,
  scaledOrZero,
  toScaledInteger,
} from '../../src/vocabulary/decimal.ts';

test('recognises decimal strings with at least one digit', () => {
  for (const value of ['0', '-12.5', '.5', '3.', '0012.340'])
    assert.equal(isDecimalString(value), true, value);
  for (const value of ['', '-', '.', '1.2.3', '1e3', '+1', ' 1', '1,5', 'NaN'])
    assert.equal(isDecimalString(value), false, value);
});

test('names the limit a decimal breaks: whole digits, decimal places, or not a decimal', () => {
  assert.equal(decimalProblem('12345678901', 10, 10), 'max_whole_digits');
  assert.equal(decimalProblem('00001234567890', 10, 10), null, 'leading zeros do not count');
  assert.equal(decimalProblem('1.005', 8, 2), 'max_decimal_places');
  assert.equal(decimalProblem('abc', 8, 2), 'invalid_decimal');
  assert.equal(decimalProblem('-99999999.99', 8, 2), null);
});

test('converts to exact scaled integers, never through floating point', () => {
  assert.equal(toScaledInteger('0.1', 2), 10n);
  assert.equal(toScaledInteger('-12.345', 3), -12345n);
  assert.equal(toScaledInteger('9999999999.9999999999', 10), 99999999999999999999n);
  assert.equal(toScaledInteger('1.005', 2), null, 'more places than the scale');
  assert.equal(toScaledInteger('x', 2), null);
});

test('sums that floats get wrong come out exact', () => {
  const sum = (toScaledInteger('0.1') ?? 0n) + (toScaledInteger('0.2') ?? 0n);
  assert.equal(sum, toScaledInteger('0.3'));
});

test('treats an absent optional amount as zero', () => {
  assert.equal(scaledOrZero(undefined), 0n);
  assert.equal(scaledOrZero('2.5', 1), 25n);
});

test('formats scaled integers for error details', () => {
  assert.equal(formatScaled(300000000000n), '30.00');
  assert.equal(formatScaled(-5n * 10n ** 9n), '-0.50');
  assert.equal(formatScaled(12345n, 4), '1.2345');
});

test('reads decimals exactly as the pattern -?\\d*(\\.\\d*)? with at least one digit', () => {
  // The character loop that replaced the regular expression, held to it on strings made of the characters that matter.
  const reference = /^(-?)(\d*)(?:\.(\d*))?$/;
  const referenceProblem = (value: string, whole: number, fraction: number) => {
    const match = reference.exec(value);
    if (match === null || match[2].length + (match[3] ?? '').length === 0) return 'invalid_decimal';
    if (match[2].replace(/^0+(?=\d)/, '').length > whole) return 'max_whole_digits';
    if ((match[3] ?? '').length > fraction) return 'max_decimal_places';
    return null;
  };
  const referenceScaled = (value: string, scale: number) => {
    const match = reference.exec(value);
    if (match === null) return null;
    const [, sign, whole, fraction = ''] = match;
    if (whole.length + fraction.length === 0 || fraction.length > scale) return null;
    const units = BigInt((whole || '0') + fraction.padEnd(scale, '0'));
    return sign === '-' ? -units : units;
  };
  const text = fc.string({
    unit: fc.constantFrom('0', '1', '9', '.', '-', '+', 'e', ' ', '٣'),
    maxLength: 14,
  });
  fc.assert(
    fc.property(
      text,
      fc.integer({ min: 0, max: 12 }),
      fc.integer({ min: 0, max: 12 }),
      (value, whole, fraction) => {
        assert.equal(decimalProblem(value, whole, fraction), referenceProblem(value, whole, fraction), value);
        assert.equal(toScaledInteger(value, fraction), referenceScaled(value, fraction), value);
      },
    ),
    { seed: 20_261_124, numRuns: 20_000 },
  );
  // Rules may meet a value of the wrong type: it reads as its text, as the pattern read it.
  for (const value of [12.5, null, {}, true, [1]] as never[]) {
    assert.equal(decimalProblem(value, 8, 2), referenceProblem(String(value), 8, 2));
    assert.equal(toScaledInteger(value, 2), referenceScaled(String(value), 2));
  }
});
