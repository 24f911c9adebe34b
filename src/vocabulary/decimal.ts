/**
 * Decimal strings, exactly. Money is never a binary float here: a decimal becomes a BigInt count
 * of 10^-MONEY_SCALE units, so sums and comparisons are exact at every precision the payload
 * allows (at most 10 decimal places).
 */

/** Decimal places every payload amount fits in. */
export const MONEY_SCALE = 10;

const DECIMAL = /^(-?)(\d*)(?:\.(\d*))?$/;

export type DecimalProblem = 'invalid_decimal' | 'max_whole_digits' | 'max_decimal_places';

/** Why `value` is not a decimal with at most `wholeDigits` and `fractionDigits`, or null if it is. */
export function decimalProblem(
  value: string,
  wholeDigits: number,
  fractionDigits: number,
): DecimalProblem | null {
  const match = DECIMAL.exec(value);
  if (match === null) return 'invalid_decimal';
  const whole = match[2];
  const fraction = match[3] ?? '';
  if (whole.length + fraction.length === 0) return 'invalid_decimal';
  if (whole.replace(/^0+(?=\d)/, '').length > wholeDigits) return 'max_whole_digits';
  if (fraction.length > fractionDigits) return 'max_decimal_places';
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
  const match = DECIMAL.exec(value);
  if (match === null) return null;
  const [, sign, whole, fraction = ''] = match;
  if (whole.length + fraction.length === 0 || fraction.length > scale) return null;
  const units = BigInt((whole || '0') + fraction.padEnd(scale, '0'));
  return sign === '-' ? -units : units;
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
