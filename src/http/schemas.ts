import { Type } from '@sinclair/typebox';
import { TRANSACTION_TYPES } from '../vocabulary/transaction-enums.ts';

/** A string enum as JSON Schema `enum` (clearer in OpenAPI than a union of literals). */
export const StringEnum = <T extends readonly string[]>(values: T, opts: { description?: string } = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...opts });

/**
 * Shared TypeBox schemas of the wire format: the error bodies and common pieces.
 *
 * Each distinct error body is a named schema with the fields it always has required, so a client
 * generated from the document reads them without casts (decision 0058). They are closed in the
 * document's types (no `additionalProperties`), and Fastify serializes error answers with them:
 * a key a body carries but its schema lacks is dropped, so every key is declared here. Where an
 * answer takes several shapes, the most specific comes first (`anyOf`, see ErrorUnion).
 */

export const ErrorItemSchema = Type.Object(
  {
    detail: Type.String({ description: 'Human-readable; do not parse.' }),
    code: Type.String({ description: 'Machine-readable and stable: what is wrong with this field.' }),
    attr: Type.String({
      description: 'Dot-delimited path from the payload root; numeric parts are array indexes.',
    }),
  },
  { $id: 'ErrorItem', description: 'One problem with one field of the request.' },
);

const detail = () => Type.String({ description: 'Human-readable; do not parse.' });
const code = () => Type.String({ description: 'Machine-readable and stable.' });
const domain = () =>
  Type.Optional(Type.String({ description: 'import_process on the account-import endpoints.' }));

/** `{detail, code}`: every error that is not a validation failure nor one of the shapes below. */
export const ErrorBodySchema = Type.Object(
  { detail: detail(), code: code(), domain: domain() },
  { $id: 'Error', description: 'An error: `code` says what happened, `detail` says it to a person.' },
);

/** A validation failure: every problem at once, one item per field, in `errors`. */
export const ValidationErrorSchema = Type.Object(
  {
    detail: detail(),
    code: code(),
    errors: Type.Array(Type.Ref('ErrorItem'), { description: 'Every problem found, at once.' }),
    domain: domain(),
  },
  { $id: 'ValidationError', description: 'The request is not valid: each problem is an item of `errors`.' },
);

export const ErrorRef = Type.Ref('Error');
export const ValidationErrorRef = Type.Ref('ValidationError');

/** The payment-instruction endpoint's error body: ours plus the real deployment's keys. */
const paymentInstructionKeys = {
  error_detail: Type.String({ description: 'The same text as detail (the real deployment’s key).' }),
  import_supplier: Type.String({ description: 'As in the request; "" when it had none.' }),
  external_account_number: Type.String({ description: 'As in the request; "" when it had none.' }),
  reference: Type.String({ description: 'As in the request; "" when it had none.' }),
};

export const PaymentInstructionErrorSchema = Type.Object(
  {
    detail: detail(),
    code: code(),
    ...paymentInstructionKeys,
    vendor: Type.Optional(
      Type.String({ description: 'The payment vendor that refused or could not be reached.' }),
    ),
    vendor_reference: Type.Optional(
      Type.String({
        description:
          'payment_instruction_reference_mismatch: the instruction the vendor answered for (`reference` is the one asked for).',
      }),
    ),
  },
  { $id: 'PaymentInstructionError' },
);

/** The payment-instruction endpoint's validation failure: its items, and the real deployment's keys. */
export const PaymentInstructionValidationErrorSchema = Type.Object(
  {
    detail: detail(),
    code: code(),
    errors: Type.Array(Type.Ref('ErrorItem'), { description: 'Every problem found, at once.' }),
    ...paymentInstructionKeys,
  },
  { $id: 'PaymentInstructionValidationError' },
);

const text = (description?: string) => Type.Optional(Type.String({ description }));
const decimalText = (description: string) => Type.String({ description: `${description} A decimal string.` });

/**
 * A transaction as the transactions endpoint echoes it, added or refused: every field sent, money
 * as two-decimal strings, every other decimal as the exact decimal string validated, a forced
 * transaction's date as moved. Open (`additionalProperties`): the answer is serialized with this
 * schema, and a field the request schema gains later must not be dropped from the echo.
 */
const EchoedItem = (properties: Parameters<typeof Type.Object>[0]) =>
  Type.Object(properties, { additionalProperties: true });
