import { Type } from '@sinclair/typebox';

/** A string enum as JSON Schema `enum` (clearer in OpenAPI than a union of literals). */
export const StringEnum = <T extends readonly string[]>(values: T, opts: { description?: string } = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...opts });

/** Shared TypeBox schemas of the wire format: the error bodies and common pieces. */

export const ErrorItemSchema = Type.Object({
  detail: Type.String(),
  code: Type.String(),
  attr: Type.String({
    description: 'Dot-delimited path from the payload root; numeric parts are array indexes.',
  }),
});

export const ErrorBodySchema = Type.Object(
  {
    detail: Type.String({ description: 'Human-readable; do not parse.' }),
    code: Type.String({ description: 'Machine-readable and stable.' }),
    errors: Type.Optional(Type.Array(ErrorItemSchema)),
    domain: Type.Optional(Type.String()),
  },
  { $id: 'Error', additionalProperties: true },
);

export const ErrorRef = Type.Ref('Error');

export const SupplierCodeParam = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'Import supplier code.',
});

/** Responses every authenticated data-import route can give besides its own. */
export const authErrorResponses = {
  401: ErrorRef,
  403: ErrorRef,
  429: ErrorRef,
};
