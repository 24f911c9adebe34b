import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { apiError } from '../errors/error-catalogue.ts';
import { type Db, sql } from '../infra/db/db.ts';

const ping = sql('ping', 'SELECT 1');

export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await db.query(ping);
      return { status: 'ok', database: 'reachable' };
    } catch {
      const down = apiError('service_unavailable', 'The database is not reachable.');
      return reply.code(down.statusCode).send(down.toBody());
    }
  });
};
