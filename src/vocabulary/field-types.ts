/**
 * The field types every request body is built from, each defined once: what a value may be, and
 * the column that stores it. Both validators (Fastify's, for the follow-up and admin bodies, and
 * the account payload's own) register these definitions, so `date` or a decimal means the same
 * thing everywhere, and every value a validator passes is one its column stores unchanged
 * (PRODUCT §6 "What validation accepts, storage accepts"; test/vocabulary/field-types.test.ts
 * holds the columns to it).
 */
import { type TUnsafe, Type } from '@sinclair/typebox';
import type { Ajv, SchemaValidateFunction } from 'ajv';
import { isCalendarDate, isDateOrDateTime, isDateTime, isTimeOfDay } from './calendar-date.ts';
import { type DecimalProblem, decimalProblem } from './decimal.ts';

/** The column type each field type lands in, where it is stored relationally. */
export const FIELD_COLUMNS = {
  /** Strings never hold NUL: json-body.ts refuses it in every body before any validator runs. */
  text: 'text',
  /** `YYYY-MM-DD`, years 0001–9999. */
  date: 'date',
  /** ISO 8601 with `Z` or `±HH:MM`, an instant in years 0001–9999 UTC. */
  datetime: 'timestamptz',
  /** Unconstrained `numeric` keeps every digit and the scale as sent: nothing is rounded. */
  decimal: 'numeric',
  /** 32-bit unless a field says otherwise (then `bigint`, at most 2^53 − 1 to stay exact in JSON). */
  integer: 'integer',
} as const;

export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;

/** Objects and arrays nest at most this deep in any body (PRODUCT §6). */
export const MAX_NESTING_DEPTH = 64;

/**
 * Significant digits a JSON number carries exactly: every decimal of up to 15 digits survives the
 * round trip through a binary double, so its shortest text is what the client wrote. Longer
 * numbers must come as strings.
 */
export const EXACT_NUMBER_DIGITS = 15;

interface Described {
  description?: string;
}

/** A decimal: a string, or a JSON number of at most 15 significant digits; stored as `numeric`. */
export interface DecimalDigits {
  whole: number;
  fraction: number;
}

export const DECIMAL_KEYWORD = 'x-decimal';

export const DecimalField = (
  whole: number,
  fraction: number,
  options: Described & { default?: string } = {},
): TUnsafe<string> =>
  Type.Unsafe<string>({
    ...options,
    type: ['string', 'number'],
    [DECIMAL_KEYWORD]: { whole, fraction } satisfies DecimalDigits,
  });

/** An integer that fits its column: 32-bit unless bounds are given. */
export const IntegerField = (options: Described & { minimum?: number; maximum?: number } = {}) =>
  Type.Integer({ minimum: INT32_MIN, maximum: INT32_MAX, ...options });

/** Exactly `YYYY-MM-DD`, a real day in years 0001–9999. */
export const DateField = (options: Described = {}) => Type.String({ ...options, format: 'date' });

/** `YYYY-MM-DDTHH:MM:SS[.f](Z|±HH:MM)`, seconds 00–59, an instant in years 0001–9999. */
export const DateTimeField = (options: Described = {}) => Type.String({ ...options, format: 'date-time' });

/** The plain decimal text of a finite JSON number (no exponent), or null when it has none. */
export function numberText(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  const text = String(value);
  if (!/e/i.test(text)) return text === '-0' ? '0' : text;
  // Shortest digits and exponent, written out in full: 1e-7 → "0.0000001", 1.5e21 → "1500000000000000000000".
  const [mantissa, exponentText] = text.toLowerCase().split('e');
  const negative = mantissa.startsWith('-');
  const [whole, fraction = ''] = mantissa.replace('-', '').split('.');
  const digits = whole + fraction;
  const point = whole.length + Number(exponentText);
  const plain =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return negative ? `-${plain}` : plain;
}

function significantDigits(text: string): number {
  return text.replace(/[-.]/g, '').replace(/^0+/, '').length;
}

export type DecimalFieldProblem = DecimalProblem | 'blank' | 'imprecise_number';

/** Why `value` is not a decimal of these digits, or its exact text when it is one. */
export function readDecimal(
  value: unknown,
  { whole, fraction }: DecimalDigits,
): { text: string } | { problem: DecimalFieldProblem } {
  if (typeof value === 'string') {
    if (value === '') return { problem: 'blank' };
    const problem = decimalProblem(value, whole, fraction);
    return problem === null ? { text: value } : { problem };
  }
  const text = typeof value === 'number' ? numberText(value) : null;
  if (text === null) return { problem: 'invalid_decimal' };
  if (significantDigits(text) > EXACT_NUMBER_DIGITS) return { problem: 'imprecise_number' };
  const problem = decimalProblem(text, whole, fraction);
  return problem === null ? { text } : { problem };
}

/** A JSON number in a decimal field, to be replaced by its exact text (see `numbersToText`). */
export interface DecimalNumber {
  /** JSON pointer of the value in the validated document. */
  pointer: string;
  text: string;
}

/**
 * Decimal numbers met by the last validation call, in order. Validation is synchronous, so one
 * list serves every validator; `takeDecimalNumbers` empties it.
 */
let decimalNumbers: DecimalNumber[] = [];

export function takeDecimalNumbers(): DecimalNumber[] {
  const taken = decimalNumbers;
  decimalNumbers = [];
  return taken;
}

const checkDecimal: SchemaValidateFunction = function checkDecimal(
  digits: DecimalDigits,
  value: unknown,
  _parentSchema?: unknown,
  context?: { instancePath: string },
): boolean {
  const read = readDecimal(value, digits);
  if ('text' in read) {
    if (typeof value === 'number')
      decimalNumbers.push({ pointer: context?.instancePath ?? '', text: read.text });
    return true;
  }
  // Ajv fills in the paths of errors a keyword leaves them out of.
  (checkDecimal as SchemaValidateFunction).errors = [
    { keyword: DECIMAL_KEYWORD, params: { ...digits, problem: read.problem } } as never,
  ];
  return false;
};

/** Registers the shared formats and the decimal keyword on an Ajv instance. */
export function registerFieldTypes(ajv: Ajv): Ajv {
  ajv.addFormat('date', { type: 'string', validate: isCalendarDate });
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  ajv.addFormat('date-or-date-time', { type: 'string', validate: isDateOrDateTime });
  ajv.addFormat('time', { type: 'string', validate: isTimeOfDay });
  if (!ajv.getKeyword(DECIMAL_KEYWORD)) {
    ajv.addKeyword({
      keyword: DECIMAL_KEYWORD,
      type: ['string', 'number'],
      schemaType: 'object',
      validate: checkDecimal,
      errors: true,
    });
  }
  return ajv;
}
