import { decimalProblem, formatScaled, toScaledInteger } from '../../vocabulary/decimal.ts';

/** Money in requests: a JSON number or a decimal string, at most 2 decimal places (pence). */
export const MONEY_PLACES = 2;

/**
 * The decimal text of a JSON number or string, or null. Numbers are read through their shortest
 * round-trip text (53.24 → "53.24"), which is what the client wrote; exponents are refused.
 */
export function decimalText(value: unknown): string | null {
  if (typeof value === 'string') return value.trim() === value ? value : null;
  if (typeof value === 'number' && Number.isFinite(value)) {
    const text = String(value);
    return /e/i.test(text) ? null : text;
  }
  return null;
}

/** The value as an exact count of 10^-places units, or null when it is not such a decimal. */
export function exactUnits(value: unknown, places: number, wholeDigits = 10): bigint | null {
  const text = decimalText(value);
  if (text === null || decimalProblem(text, wholeDigits, places) !== null) return null;
  return toScaledInteger(text, places);
}

/** Pence → "12.30". */
export const formatMoney = (pence: bigint): string => formatScaled(pence, MONEY_PLACES);
