/**
 * Small builders for payload schemas (the account's, the follow-ups'). They keep the sub-tree files readable and make
 * sure every object forbids undocumented fields, every enum is a plain `enum` (one Ajv error,
 * one `invalid_choice`) and every nullable field is `type: [T, 'null']` rather than an `anyOf`
 * (which would produce a cascade of errors instead of one `null`).
 */
import {
  type Static,
  type TObject,
  type TProperties,
  type TSchema,
  type TUnion,
  type TUnsafe,
  Type,
} from '@sinclair/typebox';
import type { ItemCode } from '../errors/item-codes.ts';
import { DecimalField, IntegerField } from '../vocabulary/field-types.ts';

interface Described {
  description?: string;
}

interface TextOptions extends Described {
  maxLength?: number;
  minLength?: number;
  /** A row of the subject's format table (field-formats.ts). */
  format?: string;
  default?: string;
}

/** Any JSON value except `null` (the reference marks those fields non-nullable). */
export type JsonValue = string | number | boolean | JsonValue[] | { [key: string]: JsonValue };

/** A string; an empty string is accepted (optional fields may be blank). */
export const Text = (options: TextOptions = {}) => Type.String(options);

/** An identifier: not empty and not only spaces (code `blank`), as the reference trims them. */
export const Identifier = (options: TextOptions = {}) =>
  Type.String({ ...options, minLength: 1, pattern: '\\S' });

/** A string that must not be empty: required text fields (code `blank`). */
export const NonBlankText = (options: TextOptions = {}) =>
  Type.String({ ...options, minLength: Math.max(1, options.minLength ?? 1) });

/**
 * Annotation naming the code a value outside an enum (or an unknown tag) is reported with, where
 * the reference has a specific one instead of `invalid_choice`.
 */
export const ERROR_CODE = 'x-error-code';

/** One of a fixed list of strings. Include `''` in `values` where the reference allows blank. */
export const Choice = <const V extends readonly string[]>(
  values: V,
  { errorCode, ...options }: Described & { default?: V[number]; errorCode?: ItemCode } = {},
): TUnsafe<V[number]> =>
  Type.Unsafe<V[number]>({
    ...options,
    type: 'string',
    enum: [...values],
    ...(errorCode ? { [ERROR_CODE]: errorCode } : {}),
  });

/** Exactly `YYYY-MM-DD`, a real calendar date. */
export const CalendarDate = (options: Described = {}) => Type.String({ ...options, format: 'date' });

/** ISO 8601 `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`. */
export const DateTime = (options: Described = {}) => Type.String({ ...options, format: 'date-time' });

/**
 * A decimal: a string, or a JSON number read as written (then replaced by its exact text). `wholeDigits`/`fractionDigits` are the reference's limits; stored as `numeric`, exactly.
 */
export const Decimal = DecimalField;

/** An integer; 32-bit unless the field gives its own bounds. */
export const Int = IntegerField;

export const Bool = (options: Described & { default?: boolean } = {}) => Type.Boolean(options);

export const List = <T extends TSchema>(items: T, options: Described & { minItems?: number } = {}) =>
  Type.Array(items, options);

/** An object with exactly the given fields: anything else is an `unknown_field`. */
export const Obj = <P extends TProperties>(properties: P, options: Described = {}): TObject<P> =>
  Type.Object(properties, { ...options, additionalProperties: false });

/** A free-form JSON object whose keys the reference does not fix. */
export const FreeObject = (options: Described = {}) =>
  Type.Unsafe<Record<string, unknown>>({ ...options, type: 'object', additionalProperties: true });

/** Any JSON value but `null`. */
export const AnyJson = (options: Described = {}) =>
  Type.Unsafe<JsonValue>({
    ...options,
    type: ['string', 'number', 'boolean', 'object', 'array'],
    // Says "free-form" to code generators (Ajv's default already allows any keys).
    additionalProperties: true,
  });

/** Any JSON value including `null`. */
export const AnyJsonOrNull = (options: Described = {}) => Type.Unknown(options);

/** Adds `null` to a schema's accepted values. */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const nullable: Record<string, unknown> = { ...schema, type: [...[schema.type].flat(), 'null'] };
  if (Array.isArray(schema.enum)) nullable.enum = [...schema.enum, null];
  return Type.Unsafe<Static<T> | null>(nullable);
}

/**
 * A polymorphic object chosen by a tag field (`type`, `supply_type`, `code`). Compiled with
 * Ajv's `discriminator` so only the selected variant's errors are reported.
 */
export function TaggedUnion<T extends TObject[]>(
  tag: string,
  variants: [...T],
  { errorCode, ...options }: Described & { errorCode?: ItemCode } = {},
): TUnsafe<Static<TUnion<T>>> {
  return Type.Unsafe<Static<TUnion<T>>>({
    ...options,
    type: 'object',
    oneOf: variants,
    discriminator: { propertyName: tag },
    ...(errorCode ? { [ERROR_CODE]: errorCode } : {}),
  });
}

export const Opt = Type.Optional;
