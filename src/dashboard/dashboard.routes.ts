import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { CredentialThrottle } from '../auth/credential-throttle.ts';
import type { KeyScopes } from '../auth/key-scopes.ts';
import { answerOf, notFound } from '../errors/error-catalogue.ts';
import { type AnyError, toApiError } from '../http/error-handler.ts';
import type { Db } from '../infra/db/db.ts';
import type { SupplierCache } from '../suppliers/suppliers.queries.ts';
import { apiKeyPages } from './api-keys.pages.ts';
import { cataloguePages } from './catalogue.pages.ts';
import { guardWithSession, sendPage, signInRoutes } from './dashboard-auth.ts';
import { errorPage } from './layout.ts';
import { processPages } from './processes.pages.ts';
import { supplierPages } from './suppliers.pages.ts';
import { wavePages } from './waves.pages.ts';
import { webhookPages } from './webhooks.pages.ts';

export interface DashboardDeps {
  db: Db;
  suppliers: SupplierCache;
  keyScopes: KeyScopes;
  operatorKey: string;
  throttle: CredentialThrottle;
}

const require = createRequire(import.meta.url);

/** The files under /dashboard/assets/: the chart library from its npm package, the page's own script and style. */
const ASSETS: Record<string, { type: string; path: () => string }> = {
  'uPlot.iife.min.js': {
    type: 'text/javascript',
    path: () => require.resolve('uplot/dist/uPlot.iife.min.js'),
  },
  'uPlot.min.css': { type: 'text/css', path: () => require.resolve('uplot/dist/uPlot.min.css') },
  'dashboard.js': {
    type: 'text/javascript',
    path: () => fileURLToPath(new URL('./assets/dashboard.js', import.meta.url)),
  },
  'dashboard.css': {
    type: 'text/css',
    path: () => fileURLToPath(new URL('./assets/dashboard.css', import.meta.url)),
  },
};

function registerAssets(app: FastifyInstance) {
  const cache = new Map<string, Buffer>();
  for (const [name, asset] of Object.entries(ASSETS)) {
    app.get(`/assets/${name}`, { schema: { hide: true } }, async (_request, reply) => {
      let body = cache.get(name);
      if (!body) {
        body = readFileSync(asset.path());
        cache.set(name, body);
      }
      return reply
        .type(`${asset.type}; charset=utf-8`)
        .header('cache-control', 'public, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(body);
    });
  }
}

/**
 * The operator dashboard at /dashboard/ (docs/decisions/0045-dashboard-stack.md): server-rendered
 * pages over the same queries as the admin API, a session cookie from the operator key, and a
 * small script that keeps the progress live. Errors are answered as HTML pages with the
 * status the admin API would give (JSON under *.json).
 */
export const dashboardRoutes: FastifyPluginAsync<DashboardDeps> = async (app, deps) => {
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: 64 * 1024 });

  app.setErrorHandler((error: AnyError, request, reply) => {
    const { status, headers, body } = answerOf(toApiError(error, request))!;
    for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    if (request.url.split('?')[0].endsWith('.json')) return reply.code(status).send(body);
    const items = Array.isArray(body.errors) ? (body.errors as { attr: string; detail: string }[]) : [];
    return sendPage(reply, errorPage(status, String(body.detail ?? 'The request failed.'), items), status);
  });
  app.setNotFoundHandler((request, reply) => {
    const { status, body } = answerOf(notFound('No dashboard page has this address.'))!;
    if (request.url.split('?')[0].endsWith('.json')) return reply.code(status).send(body);
    return sendPage(reply, errorPage(status, String(body.detail), []), status);
  });

  registerAssets(app);
  await app.register(signInRoutes, { db: deps.db, operatorKey: deps.operatorKey, throttle: deps.throttle });
  await app.register(async (guarded) => {
    guardWithSession(guarded, deps.db);
    await guarded.register(supplierPages, { db: deps.db, suppliers: deps.suppliers });
    await guarded.register(processPages, { db: deps.db });
    await guarded.register(wavePages, { db: deps.db });
    await guarded.register(apiKeyPages, { db: deps.db, keyScopes: deps.keyScopes });
    await guarded.register(webhookPages, { db: deps.db });
    await guarded.register(cataloguePages, { db: deps.db });
  });
};
