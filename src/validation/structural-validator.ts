/**
 * Structural validation (types, required and unknown fields, enums, limits, formats). A document
 * first meets the pass generated from the schema (structure-pass.ts), which only says whether it
 * passes; a document it refuses goes to the schema compiled with Ajv, whose errors are the ones
 * reported. Compilation happens on first use, not at import time, so importing the module is free
 * and tests that never validate never pay for it.
 */
import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import type { ErrorItem } from '../errors/error-items.ts';
import { IMPRECISE_NUMBER_DETAIL, leftoverNumbers } from '../vocabulary/exact-numbers.ts';
import { type DecimalNumber, registerFieldTypes, takeDecimalNumbers } from '../vocabulary/field-types.ts';
import { ajvErrorToIssue, type StructuralIssue } from './ajv-error-to-issue.ts';
import { type FieldFormats, NO_FORMATS } from './field-formats.ts';
import { splitSchema } from './split-schema.ts';
import { compileStructurePass, type StructurePass } from './structure-pass.ts';
import { joinAttr, linearErrorAppends } from './validation-errors.ts';

export interface StructuralResult {
  /** One error per attr, in document order. */
  errors: ErrorItem[];
  /** Attrs of errors after which the value there cannot be trusted to match its type. */
  blockedPaths: string[];
  /** Decimals sent as JSON numbers, with the exact text that replaces them (when valid). */
  decimalNumbers: DecimalNumber[];
}

/** One Ajv per format table: a table's formats are registered on its own instance. */
const ajvs = new WeakMap<FieldFormats, Ajv>();

function ajv(formats: FieldFormats): Ajv {
  let instance = ajvs.get(formats);
  if (instance) return instance;
  instance = new Ajv({
    allErrors: true, // every error at once
    verbose: true, // errors carry the value, for codes that depend on it
    discriminator: true, // polymorphic objects report only their own variant's errors
    strict: false, // TypeBox adds its own symbols; descriptions and defaults are annotations only
    messages: false, // we write our own details
    inlineRefs: false, // keep one function per object type (see split-schema.ts)
    code: linearErrorAppends, // errors gathered in place, not copied at every append
  });
  registerFieldTypes(instance);
  for (const [name, check] of Object.entries(formats.checks)) {
    instance.addFormat(name, { type: 'string', validate: (value: string) => check(value) === null });
  }
  ajvs.set(formats, instance);
  return instance;
}

/** A function that checks `value` against `schema`: the generated pass first, Ajv to explain a refusal. */
export function structuralValidator(
  schema: TSchema,
  formats: FieldFormats = NO_FORMATS,
): (value: unknown, attrPrefix?: string) => StructuralResult {
  let pass: StructurePass | undefined;
  const explain = ajvValidator(schema, formats);
  return (value, attrPrefix = '') => {
    pass ??= compileStructurePass(schema, formats);
    const passed = pass(value);
    if (passed && leftoverNumbers(value).length === 0)
      return { errors: [], blockedPaths: [], decimalNumbers: passed };
    return explain(value, attrPrefix);
  };
}

/**
 * The same check by Ajv alone, naming every error. Exported for the test that holds the generated
 * pass to it.
 */
export function ajvValidator(
  schema: TSchema,
  formats: FieldFormats = NO_FORMATS,
): (value: unknown, attrPrefix?: string) => StructuralResult {
  let validate: ValidateFunction | undefined;
  return (value, attrPrefix = '') => {
    validate ??= compile(schema, formats);
    takeDecimalNumbers();
    const valid = validate(value);
    const decimalNumbers = takeDecimalNumbers();
    const issues = valid ? [] : (validate.errors ?? []).map((error) => ajvErrorToIssue(error, formats));
    const leftovers = leftoverNumbers(value);
    if (issues.length === 0 && leftovers.length === 0)
      return { errors: [], blockedPaths: [], decimalNumbers };
    // Numbers a double cannot keep that no decimal field took: storing their double would alter them.
    for (const { path } of leftovers)
      issues.push({
        attr: path.join('.'),
        code: 'imprecise_number',
        detail: IMPRECISE_NUMBER_DETAIL,
        blocking: true,
      });
    return { ...collectIssues(issues, attrPrefix), decimalNumbers };
  };
}

function compile(schema: TSchema, formats: FieldFormats): ValidateFunction {
  const { root, parts } = splitSchema(schema);
  const instance = ajv(formats);
  for (const part of parts) instance.addSchema(part);
  return instance.compile(root);
}

function collectIssues(
  issues: StructuralIssue[],
  attrPrefix: string,
): Omit<StructuralResult, 'decimalNumbers'> {
  const errors: ErrorItem[] = [];
  const blockedPaths: string[] = [];
  const reported = new Set<string>();
  for (const { attr: relativeAttr, code, detail, blocking } of issues) {
    const attr =
      attrPrefix === ''
        ? relativeAttr
        : relativeAttr === ''
          ? attrPrefix
          : joinAttr(attrPrefix, relativeAttr);
    if (blocking) blockedPaths.push(attr);
    // Ajv may flag one value twice (a wrong type also fails its enum); the first error is the one that explains it.
    if (reported.has(attr)) continue;
    reported.add(attr);
    errors.push({ detail, code, attr });
  }
  return { errors, blockedPaths };
}
