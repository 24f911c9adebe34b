import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type AppDeps, buildApp } from '../../src/app.ts';
import { type FerryConfig, loadConfig } from '../../src/config.ts';
import type { Db } from '../../src/infra/db/db.ts';
import { FileObjectStore } from '../../src/infra/storage/file-object-store.ts';
import type { ObjectStore } from '../../src/infra/storage/object-store.ts';
import { createPaymentVendors } from '../../src/infra/vendors/vendor-registry.ts';
import { createTestDb } from './test-db.ts';

export const OPERATOR_KEY = 'test-operator-key-0123456789';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: FerryConfig;
  /** A file store in a temporary folder of its own. */
  objectStore: ObjectStore;
  close(): Promise<void>;
}

/** Options of the test app beyond configuration: a logger to read the app's own logs, a metrics registry. */
export interface TestAppOptions {
  logger?: AppDeps['logger'];
  metrics?: AppDeps['metrics'];
}

/** The app on a given database, with a temporary file store; closing the app removes the store. */
export async function buildTestAppOn(db: Db, env: Record<string, string> = {}, opts: TestAppOptions = {}) {
  const config = loadConfig({ DATA_DIR: '.tmp/test-data', ...env });
  const dir = mkdtempSync(join(tmpdir(), 'ferry-docs-'));
  const objectStore = new FileObjectStore(dir);
  const app = await buildApp(config, {
    db,
    objectStore,
    paymentVendors: createPaymentVendors(config),
    operatorKey: OPERATOR_KEY,
    logger: opts.logger,
    metrics: opts.metrics,
  });
  app.addHook('onClose', async () => {
    await objectStore.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { app, config, objectStore };
}

/** The whole app on a fresh database; `env` overrides configuration variables. */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: TestAppOptions = {},
): Promise<TestApp> {
  const { db, cleanup } = await createTestDb();
  const { app, config, objectStore } = await buildTestAppOn(db, env, opts);
  return {
    app,
    db,
    config,
    objectStore,
    async close() {
      await app.close();
      await cleanup();
    },
  };
}

/** The app on a real socket, and the environment that points `ferry` (FERRY_URL, key) at it. */
export async function listeningTestApp(): Promise<{ t: TestApp; env: Record<string, string> }> {
  const t = await createTestApp();
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, env: { FERRY_URL: url, FERRY_OPERATOR_API_KEY: OPERATOR_KEY } };
}

export const adminHeaders = { authorization: `Bearer ${OPERATOR_KEY}` };

/** Calls the admin API and returns the parsed body, failing loudly on an unexpected status. */
export async function admin<T = Record<string, unknown>>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  expectStatus?: number,
): Promise<T> {
  const res = await app.inject({
    method,
    url: `/admin/v1${url}`,
    headers: adminHeaders,
    payload: payload as never,
  });
  const expected =
    expectStatus ??
    (method === 'POST' && !url.includes('/import-processes/') ? 201 : method === 'DELETE' ? 204 : 200);
  if (res.statusCode !== expected)
    throw new Error(`${method} ${url}: expected ${expected}, got ${res.statusCode} ${res.body}`);
  return (res.body ? res.json() : null) as T;
}

export async function obtainToken(app: FastifyInstance, apiKey: string): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/graphql/',
    payload: {
      query: 'mutation($k: String) { obtainToken(input: {APIKey: $k}) { token } }',
      variables: { k: apiKey },
    },
  });
  const body = res.json();
  if (!body.data?.obtainToken) throw new Error(`obtainToken failed: ${res.body}`);
  return body.data.obtainToken.token;
}

/** Creates suppliers (when missing), an API key scoped to `scope`, and a token for it. */
export async function tokenFor(
  app: FastifyInstance,
  scope: string[],
  create: string[] = scope.filter((s) => s !== '*'),
) {
  for (const code of create) {
    const res = await app.inject({
      method: 'GET',
      url: `/admin/v1/import-suppliers/${code}/`,
      headers: adminHeaders,
    });
    if (res.statusCode === 404) await admin(app, 'POST', '/import-suppliers/', { code });
  }
  const key = await admin<{ id: string; key: string }>(app, 'POST', '/api-keys/', {
    name: `key for ${scope.join(',')}`,
    import_suppliers: scope,
  });
  const token = await obtainToken(app, key.key);
  return { keyId: key.id, apiKey: key.key, token, headers: { authorization: `Token ${token}` } };
}
