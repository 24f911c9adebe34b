import type { ErrorObject } from 'ajv';
import { type ErrorItem, item } from '../errors/error-items.ts';
import type { ItemCode } from '../errors/item-codes.ts';

/** JSON pointer (`/customers/0/landline`) → our dot path (`customers.0.landline`). */
export function pointerToAttr(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}

/** Appends a field name or array index to an attr path. */
export const joinAttr = (base: string, key: string | number): string =>
  base === '' ? String(key) : `${base}.${key}`;

function valueAt(root: unknown, attr: string): unknown {
  if (attr === '') return root;
  let cur: unknown = root;
  for (const part of attr.split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Codes of the standard formats (ajv-formats, and the dates of vocabulary/field-types.ts). */
const FORMAT_CODES: Record<string, ItemCode> = {
  date: 'invalid_date',
  'date-time': 'invalid_datetime',
  'date-or-date-time': 'invalid_datetime',
  time: 'invalid_time',
  email: 'invalid_email',
};

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

/** A value as a detail quotes it: strings as written, anything else as JSON; long ones cut. */
export function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `"${text.length > 80 ? `${text.slice(0, 77)}...` : text}"`;
}

function typeItem(attr: string, value: unknown, type: string | string[]): ErrorItem {
  if (value === null) return item(attr, 'null', 'This field may not be null.');
  const expected = ([] as string[]).concat(type).filter((t) => t !== 'null');
  if (expected.includes('array')) return item(attr, 'not_a_list', 'Expected a list of items.');
  return item(attr, 'invalid', `Expected ${expected.map((t) => TYPE_NAMES[t] ?? t).join(' or ')}.`);
}

/**
 * The error item of one Ajv error: a stable code (docs/product.md, Errors: the reference's where
 * it has one) and `attr` from the root of the validated value. `value` is the value at the
 * error's path (Ajv's `data` when it runs with `verbose`). The one mapping of Ajv's own keywords,
 * for Fastify's validator (below) and the structural validator's (ajv-error-to-issue.ts beside
 * this file, which adds its own keywords and formats).
 */
export function ajvErrorToItem(error: ErrorObject, value: unknown): ErrorItem {
  const attr = pointerToAttr(error.instancePath);
  const { limit } = error.params as { limit?: number };
  switch (error.keyword) {
    case 'required': {
      const field = (error.params as { missingProperty: string }).missingProperty;
      return item(joinAttr(attr, field), 'required', 'This field is required.');
    }
    case 'additionalProperties': {
      const field = (error.params as { additionalProperty: string }).additionalProperty;
      return item(joinAttr(attr, field), 'unknown_field', 'This field is not part of the interface.');
    }
    case 'type':
      return typeItem(attr, value, (error.params as { type: string | string[] }).type);
    case 'enum':
    case 'const': {
      const { allowedValues } = error.params as { allowedValues?: unknown[] };
      const allowed = allowedValues ? ` Allowed: ${allowedValues.join(', ')}.` : '';
      return item(attr, 'invalid_choice', `${quote(value)} is not a valid choice.${allowed}`);
    }
    case 'minLength':
      return limit === 1
        ? item(attr, 'blank', 'This field may not be blank.')
        : item(attr, 'min_length', `Ensure this field has at least ${limit} characters.`);
    case 'maxLength':
      return item(attr, 'max_length', `Ensure this field has no more than ${limit} characters.`);
    case 'minItems':
      return item(attr, 'min_length', `Ensure this list has at least ${limit} items.`);
    case 'maxItems': // docs/decisions/0006
      return item(attr, 'too_many_items', `Ensure this list has no more than ${limit} items.`);
    case 'minimum':
      return item(attr, 'min_value', `Ensure this value is greater than or equal to ${limit}.`);
    case 'exclusiveMinimum':
      return item(attr, 'min_value', `Ensure this value is greater than ${limit}.`);
    case 'maximum':
      return item(attr, 'max_value', `Ensure this value is less than or equal to ${limit}.`);
    case 'exclusiveMaximum':
      return item(attr, 'max_value', `Ensure this value is less than ${limit}.`);
    case 'format': {
      const format = (error.params as { format: string }).format;
      return item(attr, FORMAT_CODES[format] ?? 'invalid', `Not a valid ${format}.`);
    }
    default:
      return item(attr, 'invalid', error.message ?? 'This value is not valid.');
  }
}

/**
 * Fastify's validator: Ajv's errors as our items, one per field, `attr` from the root of `input`.
 * Errors from inside anyOf/oneOf branches are folded into one at the union's path.
 */
export function ajvErrorsToItems(errors: ErrorObject[], input: unknown): ErrorItem[] {
  const out: ErrorItem[] = [];
  const seen = new Set<string>();
  const unions = errors
    .filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')
    .map((e) => e.instancePath);
  // A union whose every branch failed on `const` is a choice among literals.
  const choiceUnions = new Set(
    unions.filter((u) =>
      errors.every((e) => e.instancePath !== u || ['anyOf', 'oneOf', 'const'].includes(e.keyword)),
    ),
  );
  for (const e of errors) {
    const isUnion = e.keyword === 'anyOf' || e.keyword === 'oneOf';
    if (!isUnion && unions.some((u) => e.instancePath.startsWith(u))) continue;
    const value = valueAt(input, pointerToAttr(e.instancePath));
    const mapped = ajvErrorToItem(
      isUnion && choiceUnions.has(e.instancePath) ? { ...e, keyword: 'enum' } : e,
      value,
    );
    // One structural error per field: the first (a type error before an enum miss) says most.
    if (seen.has(mapped.attr)) continue;
    seen.add(mapped.attr);
    out.push(mapped);
  }
  return out;
}

/**
 * Ajv code options that keep collecting errors linear. With `allErrors`, Ajv's generated code
 * appends the errors of each referenced schema and custom keyword with
 * `vErrors = vErrors.concat(errors)`, copying everything gathered so far: one array of 32,000
 * broken items took 5.6 s to validate, 64,000 took 25 s (fuzzing found it). The same appends,
 * done in place, take milliseconds.
 */
export const linearErrorAppends = {
  process: (code: string): string =>
    code.replace(
      /vErrors\.concat\(([\w$.]+)\)/g,
      '((e) => { for (let i = 0; i < e.length; i++) vErrors.push(e[i]); return vErrors; })($1)',
    ),
};
