/**
 * The error catalogue: every top-level `code` Ferry answers, once, with its HTTP status. Errors
 * are made only by the factories below, which take their status from this table; one handler
 * (error-handler.ts) turns them into the wire format. Codes of the items inside `errors`
 * (`required`, `blank`, …) are the validators' (validation-errors.ts and the payload's checks).
 */
import type { VendorRejectionCode } from '../infra/vendors/payment-vendor.ts';
import type { ErrorItem } from './error-items.ts';

/** A payment vendor said no, for good (docs/decisions/0031-vendors-error-codes.md). */
const VENDOR_REJECTIONS = {
  invalid_payment_instruction_reference: 400,
  payment_instruction_not_found: 400,
  payment_instruction_invalid: 400,
  payment_instruction_inactive: 400,
  payment_instruction_type_mismatch: 400,
  payment_instruction_reference_mismatch: 400,
  vendor_authentication_failed: 400,
  vendor_not_configured: 400,
} as const satisfies Record<VendorRejectionCode, 400>;

/** An account that cannot be created for its relation to stored data (also a process's latest_error). */
const CREATION_FAILURES = {
  meter_point_on_another_account: 400,
  reference_already_exists: 400,
  account_already_exists: 400,
  catalogue_check_failed: 400,
} as const;

/** A well-formed transaction that cannot be added (interface 4.2, TRANSACTION_IMPORT_ERROR). */
const TRANSACTION_REFUSALS = {
  transaction_in_future: 400,
  transaction_outside_open_statement_period: 400,
  product_code_does_not_exist: 400,
} as const;

export const ERROR_STATUS = {
  // The request itself (docs/product.md: Errors, Limits, Content type).
  parse_error: 400,
  validation_error: 400,
  bad_request: 400,
  invalid_url: 400,
  not_found: 404,
  request_timeout: 408,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  request_header_fields_too_large: 431,
  // Who is asking (docs/product.md, Authentication and tenancy).
  not_authenticated: 401,
  authentication_failed: 401,
  permission_denied: 403,
  throttled: 429,
  // The service and what it depends on.
  server_error: 500,
  vendor_unavailable: 500,
  service_unavailable: 503,
  document_store_unavailable: 503,
  // Account import (V2 and the V1 staged endpoints).
  account_failed_validation: 400,
  import_process_failed_validation: 400,
  import_supplier_paused: 400,
  import_supplier_complete: 400,
  account_import_process_in_progress: 400,
  account_import_process_already_imported: 400,
  import_process_cancelled: 400,
  dry_run_succeeded: 400,
  ...CREATION_FAILURES,
  // Follow-up imports.
  ...TRANSACTION_REFUSALS,
  account_has_active_instruction: 400,
  ...VENDOR_REJECTIONS,
  // The operator API.
  already_exists: 400,
  document_root_overlaps: 400,
  invalid_state_transition: 400,
  // Waves (the supplier's expectations, the operator's approval and rollback).
  reconciliation_differences: 409,
  wave_approved: 409,
  welcome_emails_sent: 409,
  // Reference data (the product catalogue and code lists): what accounts use cannot vanish.
  product_in_use: 409,
  code_in_use: 409,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type CreationFailureCode = keyof typeof CREATION_FAILURES;
export type TransactionRefusalCode = keyof typeof TRANSACTION_REFUSALS;
/** The codes a structural or field validation failure answers with; its items are in `errors`. */
export type ValidationFailureCode = Extract<
  ErrorCode,
  | 'validation_error'
  | 'account_failed_validation'
  | 'import_process_failed_validation'
  | 'document_root_overlaps'
>;

interface Extra {
  /** Top-level keys of the body besides detail and code (errors, domain, ...). */
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** An error answered as `{detail, code, ...body}` with the status of its code. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    detail: string,
    extra: Extra = {},
  ) {
    super(detail);
    this.statusCode = ERROR_STATUS[code];
    this.body = extra.body ?? {};
    this.headers = extra.headers ?? {};
  }

  toBody(): Record<string, unknown> {
    return { detail: this.message, code: this.code, ...this.body };
  }
}

/** An error whose body is given whole (interface shapes that are not `{detail, code}`). */
export class RawBodyError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    readonly payload: Record<string, unknown>,
  ) {
    super(`HTTP ${ERROR_STATUS[code]} ${code}`);
    this.statusCode = ERROR_STATUS[code];
  }
}

/** How an error is answered on the wire: its status, headers and body. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** The answer of an error made by this catalogue's factories; null for any other error. */
export function answerOf(error: unknown): ErrorAnswer | null {
  if (error instanceof ApiError)
    return { status: error.statusCode, headers: error.headers, body: error.toBody() };
  if (error instanceof RawBodyError) return { status: error.statusCode, headers: {}, body: error.payload };
  return null;
}

export const apiError = (code: ErrorCode, detail: string, extra: Extra = {}) =>
  new ApiError(code, detail, extra);

/** A validation failure: the top-level code of the endpoint, every item in `errors`. */
export const validationFailed = (
  code: ValidationFailureCode,
  errors: ErrorItem[],
  detail = 'The request is not valid.',
) => new ApiError(code, detail, { body: { errors } });

export const notFound = (detail = 'Not found.') => new ApiError('not_found', detail);

export const notAuthenticated = () =>
  new ApiError('not_authenticated', 'Authentication credentials were not provided.');

export const authenticationFailed = (detail = 'The token is invalid or has expired.') =>
  new ApiError('authentication_failed', detail);

export const permissionDenied = () =>
  new ApiError('permission_denied', 'You do not have permission to perform this action.');

export const serviceUnavailable = () =>
  new ApiError('service_unavailable', 'The service is temporarily unavailable; retry shortly.', {
    headers: { 'retry-after': '5' },
  });

export const throttled = (retryAfterSeconds: number) =>
  new ApiError('throttled', 'Too many requests.', {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });

export const serverError = () => new ApiError('server_error', 'A server error occurred.');

export const unsupportedMediaType = (detail = 'Send the body as application/json.') =>
  new ApiError('unsupported_media_type', detail);

export const payloadTooLarge = (limitBytes: number) =>
  new ApiError(
    'payload_too_large',
    `The request body is larger than the ${Math.round(limitBytes / (1024 * 1024))} MiB limit.`,
  );

export const requestTimeout = () => new ApiError('request_timeout', 'The request took too long.');
