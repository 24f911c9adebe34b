import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';

const unsupportedMediaType = () =>
  new ApiError(415, 'unsupported_media_type', 'Send the body as application/json.');

/**
 * JSON is the only request body Ferry takes (PRODUCT §6 "Content type"): any other Content-Type
 * is 415 `unsupported_media_type` before any validation. Fastify already answers 415 for types
 * it has no parser for; its built-in text/plain parser is removed (it handed a string to
 * validation, a 400), and a POST to an endpoint that takes a body but sends no Content-Type is
 * refused too. Endpoints without a body (cancel, retry) accept a POST without one.
 */
export function registerJsonBodiesOnly(app: FastifyInstance) {
  app.removeContentTypeParser('text/plain');
  app.addHook('preValidation', async (request) => {
    if (request.method !== 'POST' && request.method !== 'PATCH' && request.method !== 'PUT') return;
    if (request.headers['content-type'] !== undefined) return;
    if (request.routeOptions.schema?.body !== undefined) throw unsupportedMediaType();
  });
}
