import type { FastifyInstance } from 'fastify';
import { type Db, sql } from '../infra/db/db.ts';

const ping = sql('ping', 'SELECT 1');

export async function healthRoutes(app: FastifyInstance, { db }: { db: Db }) {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await db.query(ping);
      return { status: 'ok', database: 'reachable' };
    } catch {
      return reply.code(503).send({ detail: 'The database is not reachable.', code: 'service_unavailable' });
    }
  });
}
