import type { FastifyInstance } from 'fastify';
import { authenticationFailed, notAuthenticated, throttled } from '../errors/error-catalogue.ts';
import type { CredentialThrottle } from './credential-throttle.ts';
import { secretsEqual } from './operator-key.ts';

/**
 * Guards the /admin/ scope: `Authorization: Bearer <OPERATOR_API_KEY>`. An address with too
 * many recent failures is refused (429) before its key is even compared.
 */
export function registerOperatorAuth(
  app: FastifyInstance,
  operatorKey: string,
  throttle: CredentialThrottle,
) {
  app.addHook('onRequest', async (request) => {
    const wait = await throttle.retryAfter(request.ip);
    if (wait > 0) throw throttled(wait);
    const header = request.headers.authorization;
    if (!header) throw notAuthenticated();
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m || !secretsEqual(m[1], operatorKey)) {
      await throttle.recordFailure(request.ip);
      throw authenticationFailed('The operator key is not valid.');
    }
  });
}
