import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  authenticationFailed,
  notAuthenticated,
  permissionDenied,
  throttled,
} from '../errors/error-catalogue.ts';
import { DeferredBody, isJsonObject } from '../http/json-body.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import { type ApiKeyScope, canAccessSupplier } from './api-keys.ts';
import type { KeyScopes } from './key-scopes.ts';
import { suppliersNamedIn } from './suppliers-named.ts';
import type { TokenService } from './tokens.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey: ApiKeyScope | null;
  }
}

/**
 * Supplier codes a request names outside its body: the path parameter and the query's
 * `import_supplier` (the event feed).
 */
function suppliersInPathAndQuery(request: FastifyRequest): string[] {
  const named: string[] = [];
  const { params, query } = request;
  if (isJsonObject(params) && typeof params.import_supplier_code === 'string') {
    named.push(params.import_supplier_code);
  }
  if (isJsonObject(query) && typeof query.import_supplier === 'string') named.push(query.import_supplier);
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

  const allow = (scope: ApiKeyScope, request: FastifyRequest, wait: number) => {
    if (wait > 0) throw throttled(wait);
    request.apiKey = scope;
  };
  /**
   * The key's scope, or why the request is refused; answered at once from the caches and the
   * tokens this process holds when it can be, a promise only when the limiter must claim more.
   */
  const admit = (scope: ApiKeyScope | null, request: FastifyRequest): Promise<void> | undefined => {
    if (scope === null) throw authenticationFailed('The API key behind this token has been revoked.');
    const wait = deps.limiter.take(scope.id);
    if (typeof wait !== 'number') return wait.then((w) => allow(scope, request, w));
    allow(scope, request, wait);
  };
  const admitLater = async (request: FastifyRequest, token: string) => {
    const keyId = await deps.tokens.verify(token, 'access');
    if (keyId === null) throw authenticationFailed();
    await admit(await deps.keyScopes.active(keyId), request);
  };

  // A callback hook: a poll whose token and key are cached costs no promise here.
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      const header = request.headers.authorization;
      if (!header) throw notAuthenticated();
      const m = /^Token\s+(\S+)\s*$/i.exec(header);
      if (!m) throw authenticationFailed('The Authorization header must read "Token <token>".');
      const keyId = deps.tokens.verifiedBefore(m[1], 'access');
      if (keyId === null) throw authenticationFailed();
      const scope = keyId === undefined ? undefined : deps.keyScopes.cachedActive(keyId);
      if (scope === undefined) {
        admitLater(request, m[1]).then(() => done(), done);
        return;
      }
      const claiming = admit(scope, request);
      if (claiming) claiming.then(() => done(), done);
      else done();
    } catch (err) {
      done(err as Error);
    }
  });

  app.addHook('preValidation', (request, _reply, done) => {
    // An unread body's route holds the request to the scope once the body is read.
    if (request.body instanceof DeferredBody) return done();
    try {
      refuseRequestOutsideScope(request, suppliersNamedIn(request.body));
      done();
    } catch (err) {
      done(err as Error);
    }
  });
}

/**
 * The same supplier scope for one body of a request carrying several (the bulk endpoint): 403
 * `permission_denied` when it names a supplier outside the key, before anything is looked up.
 */
export function refuseSuppliersOutsideScope(scope: ApiKeyScope, body: unknown): void {
  refuseSuppliersNamed(scope, suppliersNamedIn(body));
}

/**
 * `permission_denied` when the request names a supplier outside its key: in its path, its query,
 * or its body (`bodySuppliers`, as suppliersNamedIn reads them).
 */
export function refuseRequestOutsideScope(request: FastifyRequest, bodySuppliers: string[]): void {
  refuseSuppliersNamed(request.apiKey!, [...suppliersInPathAndQuery(request), ...bodySuppliers]);
}

function refuseSuppliersNamed(scope: ApiKeyScope, suppliers: string[]): void {
  for (const supplier of suppliers) {
    if (!canAccessSupplier(scope, supplier)) throw permissionDenied();
  }
}
