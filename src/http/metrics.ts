import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * Prometheus metrics at /metrics: request durations by route and status, plus process metrics,
 * on `registry` (or a new one); returns it for the families other rooms add.
 */
export function registerMetrics(app: FastifyInstance, registry: Registry = new Registry()): Registry {
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'ferry_http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status code.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    duration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
    reply.type(registry.contentType).send(await registry.metrics()),
  );
  return registry;
}

/**
 * /metrics of a process without the API (`ferry worker` with METRICS_PORT): `registry` on a port
 * of its own, everything else 404. Resolves once listening.
 */
export async function serveMetrics(
  registry: Registry,
  opts: { port: number; host: string },
): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  return server;
}
