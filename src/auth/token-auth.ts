import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticationFailed, notAuthenticated, permissionDenied, throttled } from '../http/errors.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { type ApiKeyScope, canAccessSupplier } from './api-keys.ts';
import type { KeyScopes } from './key-scopes.ts';
import type { TokenService } from './tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKeyScope | null;
  }
}

/** Supplier codes a request names: the path parameter and the body's `import_supplier` (or `_code`). */
function suppliersNamed(request: FastifyRequest): string[] {
  const named: string[] = [];
  const params = request.params as Record<string, unknown> | undefined;
  if (typeof params?.import_supplier_code === 'string') named.push(params.import_supplier_code);
  const body = request.body as Record<string, unknown> | null | undefined;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    if (typeof body.import_supplier === 'string') named.push(body.import_supplier);
    if (typeof body.import_supplier_code === 'string') named.push(body.import_supplier_code);
    const inner = body.payload as Record<string, unknown> | null | undefined;
    if (inner && typeof inner === 'object' && typeof inner.import_supplier === 'string') {
      named.push(inner.import_supplier);
    }
  }
  return named;
}

/**
 * Guards the data-import routes of this plugin scope: `Authorization: Token <jwt>` (401),
 * the key still active (revocation is immediate), the per-key rate limit (429), then, once
 * the body is parsed and before it is validated or anything is looked up, the supplier
 * scope (403), so a refusal says nothing about whether that supplier exists.
 */
export function registerTokenAuth(
  app: FastifyInstance,
  deps: { tokens: TokenService; keyScopes: KeyScopes; limiter: RateLimiter },
) {
  app.decorateRequest('apiKey', null);

  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header) throw notAuthenticated();
    const m = /^Token\s+(\S+)\s*$/i.exec(header);
    if (!m) throw authenticationFailed('The Authorization header must read "Token <token>".');
    const keyId = await deps.tokens.verify(m[1], 'access');
    if (keyId === null) throw authenticationFailed();
    const scope = await deps.keyScopes.active(keyId);
    if (scope === null) throw authenticationFailed('The API key behind this token has been revoked.');
    const wait = deps.limiter.take(scope.id);
    if (wait > 0) throw throttled(wait);
    request.apiKey = scope;
  });

  app.addHook('preValidation', async (request) => {
    const scope = request.apiKey!;
    for (const supplier of suppliersNamed(request)) {
      if (!canAccessSupplier(scope, supplier)) throw permissionDenied();
    }
  });
}
