/**
 * Decimal strings, exactly. Money is never a binary float here: a decimal becomes a BigInt count
 * of 10^-MONEY_SCALE units, so sums and comparisons are exact at every precision the payload
 * allows (at most 10 decimal places).
 */

/** Decimal places every payload amount fits in. */
export const MONEY_SCALE = 10;

export type DecimalProblem = 'invalid_decimal' | 'max_whole_digits' | 'max_decimal_places';

/**
 * Where the parts of a decimal string lie: an optional `-`, whole digits, then optionally `.` and
 * fraction digits, nothing else (ASCII digits only). One object, overwritten by each call: every
 * decimal of a payload is read this way, and a character loop builds nothing.
 */
const parts = { negative: false, wholeStart: 0, wholeEnd: 0, fractionStart: 0, fractionEnd: 0 };

const isDigit = (c: number) => c >= 48 && c <= 57;

/** Fills `parts` and returns true when `value` is `-?\d*(\.\d*)?` with at least one digit. */
function readParts(value: string): boolean {
  const n = value.length;
  let i = 0;
  parts.negative = value.charCodeAt(0) === 45;
  if (parts.negative) i++;
  parts.wholeStart = i;
  while (i < n && isDigit(value.charCodeAt(i))) i++;
  parts.wholeEnd = i;
  if (i < n && value.charCodeAt(i) === 46) i++;
  parts.fractionStart = i;
  while (i < n && isDigit(value.charCodeAt(i))) i++;
  parts.fractionEnd = i;
  return i === n && parts.wholeEnd - parts.wholeStart + parts.fractionEnd - parts.fractionStart > 0;
}

/** Why `value` is not a decimal with at most `wholeDigits` and `fractionDigits`, or null if it is. */
export function decimalProblem(
  value: string,
  wholeDigits: number,
  fractionDigits: number,
): DecimalProblem | null {
  // A value of another type reads as its text, as the regular expression this replaced read it.
  if (typeof value !== 'string') return decimalProblem(String(value), wholeDigits, fractionDigits);
  if (!readParts(value)) return 'invalid_decimal';
  // Leading zeros do not count, but a whole part of zeros is one digit.
  let significant = parts.wholeStart;
  while (significant < parts.wholeEnd - 1 && value.charCodeAt(significant) === 48) significant++;
  if (parts.wholeEnd - significant > wholeDigits) return 'max_whole_digits';
  if (parts.fractionEnd - parts.fractionStart > fractionDigits) return 'max_decimal_places';
  return null;
}

/** A decimal string, e.g. `-12.5`, `.5`, `3.` (at least one digit). */
export function isDecimalString(value: string): boolean {
  return /^-?(?:\d+\.?\d*|\.\d+)$/.test(value);
}

/**
 * The value as an integer count of 10^-scale units (`"1.5"` at scale 2 is `150n`), or null when
 * it is not a decimal or has more than `scale` decimal places.
 */
export function toScaledInteger(value: string, scale: number = MONEY_SCALE): bigint | null {
  if (typeof value !== 'string') return toScaledInteger(String(value), scale);
  if (!readParts(value) || parts.fractionEnd - parts.fractionStart > scale) return null;
  const whole = value.slice(parts.wholeStart, parts.wholeEnd);
  const fraction = value.slice(parts.fractionStart, parts.fractionEnd);
  const units = BigInt((whole || '0') + fraction.padEnd(scale, '0'));
  return parts.negative ? -units : units;
}

/** The scaled value a missing optional amount counts as (absent balances are zero). */
export function scaledOrZero(value: string | undefined, scale: number = MONEY_SCALE): bigint | null {
  return value === undefined ? 0n : toScaledInteger(value, scale);
}

/** Renders a scaled integer for error details, trimming trailing zeros beyond two places. */
export function formatScaled(units: bigint, scale: number = MONEY_SCALE): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits
    .slice(digits.length - scale)
    .replace(/0+$/, '')
    .padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}
