import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { sql } from '../../src/infra/db/db.ts';
import { openPgDb } from '../../src/infra/db/pg-db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { eventually } from '../helpers/db-faults.ts';
import { hostAndPort, type ProxiedConnection, startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { admin, buildTestAppOn, tokenFor } from '../helpers/test-app.ts';
import { createTestDb, type TestDb, usingPostgresServer } from '../helpers/test-db.ts';

const pendingList = (app: FastifyInstance, headers: Record<string, string>) =>
  app.inject({ method: 'GET', url: '/v1/data-import/pending-account-import-processes/ACME/', headers });

/** Polls with the key's token until the app refuses it; returns how long that took. */
async function msUntilRefused(app: FastifyInstance, headers: Record<string, string>, withinMs: number) {
  const started = Date.now();
  await eventually(
    async () => {
      const { statusCode } = await pendingList(app, headers);
      assert.ok(statusCode === 200 || statusCode === 401, `got ${statusCode}`);
      return statusCode === 401 ? true : undefined;
    },
    'the revoked key refused',
    withinMs,
    25,
  );
  return Date.now() - started;
}

/**
 * Cached API keys and suppliers are re-confirmed after at most CACHE_MAX_AGE_MS (30 s by
 * default), whatever the change feed says: a change whose notification never arrives still
 * takes effect within that.
 */
describe('cached keys and suppliers have a maximum age', () => {
  // Long enough that a loaded CI machine still sees the cached answer right after the change.
  const MAX_AGE_MS = 1_500;
  let tdb: TestDb;
  let app: FastifyInstance;
  before(async () => {
    tdb = await createTestDb();
    ({ app } = await buildTestAppOn(tdb.db, { CACHE_MAX_AGE_MS: String(MAX_AGE_MS) }));
    await admin(app, 'POST', '/import-suppliers/', { code: 'ACME' });
  });
  after(async () => {
    await app.close();
    await tdb.cleanup();
  });

  it('a key revoked without a notification is refused once its cache entry is CACHE_MAX_AGE_MS old', async () => {
    const { keyId, headers } = await tokenFor(app, ['ACME'], []);
    const cachedAt = Date.now();
    assert.equal((await pendingList(app, headers)).statusCode, 200);
    // A revoke that notifies nobody: only the maximum age can catch it.
    await tdb.db.query(sql('', 'UPDATE api_keys SET revoked_at = now() WHERE id = $1'), [keyId]);
    const stillCached = (await pendingList(app, headers)).statusCode;
    // Only meaningful while the entry is surely younger than its maximum age (CI may be slow).
    if (Date.now() - cachedAt < MAX_AGE_MS / 2) assert.equal(stillCached, 200, 'cached for now');
    await msUntilRefused(app, headers, 5_000);
    const age = Date.now() - cachedAt;
    assert.ok(age <= MAX_AGE_MS + 1_000, `refused ${age} ms after the key was cached`);
  });

  it('a supplier paused without a notification refuses new accounts once its entry is that old', async () => {
    const { headers } = await tokenFor(app, ['ACME'], []);
    let n = 0;
    const create = () =>
      app.inject({
        method: 'POST',
        url: '/v2/data-import/accounts/',
        headers,
        payload: accountFor('ACME', ++n),
      });
    assert.equal((await create()).statusCode, 201);
    await tdb.db.query(sql('', "UPDATE import_suppliers SET status = 'Paused' WHERE code = 'ACME'"));
    const res = await eventually(
      async () => {
        const r = await create();
        return r.statusCode === 400 ? r : undefined;
      },
      'the pause seen',
      3_000,
    );
    assert.equal(res.json().code, 'import_supplier_paused');
    await tdb.db.query(sql('', "UPDATE import_suppliers SET status = 'Ongoing' WHERE code = 'ACME'"));
  });
});

/**
 * The "Done when": a revoked key stops working on a second process even when that
 * process's LISTEN connection was silently cut (not closed). A TCP proxy sits between the
 * second process and PostgreSQL; the cut stops every byte of the LISTEN connection both ways
 * and closes nothing, so neither end hears of it and the revoke's NOTIFY is lost.
 */
describe('a revoked key stops working on a process whose LISTEN connection was silently cut', {
  skip:
    !usingPostgresServer() && 'needs DATABASE_URL (PGlite listens in-process: there is no connection to cut)',
}, () => {
  let tdb: TestDb;
  let here: FastifyInstance;
  let proxy: TcpProxy;
  const cleanups: (() => Promise<unknown>)[] = [];

  before(async () => {
    tdb = await createTestDb();
    ({ app: here } = await buildTestAppOn(tdb.db));
    await admin(here, 'POST', '/import-suppliers/', { code: 'ACME' });
    proxy = await startTcpProxy(hostAndPort(tdb.url!));
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  after(async () => {
    await proxy.close();
    await here.close();
    await tdb.cleanup();
  });

  /** A second API process, all of whose connections go through the proxy. */
  async function secondProcess(opts: { listenHeartbeatMs: number; cacheMaxAgeMs: number }) {
    const db = await openPgDb({
      connectionString: proxy.url(tdb.url!),
      max: 2,
      listenHeartbeatMs: opts.listenHeartbeatMs,
    });
    const { app } = await buildTestAppOn(db, { CACHE_MAX_AGE_MS: String(opts.cacheMaxAgeMs) });
    cleanups.push(
      () => db.close(),
      () => app.close(),
      async () => proxy.cutAll(),
    );
    return app;
  }

  /** The live proxied connection PostgreSQL knows as a LISTEN connection (application_name ferry-listen). */
  async function listenConnection(): Promise<ProxiedConnection> {
    return eventually(async () => {
      const { rows } = await tdb.db.query<{ port: number }>(
        sql('', "SELECT client_port AS port FROM pg_stat_activity WHERE application_name = 'ferry-listen'"),
      );
      const ports = new Set(rows.map((r) => r.port));
      // A stalled one is dead to the process (its backend lingers, as after a real partition).
      const mine = proxy.connections.filter((c) => !c.stalled && ports.has(c.upstreamPort));
      return mine.length === 1 ? mine[0] : undefined;
    }, 'the LISTEN connection through the proxy');
  }

  async function revokeAfterSilentCut(there: FastifyInstance) {
    const { keyId, headers } = await tokenFor(here, ['ACME'], []);
    for (let i = 0; i < 3; i++) assert.equal((await pendingList(there, headers)).statusCode, 200);
    (await listenConnection()).stall();
    await admin(here, 'DELETE', `/api-keys/${keyId}/`);
    assert.equal((await pendingList(here, headers)).statusCode, 401, 'the revoking process: at once');
    return headers;
  }

  it('the heartbeat finds the dead feed, empties the caches and listens again', async () => {
    // The maximum age is the default 30 s, far beyond the test: only the heartbeat can help.
    const there = await secondProcess({ listenHeartbeatMs: 200, cacheMaxAgeMs: 30_000 });
    const headers = await revokeAfterSilentCut(there);
    const took = await msUntilRefused(there, headers, 5_000);
    assert.ok(took < 2_000, `refused after ${took} ms`);
    // Listening again on a new connection: the next revoke is heard at its commit.
    const fresh = await listenConnection();
    assert.equal(fresh.stalled, false);
    const other = await tokenFor(here, ['ACME'], []);
    assert.equal((await pendingList(there, other.headers)).statusCode, 200);
    await admin(here, 'DELETE', `/api-keys/${other.keyId}/`);
    assert.ok((await msUntilRefused(there, other.headers, 2_000)) < 1_000);
  });

  it('with no heartbeat in time, the maximum age bounds how long the revoked key lives', async () => {
    const there = await secondProcess({ listenHeartbeatMs: 30_000, cacheMaxAgeMs: 500 });
    const headers = await revokeAfterSilentCut(there);
    const took = await msUntilRefused(there, headers, 5_000);
    assert.ok(took < 2_000, `refused after ${took} ms`);
  });
});
