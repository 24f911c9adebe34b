/**
 * What the engine knows of formats: nothing but their shape. A subject (the account payload, a
 * follow-up) passes its own table of `format` name → check, and the sentence for each code a
 * check can produce; the schema's `format` keywords name rows of that table. A format the table
 * lacks is refused when the schema is compiled (Ajv: "unknown format"; the structure pass:
 * unsupported), so a misspelt name fails the first test that sends the schema a body.
 */

import type { ItemCode } from '../errors/item-codes.ts';

/** Returns the error code for `value` (one of the item-code catalogue's), or null when it is fine. */
export type FormatCheck = (value: string) => ItemCode | null;

export interface FieldFormats {
  /** Each `format` name the subject's schemas use, and the rule that checks it. */
  readonly checks: Readonly<Record<string, FormatCheck>>;
  /** A human sentence for each code a check can produce. */
  readonly details: Readonly<Record<string, string>>;
}

/** For schemas without formats. */
export const NO_FORMATS: FieldFormats = { checks: {}, details: {} };

/** The sentences of the codes the engine gives itself (decimals, blank values). */
export const ENGINE_DETAILS = {
  blank: 'This field may not be blank.',
  invalid_decimal: 'Enter a decimal number, e.g. "12.34".',
} as const;

/** The sentence for `code`, from the subject's table or the engine's own. */
export function formatDetail(formats: FieldFormats, code: string): string {
  return (
    formats.details[code] ?? (ENGINE_DETAILS as Record<string, string>)[code] ?? 'This value is not valid.'
  );
}
