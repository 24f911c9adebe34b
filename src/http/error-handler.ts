import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiError,
  answerOf,
  apiError,
  notFound,
  payloadTooLarge,
  RawBodyError,
  requestTimeout,
  serverError,
  serviceUnavailable,
  unsupportedMediaType,
  validationFailed,
} from '../errors/error-catalogue.ts';
import { isDbUnavailableError } from '../infra/db/db.ts';
import { ObjectStoreError } from '../infra/storage/object-store.ts';
import { VendorRejection, VendorUnavailable } from '../infra/vendors/payment-vendor.ts';
import { ajvErrorsToItems } from '../validation/validation-errors.ts';

export type AnyError = FastifyError & { validationContext?: string };

function send(reply: FastifyReply, err: ApiError | RawBodyError) {
  const { status, headers, body } = answerOf(err)!;
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  return reply.code(status).send(body);
}

/**
 * Turns Fastify's own errors into ours; returns null for anything unexpected. (Also what a body
 * parser's failure of one NDJSON line is answered with, json-body.ts.)
 */
export function fromFastifyError(error: Error, request: FastifyRequest): ApiError | null {
  const err = error as AnyError;
  if (err.validation) {
    const context = err.validationContext ?? 'body';
    const input =
      context === 'body' ? request.body : context === 'querystring' ? request.query : request.params;
    const errors = ajvErrorsToItems(err.validation as never, input);
    return validationFailed('validation_error', errors);
  }
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return unsupportedMediaType();
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge(request.routeOptions.bodyLimit);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return apiError('parse_error', 'The request body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return apiError('parse_error', 'The Content-Length header does not match the body.');
  }
  // JSON.parse failures and prototype-poisoning rejections arrive as 400 SyntaxErrors.
  if (err.statusCode === 400 && (err instanceof SyntaxError || err.name === 'SyntaxError')) {
    return apiError('parse_error', `The request body is not valid JSON: ${err.message}`);
  }
  if (err.statusCode === 408) return requestTimeout();
  return null;
}

/**
 * Any error as one of ours: catalogue errors as they are, vendor, storage, framework and database
 * failures mapped; anything unexpected is logged with its cause and becomes a bare 500.
 */
export function toApiError(error: AnyError, request: FastifyRequest): ApiError | RawBodyError {
  if (error instanceof ApiError || error instanceof RawBodyError) return error;
  if (error instanceof VendorRejection) {
    // Permanent: the request must change before it can succeed (interface 4.4).
    const body: Record<string, string> = { vendor: error.vendor };
    // A reference mismatch names the instruction the vendor answered for (the request's is `reference`).
    if (error.vendorReference !== null) body.vendor_reference = error.vendorReference;
    return apiError(error.code, error.message, { body });
  }
  if (error instanceof VendorUnavailable) {
    // Intermittent: safe to retry unchanged (interface 4.4).
    request.log.warn({ err: error }, 'payment vendor unavailable');
    return apiError(
      'vendor_unavailable',
      'The payment vendor could not be reached; retry the request unchanged.',
      {
        body: { vendor: error.vendor },
      },
    );
  }
  if (error instanceof ObjectStoreError) {
    request.log.warn({ err: error }, 'document store unavailable');
    return apiError(
      'document_store_unavailable',
      'The document store is temporarily unavailable; retry shortly.',
      {
        headers: { 'retry-after': '5' },
      },
    );
  }
  const mapped = fromFastifyError(error, request);
  if (mapped) return mapped;
  if (isDbUnavailableError(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return serviceUnavailable();
  }
  request.log.error({ err: error }, 'unexpected error');
  return serverError();
}

/** One handler maps every error to our format; unexpected ones are logged and answered as a bare 500. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: AnyError, request, reply) => send(reply, toApiError(error, request)));

  // The URL is not echoed: it may be long, and it is the client's own input.
  app.setNotFoundHandler((_request, reply) =>
    send(reply, notFound('No route matches this method and path.')),
  );
}
