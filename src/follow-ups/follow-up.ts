import { type TArray, type TProperties, type TSchema, type TString, Type } from '@sinclair/typebox';
import { withDecimalTexts } from '../accounts/payload/normalise-account-payload.ts';
import { ACCOUNT_FIELD_FORMATS } from '../accounts/payload/rules/field-formats.ts';
import type { FerryConfig } from '../config.ts';
import { validationFailed } from '../errors/error-catalogue.ts';
import type { ErrorItem } from '../errors/error-items.ts';
import type { Db } from '../infra/db/db.ts';
import type { ObjectStore } from '../infra/storage/object-store.ts';
import type { PaymentVendors } from '../infra/vendors/vendor-registry.ts';
import { structuralValidator } from '../validation/structural-validator.ts';

/** What the follow-up import routes (notes, transactions, statements, payment instructions) get. */
export interface FollowUpDeps {
  db: Db;
  config: FerryConfig;
  objectStore: ObjectStore;
  paymentVendors: PaymentVendors;
}

/** Documents checked in the store at once for one request. */
export const DOCUMENT_CHECKS_IN_FLIGHT = 16;

/** Most items one follow-up request may carry (notes, transactions, statements). */
export const MAX_ITEMS_PER_REQUEST = 1_000;

/**
 * The validation body of a follow-up request: every error, in attr order, under the code
 * Fastify's schema errors get too (error-handler.ts), on all four endpoints.
 */
export function followUpValidationFailed(errors: ErrorItem[]) {
  const sorted = [...errors].sort((a, b) => a.attr.localeCompare(b.attr, 'en', { numeric: true }));
  return validationFailed('validation_error', sorted);
}

/**
 * The body shape shared by the four follow-up imports: which account, any `extra` top-level
 * fields, then the items.
 */
export function followUpBody<
  K extends string,
  S extends TSchema,
  E extends TProperties = Record<never, never>,
>(itemsKey: K, item: S, description: string, extra?: E) {
  return Type.Object(
    {
      import_supplier: Type.String({ minLength: 1, maxLength: 64, description: 'Import supplier code.' }),
      external_account_number: Type.String({ minLength: 1, maxLength: 128 }),
      ...extra,
      [itemsKey]: Type.Array(item, { minItems: 1, maxItems: MAX_ITEMS_PER_REQUEST, description }),
    } as FollowUpProperties<K, S> & E,
    { additionalProperties: false },
  );
}

/** The properties of a follow-up body: a computed key needs its type spelled out. */
type FollowUpProperties<K extends string, S extends TSchema> = {
  import_supplier: TString;
  external_account_number: TString;
} & { [P in K]: TArray<S> };

export interface CheckedBody<T> {
  /** The body, decimals sent as JSON numbers replaced by their exact text. */
  value: T;
  errors: ErrorItem[];
  /** Attrs whose value cannot be trusted to have its declared type (see CheckContext). */
  blockedPaths: string[];
}

/**
 * A checker of a follow-up body built from the account payload's field types (decimals, formats
 * such as `ledger-code`, tagged unions): the account payload's validator, so the same field
 * answers the same codes in both places.
 */
export function followUpBodyChecker<T>(schema: TSchema): (body: unknown) => CheckedBody<T> {
  const check = structuralValidator(schema, ACCOUNT_FIELD_FORMATS);
  return (body) => {
    const { errors, blockedPaths, decimalNumbers } = check(body);
    const value =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? withDecimalTexts(body as Record<string, unknown>, decimalNumbers)
        : body;
    return { value: value as T, errors, blockedPaths };
  };
}
