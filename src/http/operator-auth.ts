import type { FastifyInstance } from 'fastify';
import { secretsEqual } from '../auth/operator-key.ts';
import { ApiError, notAuthenticated } from './errors.ts';

/** Guards the /admin/ scope: `Authorization: Bearer <OPERATOR_API_KEY>`. */
export function registerOperatorAuth(app: FastifyInstance, operatorKey: string) {
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header) throw notAuthenticated();
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m || !secretsEqual(m[1], operatorKey)) {
      throw new ApiError(401, 'authentication_failed', 'The operator key is not valid.');
    }
  });
}