export const TransactionDataSchema = Type.Object(
  {
    transaction_id: Type.String(),
    transaction_date: Type.String({
      format: 'date',
      description: "As added: a forced one is moved to the open statement period's start.",
    }),
    amount: decimalText('Pounds, two decimals.'),
    type: StringEnum(TRANSACTION_TYPES),
    reason: text(),
    payment_type: text(),
    description: text('A forced transaction: its original date (it was moved).'),
    reference: text(),
    note: text(),
    display_note: text(),
    billing_document_identifier: text(),
    to_prepay_meter_serial_number: text(),
    product_code: text('SUPPLY_CHARGE.'),
    supply_point_identifier: text('SUPPLY_CHARGE.'),
    line_items: Type.Optional(
      Type.Array(
        EchoedItem({
          start_date: Type.String({ format: 'date' }),
          end_date: Type.String({ format: 'date' }),
          net_amount: decimalText('Pounds, two decimals.'),
          number_of_units: decimalText('As sent.'),
          price_per_unit: Type.Optional(decimalText('As sent.')),
          units: Type.Optional(Type.Array(Type.String(), { description: 'Decimal strings, as sent.' })),
          rate_band: text(),
          rate_specification_code: text(),
          time_series_specification_code: text(),
          external_rate_identifier: text(),
          params: Type.Optional(Type.Object({}, { additionalProperties: true })),
        }),
        { description: 'SUPPLY_CHARGE.' },
      ),
    ),
    tax_items: Type.Optional(
      Type.Array(
        EchoedItem({
          amount: decimalText('Pounds, two decimals.'),
          rate: decimalText('As sent.'),
          value_taxed: decimalText('As sent.'),
          tax_type: Type.String(),
          unit_type: Type.String(),
          params: Type.Optional(Type.Object({}, { additionalProperties: true })),
        }),
        { description: 'CHARGE and SUPPLY_CHARGE.' },
      ),
    ),
  },
  { $id: 'TransactionData', additionalProperties: true, description: 'A transaction as echoed.' },
);

/** A well-formed transaction that cannot be added (interface 4.2): the first one, and why. */
export const TransactionImportErrorSchema = Type.Object(
  {
    status: Type.Literal('TRANSACTION_IMPORT_ERROR'),
    code: Type.String({
      description: 'transaction_in_future or transaction_outside_open_statement_period.',
    }),
    error_detail: Type.String({ description: 'Human-readable; do not parse.' }),
    transaction_data: Type.Ref('TransactionData', { description: 'The transaction as sent.' }),
  },
  { $id: 'TransactionImportError' },
);

/**
 * V2 create of an account that already exists: the reference's AlreadyImportedAccount body
 * (`non_field_errors`, `account_id`) with our `detail` and `code` beside it, so that every body
 * the create endpoint answers carries a top-level `code` (decision 0084).
 */
export const AccountAlreadyImportedSchema = Type.Object(
  {
    detail: detail(),
    code: Type.Literal('account_import_process_already_imported'),
    non_field_errors: Type.Object({
      detail: detail(),
      code: Type.Literal('account_import_process_already_imported'),
    }),
    account_id: Type.String({ description: 'The account number on this service.' }),
  },
  { $id: 'AccountAlreadyImported' },
);

/** The V1 endpoints' AccountAlreadyImportedResponse, brand word replaced, with our detail and code. */
export const AccountAlreadyImportedV1Schema = Type.Object(
  {
    detail: detail(),
    code: Type.Literal('account_import_process_already_imported'),
    external_account_number: Type.String(),
    service_account_number: Type.String({ description: 'The account number on this service.' }),
    non_field_errors: Type.Array(Type.String()),
  },
  { $id: 'AccountAlreadyImportedV1' },
);

/** Every named error body, registered once (openapi.ts) and referred to by name. */
export const ERROR_BODY_SCHEMAS = [
  TransactionDataSchema,
  ErrorItemSchema,
  ErrorBodySchema,
  ValidationErrorSchema,
  PaymentInstructionErrorSchema,
  PaymentInstructionValidationErrorSchema,
  TransactionImportErrorSchema,
  AccountAlreadyImportedSchema,
  AccountAlreadyImportedV1Schema,
];

/**
 * One of several named bodies, for an answer that takes more than one shape: `anyOf`, because the
 * shapes are open (a validation error's body also has an Error's fields). Name the most specific
 * first: Fastify serializes the answer with the first shape the body satisfies.
 */
export const AnyOf = (names: string[], description?: string) =>
  Type.Unsafe<unknown>({ anyOf: names.map((name) => ({ $ref: `${name}#` })), description });

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

/** A 400 that is a validation failure (its items in `errors`) or another refusal. */
export const BadRequest = AnyOf(['ValidationError', 'Error'], 'A validation failure, or another refusal.');

/** Responses every authenticated data-import route can give besides its own. */
export const authErrorResponses = {
  401: ErrorRef,
  403: ErrorRef,
  429: ErrorRef,
};

/** Responses every route that takes a JSON body can give: too large (413), not JSON (415). */
export const bodyErrorResponses = {
  413: ErrorRef,
  415: ErrorRef,
};
