/**
 * The field types every request body is built from, each defined once: what a value may be, and
 * the column that stores it. Both validators (Fastify's, for the follow-up and admin bodies, and
 * the account payload's own) register these definitions, so `date` or a decimal means the same
 * thing everywhere, and every value a validator passes is one its column stores unchanged
 * (docs/product.md, Errors: "What validation accepts, storage keeps"; test/vocabulary/field-types.test.ts
 * holds the columns to it).
 */
import { type TUnsafe, Type } from '@sinclair/typebox';
import type { Ajv, SchemaValidateFunction } from 'ajv';
import { isCalendarDate, isDateOrDateTime, isDateTime, isTimeOfDay } from './calendar-date.ts';
import { type DecimalProblem, decimalProblem } from './decimal.ts';
import { numberText, takeExactText } from './exact-numbers.ts';

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

/** Objects and arrays nest at most this deep in any body (docs/product.md, Errors). */
export const MAX_NESTING_DEPTH = 64;

/**
 * List items a body may hold in all (every array, at every depth). Validating a broken item costs
 * ≈ 10 µs; without a bound, a 5 MiB body of 2.6 million broken items would hold the process for
 * half a minute. The largest real bodies (1,000 transactions with their line and tax items, 1,000
 * accounts in bulk) stay far below it.
 */
export const MAX_LIST_ITEMS = 100_000;

interface Described {
  description?: string;
}

/** A decimal: a string or a JSON number, kept as sent (exact-numbers.ts); stored as `numeric`. */
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

export type DecimalFieldProblem = DecimalProblem | 'blank';

/**
 * Why `value` is not a decimal of these digits, or its exact text when it is one. A JSON number
 * reads as `sentText` when JSON.parse could not keep it (see exact-numbers.ts), otherwise as the
 * double's shortest text, which is then exactly what the client wrote.
 */
export function readDecimal(
  value: unknown,
  { whole, fraction }: DecimalDigits,
  sentText?: string,
): { text: string } | { problem: DecimalFieldProblem } {
  if (typeof value === 'string' && value === '') return { problem: 'blank' };
  const text =
    typeof value === 'string' ? value : typeof value === 'number' ? (sentText ?? numberText(value)) : null;
  if (text === null) return { problem: 'invalid_decimal' };
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
  context?: { instancePath: string; parentData?: unknown; parentDataProperty?: string | number },
): boolean {
  const sentText =
    typeof value === 'number' && context?.parentDataProperty !== undefined
      ? takeExactText(context.parentData, context.parentDataProperty)
      : undefined;
  const read = readDecimal(value, digits, sentText);
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
