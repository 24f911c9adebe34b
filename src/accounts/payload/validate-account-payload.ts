/**
 * Validates a GB account payload: first its structure (types, required and unknown fields,
 * enums, limits, formats) against the compiled schema, then the domain rules of the reference's
 * object-level checks. Every error is reported at once, each with a stable code and the
 * dot-path (`attr`) of the field it concerns. Pure: no I/O, and the input is never modified.
 */
import type { ErrorItem } from '../../errors/error-items.ts';
import { CheckContext } from '../../validation/check-context.ts';
import { type StructuralResult, structuralValidator } from '../../validation/structural-validator.ts';
import { type AccountPayload, AccountPayloadSchema } from './account-payload.schema.ts';
import { normaliseAccountPayload, withDecimalTexts } from './normalise-account-payload.ts';
import { ACCOUNT_FIELD_FORMATS } from './rules/field-formats.ts';
import { runAccountChecks } from './run-account-checks.ts';

export interface AccountValidationContext {
  /** Today in the service time zone, `YYYY-MM-DD`: "in the future" means after this date. */
  today: string;
}

export type AccountValidationResult =
  | { ok: true; value: AccountPayload }
  | { ok: false; errors: ErrorItem[] };

const checkAccountStructure = structuralValidator(AccountPayloadSchema, ACCOUNT_FIELD_FORMATS);

/**
 * Compiles the validator now instead of on the first call (about half a second of Ajv code
 * generation): call it once at start-up so the first request is not the slow one.
 */
export function prepareAccountPayloadValidation(): void {
  checkAccountStructure({});
}

/**
 * Structural validation only (types, required and unknown fields, enums, limits, formats), for
 * callers that want it without the domain rules, such as the field table tests. `attrPrefix`
 * places the attrs under a parent path.
 */
export function checkAccountPayloadStructure(payload: unknown, attrPrefix = ''): StructuralResult {
  return checkAccountStructure(payload, attrPrefix);
}

export function validateAccountPayload(
  payload: unknown,
  ctx: AccountValidationContext,
): AccountValidationResult {
  const structure = checkAccountStructure(payload);
  if (!isObject(payload)) return { ok: false, errors: structure.errors };
  // Decimals sent as JSON numbers become their exact text before any rule reads them.
  const account = withDecimalTexts(payload, structure.decimalNumbers) as AccountPayload;
  const checks = new CheckContext(ctx.today, structure.blockedPaths);
  runAccountChecks(account, checks);
  const errors = [...structure.errors, ...checks.errors];
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: normaliseAccountPayload(account) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
