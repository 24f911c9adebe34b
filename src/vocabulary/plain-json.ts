/**
 * A request body read away from the event loop (a check thread), when its text is plain: an
 * object that parses, holds no `\u` escape (so no NUL, no half of a surrogate pair, no key spelled
 * to slip past the prototype check), neither `__proto__` nor `constructor`, nests at most
 * MAX_NESTING_DEPTH deep, and is too short to hold more list items than a body may. The event
 * loop's reader (json-body.ts) refuses nothing in such a text and reads it to the same value,
 * numbers a double cannot keep kept as sent; any other text is left to it (undefined), to be read
 * there with every refusal it makes.
 */
import { parseKeepingNumbers } from './exact-numbers.ts';
import { MAX_LIST_ITEMS, MAX_NESTING_DEPTH } from './field-types.ts';
import { scanJsonText } from './json-text.ts';

export function readPlainJsonObject(text: string): Record<string, unknown> | undefined {
  if (
    text.length > 2 * MAX_LIST_ITEMS ||
    text.includes('\\u') ||
    text.includes('__proto__') ||
    text.includes('constructor')
  )
    return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const scan = scanJsonText(text);
  if (scan.depth > MAX_NESTING_DEPTH) return undefined;
  const kept = parseKeepingNumbers(text, value, scan.longNumbers);
  return 'value' in kept ? (kept.value as Record<string, unknown>) : undefined;
}
