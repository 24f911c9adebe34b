import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { authenticationFailed, notAuthenticated } from '../errors/error-catalogue.ts';

/**
 * Who may read /metrics (decision 0062): anyone when `token` is null (a scraper needs no
 * credential, and never the operator key), else only `Authorization: Bearer <token>`.
 * Answers 'missing', 'wrong' or 'ok'.
 */
function scrapeCredential(token: string | null, header: string | undefined): 'missing' | 'wrong' | 'ok' {
  if (token === null) return 'ok';
  if (!header) return 'missing';
  const given = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? '';
  // Hashed first: equal lengths for timingSafeEqual, and no timing hint of the token's length.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(token)) ? 'ok' : 'wrong';
}

/**
 * Prometheus metrics at /metrics: request durations by route and status, plus process metrics,
 * on `registry` (or a new one); returns it for the families other rooms add. With `token`
 * (METRICS_TOKEN), a scrape must carry it as a bearer token.
 */
export function registerMetrics(
  app: FastifyInstance,
  registry: Registry = new Registry(),
  token: string | null = null,
): Registry {
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
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const credential = scrapeCredential(token, request.headers.authorization);
    if (credential === 'missing') throw notAuthenticated();
    if (credential === 'wrong') throw authenticationFailed('The metrics token is not valid.');
    return reply.type(registry.contentType).send(await registry.metrics());
  });
  return registry;
}

/**
 * /metrics of a process without the API (`ferry worker` with METRICS_PORT): `registry` on a port
 * of its own, everything else 404; with `token`, only for that bearer token (else 401). Resolves
 * once listening.
 */
export async function serveMetrics(
  registry: Registry,
  opts: { port: number; host: string; token?: string | null },
): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    if (scrapeCredential(opts.token ?? null, req.headers.authorization) !== 'ok') {
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
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
