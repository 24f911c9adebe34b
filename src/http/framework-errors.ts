/**
 * Answers for requests that fail before any route sees them: Fastify's router (a malformed URL,
 * a path parameter that is too long) and Node's HTTP parser (oversized headers, bytes that are
 * not HTTP). Fastify and Node answer these in their own formats, echoing the URL; we answer in
 * ours (docs/product.md, Limits: every answer in our error format, never echoing the whole URL).
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { type ApiError, apiError, requestTimeout, serverError } from '../errors/error-catalogue.ts';

/** Path parameters up to this many characters (an `external_account_number` may be 128). */
export const MAX_PATH_PARAM_LENGTH = 255;

/** Our body for each error the router reports; the URL is never part of it. */
function routerError(error: FastifyError): ApiError {
  switch (error.code) {
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return apiError('uri_too_long', `A path parameter is longer than ${MAX_PATH_PARAM_LENGTH} characters.`);
    case 'FST_ERR_BAD_URL':
    case 'FST_ERR_INVALID_URL':
      return apiError('invalid_url', 'The URL is not valid (malformed percent-encoding?).');
    default:
      return serverError();
  }
}

function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const answer = routerError(error);
  if (answer.statusCode >= 500) request.log.error({ err: error }, 'router error');
  reply.code(answer.statusCode).send(answer.toBody());
}

/** What Node's parser reports, as ours. */
function clientError(err: NodeJS.ErrnoException): ApiError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return apiError('request_header_fields_too_large', 'The request line and headers are too large.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return requestTimeout();
    default:
      return apiError('bad_request', 'The request is not valid HTTP.');
  }
}

/**
 * Node's `clientError`: the request could not even be parsed, so there is no Fastify request or
 * reply; the answer is written on the socket, which is then closed.
 */
function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
  // A connection reset leaves nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const answer = clientError(err);
  const status = answer.statusCode;
  const body = JSON.stringify(answer.toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/** The Fastify options that route these errors to us. */
export const frameworkErrorOptions: Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> = {
  frameworkErrors,
  clientErrorHandler,
};
