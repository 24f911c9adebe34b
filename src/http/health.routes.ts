import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { apiError } from '../errors/error-catalogue.ts';
import { type Db, sql } from '../infra/db/db.ts';

const ping = sql('ping', 'SELECT 1');

/** What /readyz adds about the process's own state (the reference data it checks against). */
export type ReadinessDetail = () => Record<string, unknown>;

export const healthRoutes: FastifyPluginAsyncTypebox<{ db: Db; detail?: ReadinessDetail }> = async (
  app,
  { db, detail },
) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await db.query(ping);
      return { status: 'ok', database: 'reachable', ...detail?.() };
    } catch {
      const down = apiError('service_unavailable', 'The database is not reachable.');
      return reply.code(down.statusCode).send(down.toBody());
    }
  });
};
