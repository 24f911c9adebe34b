/**
 * Turns one Ajv error into our error item: a stable code from PRODUCT §6 / the reference, and an
 * `attr` dot-path from the payload root. Ajv runs with `verbose`, so each error carries the
 * offending value (`data`) and the schema it broke (`parentSchema`).
 */
import type { ErrorObject } from 'ajv';
import type { ErrorItem } from '../../../http/errors.ts';
import { joinAttr, pointerToAttr } from '../../../http/validation-errors.ts';
import {
  DECIMAL_KEYWORD,
  type DecimalDigits,
  type DecimalFieldProblem,
} from '../../../vocabulary/field-types.ts';
import { type FieldFormat, FORMAT_CHECKS, FORMAT_DETAILS } from './field-formats.ts';
import { ERROR_CODE } from './schema-builders.ts';
import { TAG_VALUES } from './split-schema.ts';

export interface StructuralIssue extends ErrorItem {
  /**
   * True when the value at `attr` (or its parent) cannot be trusted to have its declared shape,
   * so domain checks over that part of the payload must not run.
   */
  blocking: boolean;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `"${text.length > 80 ? `${text.slice(0, 77)}...` : text}"`;
}

const issue = (attr: string, code: string, detail: string, blocking: boolean): StructuralIssue => ({
  attr,
  code,
  detail,
  blocking,
});

function typeIssue(attr: string, error: ErrorObject): StructuralIssue {
  if (error.data === null) return issue(attr, 'null', 'This field may not be null.', true);
  const expected = ([] as string[])
    .concat(error.params.type as string | string[])
    .filter((t) => t !== 'null');
  if (expected.includes('array')) return issue(attr, 'not_a_list', 'Expected a list of items.', true);
  return issue(attr, 'invalid', `Expected ${expected.map((t) => TYPE_NAMES[t] ?? t).join(' or ')}.`, true);
}

function decimalIssue(attr: string, error: ErrorObject): StructuralIssue {
  const { whole, fraction, problem } = error.params as DecimalDigits & { problem: DecimalFieldProblem };
  if (problem === 'max_whole_digits') {
    return issue(
      attr,
      problem,
      `Ensure that there are no more than ${whole} digits before the decimal point.`,
      false,
    );
  }
  if (problem === 'max_decimal_places') {
    return issue(attr, problem, `Ensure that there are no more than ${fraction} decimal places.`, false);
  }
  if (problem === 'blank') return issue(attr, 'blank', FORMAT_DETAILS.blank, true);
  return issue(attr, problem, FORMAT_DETAILS.invalid_decimal, true);
}

function formatIssue(attr: string, error: ErrorObject): StructuralIssue {
  const check = FORMAT_CHECKS[error.params.format as FieldFormat];
  const code = check?.(String(error.data)) ?? 'invalid';
  const blocking = code === 'blank' || code === 'invalid_date' || code === 'invalid_datetime';
  return issue(attr, code, FORMAT_DETAILS[code] ?? 'This value is not valid.', blocking);
}

function discriminatorIssue(attr: string, error: ErrorObject): StructuralIssue {
  const tag = String(error.params.tag);
  const tagAttr = joinAttr(attr, tag);
  const value = (error.data as Record<string, unknown>)[tag];
  if (value === undefined) return issue(tagAttr, 'required', 'This field is required.', true);
  if (value === null) return issue(tagAttr, 'null', 'This field may not be null.', true);
  if (typeof value !== 'string') return issue(tagAttr, 'invalid', 'Expected a string.', true);
  const choices = error.parentSchema?.[TAG_VALUES];
  const hint = Array.isArray(choices) ? `: use one of ${choices.join(', ')}` : '';
  const code = error.parentSchema?.[ERROR_CODE] ?? 'invalid_choice';
  return issue(tagAttr, code, `${quote(value)} is not a valid choice${hint}.`, true);
}

export function ajvErrorToIssue(error: ErrorObject): StructuralIssue {
  const attr = pointerToAttr(error.instancePath);
  const params = error.params;
  switch (error.keyword) {
    case 'required':
      return issue(joinAttr(attr, params.missingProperty), 'required', 'This field is required.', true);
    case 'additionalProperties':
      return issue(
        joinAttr(attr, params.additionalProperty),
        'unknown_field',
        'This field is not part of the documented payload.',
        false,
      );
    case 'type':
      return typeIssue(attr, error);
    case 'enum':
    case 'const':
      return issue(
        attr,
        error.parentSchema?.[ERROR_CODE] ?? 'invalid_choice',
        `${quote(error.data)} is not a valid choice.`,
        false,
      );
    case 'maxLength':
      return issue(
        attr,
        'max_length',
        `Ensure this field has no more than ${params.limit} characters.`,
        false,
      );
    case 'minLength':
      return params.limit === 1
        ? issue(attr, 'blank', 'This field may not be blank.', false)
        : issue(attr, 'min_length', `Ensure this field has at least ${params.limit} characters.`, false);
    case 'minItems':
      return issue(attr, 'min_length', `Ensure this list has at least ${params.limit} items.`, false);
    case 'maxItems': // as every other body (docs/decisions/0006)
      return issue(attr, 'too_many_items', `Ensure this list has no more than ${params.limit} items.`, false);
    case 'minimum':
      return issue(
        attr,
        'min_value',
        `Ensure this value is greater than or equal to ${params.limit}.`,
        false,
      );
    case 'maximum':
      return issue(attr, 'max_value', `Ensure this value is less than or equal to ${params.limit}.`, false);
    case DECIMAL_KEYWORD:
      return decimalIssue(attr, error);
    case 'pattern': // only identifiers carry one: at least one non-space character
      return issue(attr, 'blank', 'This field may not be blank.', false);
    case 'format':
      return formatIssue(attr, error);
    case 'discriminator':
      return discriminatorIssue(attr, error);
    default:
      return issue(attr, 'invalid', 'This value is not valid.', true);
  }
}
