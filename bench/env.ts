import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type * as ChecksModule from '../src/accounts/account-checks.ts';
import type * as AppModule from '../src/app.ts';
import type * as ConfigModule from '../src/config.ts';
import type { FerryConfig } from '../src/config.ts';
import { type Db, sql } from '../src/infra/db/db.ts';
import type * as ObjectStoreModule from '../src/infra/storage/file-object-store.ts';
import type * as VendorsModule from '../src/infra/vendors/vendor-registry.ts';
import { OPERATOR_KEY, tokenFor } from '../test/helpers/test-app.ts';
import { createFreshDb } from '../test/helpers/test-db.ts';

const SOCKET_DIR = '/var/run/postgresql';
/**
 * The local server through its Unix socket when there is one: loopback TCP costs this process
 * about twice the CPU per query (docs/performance.md), which is not Ferry's to spend.
 */
export const DEFAULT_DATABASE_URL = existsSync(`${SOCKET_DIR}/.s.PGSQL.5432`)
  ? `postgres://postgres@localhost/test?host=${SOCKET_DIR}`
  : 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchDb {
  db: Db;
  /** What the results were measured on, for the report (no credentials). */
  label: string;
  /** On a server: a connection string for other processes, with the bench schema as search path. */
  url?: string;
  cleanup(): Promise<void>;
}

/** A fresh migrated database: a schema `bench_<random>` on the server (dropped at cleanup), or PGlite. */
export async function openBenchDb(kind: 'postgres' | 'pglite', url: string): Promise<BenchDb> {
  if (kind === 'pglite') return { ...(await createFreshDb()), label: 'pglite (in-memory)' };
  const fresh = await createFreshDb({ url, schemaPrefix: 'bench', poolSize: 20 });
  const version = (
    await fresh.db.query<{ server_version: string }>(sql('bench.version', 'SHOW server_version'))
  ).rows[0].server_version;
  const u = new URL(url);
  return {
    ...fresh,
    label: `postgres ${version} at ${u.searchParams.get('host') ?? u.hostname}:${u.port || 5432}${u.pathname} (schema ${fresh.schema})`,
  };
}

export interface BenchApp {
  app: FastifyInstance;
  config: FerryConfig;
  base: string;
  headers: Record<string, string>;
}

export const SUPPLIER = 'BENCH';
export const BIG_SUPPLIER = 'BIGLIST';

/**
 * A module of the service as built (`dist/`, by `prebench`): what `npm start` runs. Loaded through
 * the TypeScript loader the bench itself runs on, the same code costs ≈ 17 % more CPU (measured on
 * the account validation: 31 µs against 26 µs), which is the loader's and not Ferry's.
 */
function built<M>(path: string): Promise<M> {
  return import(new URL(`../dist/src/${path}`, import.meta.url).href) as Promise<M>;
}

/** The whole service, as built, on a real socket on 127.0.0.1, rate limiting out of the way. */
export async function startFerry(db: Db, workerConcurrency?: number): Promise<BenchApp> {
  const [{ buildApp }, { loadConfig }, { FileObjectStore }, { createPaymentVendors }, checks] =
    await Promise.all([
      built<typeof AppModule>('app.js'),
      built<typeof ConfigModule>('config.js'),
      built<typeof ObjectStoreModule>('infra/storage/file-object-store.js'),
      built<typeof VendorsModule>('infra/vendors/vendor-registry.js'),
      built<typeof ChecksModule>('accounts/account-checks.js'),
    ]);
  const config = loadConfig({
    DATA_DIR: '.tmp/bench-data',
    RATE_LIMIT_PER_SECOND: '1000000',
    ...(workerConcurrency ? { WORKER_CONCURRENCY: String(workerConcurrency) } : {}),
    LOG_LEVEL: 'silent',
  });
  // As `npm start` does: the checks compiled, their threads started, before the first request.
  checks.prepareAccountChecks(config.checkThreads);
  const documents = mkdtempSync(join(tmpdir(), 'ferry-bench-docs-'));
  const objectStore = new FileObjectStore(documents);
  const app = await buildApp(config, {
    db,
    objectStore,
    paymentVendors: createPaymentVendors(config),
    operatorKey: OPERATOR_KEY,
  });
  app.addHook('onClose', async () => {
    await objectStore.close();
    rmSync(documents, { recursive: true, force: true });
  });
  const { headers } = await tokenFor(app, [SUPPLIER, BIG_SUPPLIER]);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { app, config, base: `http://127.0.0.1:${port}`, headers };
}

/**
 * The baseline: a bare Fastify app in this same process with the two routes the comparisons
 * need (parse a body and answer {}; answer a constant JSON).
 */
export async function startBaseline(): Promise<{ app: FastifyInstance; base: string }> {
  const app = Fastify({ logger: false, bodyLimit: 5 * 1024 * 1024 });
  app.post('/parse/', async () => ({}));
  const constant = {
    status: 'PROCESSED',
    service_identifier: 'A-0000001',
    created_at: '2026-01-01T00:00:00.000Z',
    modified_at: '2026-01-01T00:00:00.000Z',
    latest_error: null,
    latest_event: {
      event: 'EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED',
      occurred_at: '2026-01-01T00:00:00.000Z',
    },
  };
  app.get('/constant/', async () => constant);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { app, base: `http://127.0.0.1:${port}` };
}
