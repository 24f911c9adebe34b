/**
 * The error catalogue: every error Ferry answers with is an ApiError carrying its HTTP status
 * and a stable `code`. One handler (error-handler.ts) turns them into the wire format.
 */

/** One item of a validation error body: `attr` is dot-delimited from the payload root. */
export interface ErrorItem {
  detail: string;
  code: string;
  attr: string;
}

export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: string;
  /** Extra top-level keys of the body (errors, domain, ...). */
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    statusCode: number,
    code: string,
    detail: string,
    extra: { body?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.statusCode = statusCode;
    this.code = code;
    this.body = extra.body ?? {};
    this.headers = extra.headers ?? {};
  }

  toBody(): Record<string, unknown> {
    return { detail: this.message, code: this.code, ...this.body };
  }
}

/** An error whose body is given whole (interface shapes that are not `{detail, code}`). */
export class RawBodyError extends Error {
  constructor(
    readonly statusCode: number,
    readonly payload: unknown,
  ) {
    super(`HTTP ${statusCode}`);
  }
}

export const validationFailed = (
  errors: ErrorItem[],
  code = 'invalid',
  detail = 'The request body is not valid.',
) => new ApiError(400, code, detail, { body: { errors } });

export const badRequest = (code: string, detail: string, body: Record<string, unknown> = {}) =>
  new ApiError(400, code, detail, { body });

export const notFound = (detail = 'Not found.') => new ApiError(404, 'not_found', detail);

export const notAuthenticated = () =>
  new ApiError(401, 'not_authenticated', 'Authentication credentials were not provided.');

export const authenticationFailed = (detail = 'The token is invalid or has expired.') =>
  new ApiError(401, 'authentication_failed', detail);

export const permissionDenied = () =>
  new ApiError(403, 'permission_denied', 'You do not have permission to perform this action.');

export const serviceUnavailable = () =>
  new ApiError(503, 'service_unavailable', 'The service is temporarily unavailable; retry shortly.', {
    headers: { 'retry-after': '5' },
  });

export const throttled = (retryAfterSeconds: number) =>
  new ApiError(429, 'throttled', 'Too many requests.', {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });

export const item = (attr: string, code: string, detail: string): ErrorItem => ({ attr, code, detail });
