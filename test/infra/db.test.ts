import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  isDbUnavailableError,
  isTemporaryDbError,
  isTransientDbError,
  sql,
  withTransientRetry,
} from '../../src/infra/db/db.ts';
import { migrate } from '../../src/infra/db/migrate.ts';
import { createTestDb, type TestDb } from '../helpers/test-db.ts';

describe('database layer', () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(() => t.cleanup());

  it('migrates once: a second run applies nothing', async () => {
    assert.deepEqual(await migrate(t.db), []);
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await t.db.transaction((tx) =>
      tx.query(sql('', "INSERT INTO import_suppliers (code, document_root) VALUES ('TX1', lower('TX1'))")),
    );
    await assert.rejects(
      t.db.transaction(async (tx) => {
        await tx.query(
          sql('', "INSERT INTO import_suppliers (code, document_root) VALUES ('TX2', lower('TX2'))"),
        );
        throw new Error('stop');
      }),
      /stop/,
    );
    const { rows } = await t.db.query<{ code: string }>(
      sql('', "SELECT code FROM import_suppliers WHERE code LIKE 'TX%' ORDER BY code"),
    );
    assert.deepEqual(
      rows.map((r) => r.code),
      ['TX1'],
    );
  });

  it('reports affected rows for DML and returned rows for SELECT', async () => {
    const upd = await t.db.query(sql('', "UPDATE import_suppliers SET status = 'Paused' WHERE code = 'TX1'"));
    assert.equal(upd.rowCount, 1);
    const sel = await t.db.query(sql('', "SELECT code FROM import_suppliers WHERE code = 'TX1' FOR UPDATE"));
    assert.equal(sel.rowCount, 1);
  });

  it('retries serialization failures and deadlocks, then gives up; other errors are not retried', async () => {
    let calls = 0;
    const result = await withTransientRetry(async () => {
      calls++;
      if (calls < 3)
        throw Object.assign(new Error('could not serialize'), { code: calls === 1 ? '40001' : '40P01' });
      return 'done';
    });
    assert.equal(result, 'done');
    assert.equal(calls, 3);
    calls = 0;
    await assert.rejects(
      withTransientRetry(async () => {
        calls++;
        throw Object.assign(new Error('deadlock'), { code: '40P01' });
      }, 3),
      /deadlock/,
    );
    assert.equal(calls, 3);
    calls = 0;
    await assert.rejects(
      withTransientRetry(async () => {
        calls++;
        throw Object.assign(new Error('unique'), { code: '23505' });
      }),
      /unique/,
    );
    assert.equal(calls, 1);
  });

  it('classifies transient and unavailable errors', () => {
    assert.ok(isTransientDbError({ code: '40001' }));
    assert.ok(!isTransientDbError({ code: '23505' }));
    assert.ok(isDbUnavailableError({ code: 'ECONNREFUSED' }));
    assert.ok(isDbUnavailableError({ code: '57P01' }));
    assert.ok(isDbUnavailableError(new Error('Connection terminated unexpectedly')));
    assert.ok(!isDbUnavailableError(new Error('syntax error')));
    // Database stalls (docs/product.md): pool checkout timeout, statement timeout, lost connection.
    assert.ok(isDbUnavailableError(new Error('timeout exceeded when trying to connect')));
    assert.ok(isDbUnavailableError(new Error('Connection terminated due to connection timeout')));
    assert.ok(isDbUnavailableError(new Error('Query read timeout')));
    assert.ok(
      isDbUnavailableError(
        Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      ),
    );
    assert.ok(isDbUnavailableError({ code: 'ECONNRESET' }));
    for (const code of ['08000', '08003', '08006', '08P01', '57P01', '57P02', '57P03'])
      assert.ok(isDbUnavailableError({ code }), code);
    // About the data, so never "retry later".
    for (const code of ['23505', '22P05', '22021', '42P01'])
      assert.ok(!isDbUnavailableError({ code }) && !isTemporaryDbError({ code }), code);
    for (const code of ['40001', '40P01', '53200', '53100', '58030', '55P03', '57014'])
      assert.ok(isTemporaryDbError({ code }), code);
  });

  it('delivers NOTIFY to a listener at commit, not before, and stops after unsubscribing', async () => {
    const channel = `test_${randomBytes(4).toString('hex')}`;
    const got: string[] = [];
    const live: boolean[] = [];
    const stop = await t.db.listen(channel, { onMessage: (m) => got.push(m), onLive: (l) => live.push(l) });
    assert.deepEqual(live, [true]);
    await t.db.transaction(async (tx) => {
      await tx.query(sql('', 'SELECT pg_notify($1, $2)'), [channel, 'one']);
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(got, [], 'not delivered before commit');
    });
    await waitFor(() => got.length === 1);
    assert.deepEqual(got, ['one']);
    await stop();
    await t.db.query(sql('', 'SELECT pg_notify($1, $2)'), [channel, 'two']);
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(got, ['one']);
  });

  it('tells a listener when its server connection drops, and listens again after', async (ctx) => {
    if (t.db.kind !== 'postgres')
      return ctx.skip('PGlite listens in-process; there is no connection to lose');
    const channel = `test_${randomBytes(4).toString('hex')}`;
    const got: string[] = [];
    const live: boolean[] = [];
    const stop = await t.db.listen(channel, { onMessage: (m) => got.push(m), onLive: (l) => live.push(l) });
    try {
      const killed = await t.db.query(
        sql('', 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1'),
        [`LISTEN ${channel}`],
      );
      assert.equal(killed.rowCount, 1);
      await waitFor(() => live.length === 3, 10_000);
      assert.deepEqual(live, [true, false, true]);
      await t.db.query(sql('', 'SELECT pg_notify($1, $2)'), [channel, 'after']);
      await waitFor(() => got.length === 1);
      assert.deepEqual(got, ['after']);
    } finally {
      await stop();
    }
  });
});

async function waitFor(ok: () => boolean, ms = 5_000) {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
