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

/** The payment-instruction endpoint's error body: ours plus the real deployment's keys. */
export const PaymentInstructionErrorSchema = Type.Object(
  {
    ...ErrorBodySchema.properties,
    error_detail: Type.String({ description: 'The same text as detail (the real deployment’s key).' }),
    import_supplier: Type.String({ description: 'As in the request; "" when it had none.' }),
    external_account_number: Type.String({ description: 'As in the request; "" when it had none.' }),
    reference: Type.String({ description: 'As in the request; "" when it had none.' }),
  },
  { $id: 'PaymentInstructionError', additionalProperties: true },
);

/** A well-formed transaction that cannot be added (interface 4.2): the first one, and why. */
export const TransactionImportErrorSchema = Type.Object(
  {
    status: Type.Literal('TRANSACTION_IMPORT_ERROR'),
    code: Type.String({
      description: 'transaction_in_future, transaction_outside_open_statement_period, ...',
    }),
    error_detail: Type.String(),
    transaction_data: Type.Object(
      {},
      { additionalProperties: true, description: 'The transaction as sent.' },
    ),
  },
  { $id: 'TransactionImportError', additionalProperties: true },
);

/** V2 create of an account that already exists (the reference's AlreadyImportedAccount example). */
export const AccountAlreadyImportedSchema = Type.Object(
  {
    non_field_errors: Type.Object({
      detail: Type.String(),
      code: Type.Literal('account_import_process_already_imported'),
    }),
    account_id: Type.String({ description: 'The account number on this service.' }),
  },
  { $id: 'AccountAlreadyImported', additionalProperties: true },
);

/** The V1 endpoints' AccountAlreadyImportedResponse, brand word replaced, with our detail and code. */
export const AccountAlreadyImportedV1Schema = Type.Object(
  {
    ...ErrorBodySchema.properties,
    external_account_number: Type.String(),
    service_account_number: Type.String(),
    non_field_errors: Type.Array(Type.String()),
  },
  { $id: 'AccountAlreadyImportedV1', additionalProperties: true },
);

/** Every named error body, registered once (openapi.ts) and referred to by name. */
export const ERROR_BODY_SCHEMAS = [
  ErrorBodySchema,
  PaymentInstructionErrorSchema,
  TransactionImportErrorSchema,
  AccountAlreadyImportedSchema,
  AccountAlreadyImportedV1Schema,
];

/** One of several named bodies (`oneOf` of `$ref`s), for an answer that takes more than one shape. */
export const OneOf = (names: string[], description?: string) =>
  Type.Unsafe<Record<string, unknown>>({ oneOf: names.map((name) => ({ $ref: `${name}#` })), description });

/** As OneOf, for shapes that overlap (one extends the other): `anyOf`. */
export const AnyOf = (names: string[], description?: string) =>
  Type.Unsafe<Record<string, unknown>>({ anyOf: names.map((name) => ({ $ref: `${name}#` })), description });

/** A response with no body (204). */
export const NoContent = Type.Unsafe<undefined>({ type: 'null', description: 'No content.' });

/** An object the admin API answers, its main fields documented; others pass through unchanged. */
export const AdminObject = (properties: Parameters<typeof Type.Object>[0], description?: string) =>
  Type.Object(properties, { additionalProperties: true, description });

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
