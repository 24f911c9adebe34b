import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { type Db, sql } from '../../src/infra/db/db.ts';
import { openDb } from '../../src/infra/db/open-db.ts';
import { openPgDb } from '../../src/infra/db/pg-db.ts';
import { holdTableLock } from '../helpers/db-faults.ts';
import { hostAndPort, startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { admin, adminHeaders, buildTestAppOn } from '../helpers/test-app.ts';
import { createTestDb, type TestDb, usingPostgresServer } from '../helpers/test-db.ts';

const getSupplier = (app: FastifyInstance) =>
  app.inject({ method: 'GET', url: '/admin/v1/import-suppliers/STALL/', headers: adminHeaders });

function assertUnavailable(res: LightMyRequestResponse) {
  assert.equal(res.statusCode, 503, res.body);
  assert.equal(res.json().code, 'service_unavailable');
  assert.equal(typeof res.json().detail, 'string');
  assert.ok(Number(res.headers['retry-after']) > 0, 'Retry-After');
}

/**
 * docs/product.md, "Database stalls" and "Limits": a pool checkout timeout, a statement timeout
 * and a database that stops answering are 503 service_unavailable with Retry-After, never 500,
 * and never a request held past REQUEST_TIMEOUT_MS. PGlite has one in-process connection and
 * nothing to stall, so these run in the DATABASE_URL suite.
 */
describe('database stalls answer 503 service_unavailable', {
  skip: !usingPostgresServer() && 'needs DATABASE_URL (a PostgreSQL server)',
}, () => {
  let tdb: TestDb;
  let url: string;
  const cleanups: (() => Promise<unknown>)[] = [];

  before(async () => {
    tdb = await createTestDb();
    url = tdb.url!;
    const { app } = await buildTestAppOn(tdb.db);
    await admin(app, 'POST', '/import-suppliers/', { code: 'STALL' });
    await app.close();
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  after(() => tdb?.cleanup());

  /** The app on its own pool; everything is closed after the test. */
  async function appOn(db: Db, env: Record<string, string> = {}) {
    const { app } = await buildTestAppOn(db, env);
    cleanups.push(
      () => db.close(),
      () => app.close(),
    );
    return app;
  }

  /** Holds a table lock from the test's own pool until the returned function (or the test's end). */
  async function lockTable(table: string): Promise<() => Promise<void>> {
    const unlock = await holdTableLock(tdb.db, table);
    let unlocked: Promise<void> | undefined;
    const once = () => (unlocked ??= unlock());
    cleanups.push(once);
    return once;
  }

  it('a pool checkout timeout (every connection busy) is 503, not 500', async () => {
    const db = await openPgDb({ connectionString: url, max: 1, connectionTimeoutMs: 200 });
    const app = await appOn(db);
    assert.equal((await getSupplier(app)).statusCode, 200);
    // Hold the pool's only connection.
    let release!: () => void;
    let holding!: () => void;
    const isHeld = new Promise<void>((r) => (holding = r));
    const held = db.transaction(async () => {
      holding();
      await new Promise<void>((r) => (release = r));
    });
    await isHeld;
    try {
      assertUnavailable(await getSupplier(app));
    } finally {
      release();
      await held;
    }
    assert.equal((await getSupplier(app)).statusCode, 200, 'and recovers with the connection back');
  });

  it('REQUEST_TIMEOUT_MS is the statement_timeout of every pooled connection', async () => {
    const db = await openDb(
      loadConfig({ DATA_DIR: '.tmp/test-data', DATABASE_URL: url, REQUEST_TIMEOUT_MS: '750' }),
    );
    cleanups.push(() => db.close());
    const shown = await db.query<{ statement_timeout: string }>(sql('', 'SHOW statement_timeout'));
    assert.equal(shown.rows[0].statement_timeout, '750ms');
    await assert.rejects(db.query(sql('', 'SELECT pg_sleep(3)')), { code: '57014' });
    assert.deepEqual((await db.query(sql('', 'SELECT 1 AS ok'))).rows, [{ ok: 1 }], 'the pool is fine after');
  });

  it('a statement timeout (a locked row) is 503 as soon as the database cancels it', async () => {
    // The handler timeout is far off: the 503 comes from the database's cancel.
    const db = await openPgDb({ connectionString: url, statementTimeoutMs: 300 });
    const app = await appOn(db, { REQUEST_TIMEOUT_MS: '10000' });
    assert.equal((await getSupplier(app)).statusCode, 200);
    const unlock = await lockTable('import_suppliers');
    const started = Date.now();
    const res = await getSupplier(app);
    const took = Date.now() - started;
    await unlock();
    assertUnavailable(res);
    assert.ok(took < 3_000, `answered after ${took} ms`);
    assert.equal((await getSupplier(app)).statusCode, 200);
  });

  describe('a database that stops answering (a silent network stall)', () => {
    let proxy: TcpProxy;
    before(async () => {
      proxy = await startTcpProxy(hostAndPort(url));
    });
    after(() => proxy.close());

    it('is 503 within REQUEST_TIMEOUT_MS, and the service recovers by itself', async () => {
      const timeoutMs = 400;
      const config = loadConfig({
        DATA_DIR: '.tmp/test-data',
        DATABASE_URL: proxy.url(url),
        REQUEST_TIMEOUT_MS: String(timeoutMs),
      });
      const db = await openDb(config);
      const app = await appOn(db, { REQUEST_TIMEOUT_MS: String(timeoutMs) });
      cleanups.push(async () => proxy.cutAll()); // runs first: nothing waits on a dead socket
      assert.equal((await getSupplier(app)).statusCode, 200);

      proxy.stallAll();
      proxy.mode = 'stall';
      const started = Date.now();
      const res = await getSupplier(app);
      const took = Date.now() - started;
      assertUnavailable(res);
      assert.ok(took >= timeoutMs - 50 && took < timeoutMs + 1_000, `answered after ${took} ms`);

      proxy.mode = 'forward';
      const until = Date.now() + 15_000;
      let status = 0;
      while (status !== 200 && Date.now() < until) {
        status = (await getSupplier(app)).statusCode;
        assert.ok(status === 200 || status === 503, `only 503 while it recovers, got ${status}`);
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(status, 200, 'recovered without a restart');
    });
  });
});
