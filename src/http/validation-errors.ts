import type { ErrorObject } from 'ajv';
import type { ErrorItem } from './errors.ts';

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

const FORMAT_CODES: Record<string, string> = {
  date: 'invalid_date',
  'date-time': 'invalid_datetime',
  email: 'invalid_email',
};

/**
 * Maps Ajv errors to our error items: stable codes, `attr` from the root of `input`.
 * Errors from inside anyOf/oneOf branches are folded into one `invalid` at the union's path.
 */
export function ajvErrorsToItems(errors: ErrorObject[], input: unknown, prefix = ''): ErrorItem[] {
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
  const push = (attr: string, code: string, detail: string) => {
    const full = prefix === '' ? attr : joinAttr(prefix, attr);
    // One structural error per field: the first (a type error before an enum miss) says most.
    if (seen.has(full)) return;
    seen.add(full);
    out.push({ attr: full, code, detail });
  };
  for (const e of errors) {
    const attr = pointerToAttr(e.instancePath);
    if (e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && unions.some((u) => e.instancePath.startsWith(u))) {
      continue;
    }
    const value = valueAt(input, attr);
    if ((e.keyword === 'anyOf' || e.keyword === 'oneOf') && choiceUnions.has(e.instancePath)) {
      push(attr, 'invalid_choice', `${JSON.stringify(value)} is not a valid choice.`);
      continue;
    }
    switch (e.keyword) {
      case 'required': {
        const field = (e.params as { missingProperty: string }).missingProperty;
        push(joinAttr(attr, field), 'required', 'This field is required.');
        break;
      }
      case 'additionalProperties': {
        const field = (e.params as { additionalProperty: string }).additionalProperty;
        push(joinAttr(attr, field), 'unknown_field', 'This field is not part of the interface.');
        break;
      }
      case 'type':
        if (value === null) push(attr, 'null', 'This field may not be null.');
        else push(attr, 'invalid', `Expected ${(e.params as { type: string }).type}.`);
        break;
      case 'enum':
      case 'const':
        push(attr, 'invalid_choice', `${JSON.stringify(value)} is not a valid choice.`);
        break;
      case 'minLength':
        if (value === '') push(attr, 'blank', 'This field may not be blank.');
        else push(attr, 'min_length', `Ensure this field has at least ${e.params.limit} characters.`);
        break;
      case 'maxLength':
        push(attr, 'max_length', `Ensure this field has no more than ${e.params.limit} characters.`);
        break;
      case 'minimum':
      case 'exclusiveMinimum':
        push(attr, 'min_value', `Ensure this value is at least ${e.params.limit}.`);
        break;
      case 'maximum':
      case 'exclusiveMaximum':
        push(attr, 'max_value', `Ensure this value is at most ${e.params.limit}.`);
        break;
      case 'minItems':
        push(
          attr,
          Array.isArray(value) && value.length === 0 ? 'empty' : 'min_length',
          `Ensure this list has at least ${e.params.limit} items.`,
        );
        break;
      case 'maxItems':
        push(attr, 'too_many_items', `Ensure this list has no more than ${e.params.limit} items.`);
        break;
      case 'format':
        push(
          attr,
          FORMAT_CODES[(e.params as { format: string }).format] ?? 'invalid',
          `Not a valid ${e.params.format}.`,
        );
        break;
      default:
        push(attr, 'invalid', e.message ?? 'Invalid value.');
    }
  }
  return out;
}
