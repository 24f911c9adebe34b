import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors/error-catalogue.ts';
import { isJsonObject } from './json-body.ts';

/**
 * A path parameter containing NUL names nothing that can exist: PostgreSQL text cannot hold
 * the character, so a query with it would fail (and fail every request batched with it).
 * Such a request is 404 `not_found` (docs/product.md, Errors), after authentication and before the
 * supplier scope, validation or any query that reads the path.
 */
export function registerPathParamGuard(app: FastifyInstance) {
  app.addHook('preValidation', (request, _reply, done) => {
    const params = isJsonObject(request.params) ? request.params : {};
    for (const key in params) {
      const value = params[key];
      if (typeof value === 'string' && value.includes('\u0000')) return done(notFound());
    }
    done();
  });
}
