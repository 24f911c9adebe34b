/**
 * Turns one Ajv error into our error item with the one mapping of Ajv's keywords
 * (validation-errors.ts), adding what the payloads' schemas have beyond Ajv's keywords: the decimal
 * keyword, the subject's formats (passed in), its tagged unions, schemas that name their own code (`x-error-code`), and whether the
 * error blocks the domain checks over its path. Ajv runs with `verbose`, so each error carries
 * the offending value (`data`) and the schema it broke (`parentSchema`).
 */
import type { ErrorObject } from 'ajv';
import type { ErrorItem } from '../errors/error-items.ts';
import type { ItemCode } from '../errors/item-codes.ts';
import { DECIMAL_KEYWORD, type DecimalDigits, type DecimalFieldProblem } from '../vocabulary/field-types.ts';
import { ENGINE_DETAILS, type FieldFormats, formatDetail } from './field-formats.ts';
import { ERROR_CODE } from './schema-builders.ts';
import { TAG_VALUES } from './split-schema.ts';
import { ajvErrorToItem, joinAttr, pointerToAttr, quote } from './validation-errors.ts';

export interface StructuralIssue extends ErrorItem {
  /**
   * True when the value at `attr` (or its parent) cannot be trusted to have its declared shape,
   * so domain checks over that part of the payload must not run.
   */
  blocking: boolean;
}

const issue = (attr: string, code: ItemCode, detail: string, blocking: boolean): StructuralIssue => ({
  attr,
  code,
  detail,
  blocking,
});

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
  if (problem === 'blank') return issue(attr, 'blank', ENGINE_DETAILS.blank, true);
  return issue(attr, problem, ENGINE_DETAILS.invalid_decimal, true);
}

function formatIssue(attr: string, error: ErrorObject, formats: FieldFormats): StructuralIssue {
  const check = formats.checks[String(error.params.format)];
  const code = check?.(String(error.data)) ?? 'invalid';
  const blocking = code === 'blank' || code === 'invalid_date' || code === 'invalid_datetime';
  return issue(attr, code, formatDetail(formats, code), blocking);
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

/** Limits, choices and unknown fields leave the value its type: checks over it may still run. */
const NON_BLOCKING_KEYWORDS = new Set([
  'additionalProperties',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
]);

export function ajvErrorToIssue(error: ErrorObject, formats: FieldFormats): StructuralIssue {
  const attr = pointerToAttr(error.instancePath);
  switch (error.keyword) {
    case DECIMAL_KEYWORD:
      return decimalIssue(attr, error);
    case 'pattern': // only identifiers carry one: at least one non-space character
      return issue(attr, 'blank', 'This field may not be blank.', false);
    case 'format':
      return formatIssue(attr, error, formats);
    case 'discriminator':
      return discriminatorIssue(attr, error);
    case 'enum':
    case 'const': {
      const code = error.parentSchema?.[ERROR_CODE];
      if (code) return issue(attr, code, `${quote(error.data)} is not a valid choice.`, false);
    }
  }
  return { ...ajvErrorToItem(error, error.data), blocking: !NON_BLOCKING_KEYWORDS.has(error.keyword) };
}
