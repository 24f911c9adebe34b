/**
 * The statistics refresher's schedule: ANALYZE at the first claim (when asked), then after the
 * configured number of rows claimed, doubling with each refresh by count, and after the time
 * limit when anything was claimed; one at a time. The database here only records the calls: what
 * is under test is when they are made. On a PostgreSQL server, the last test runs the ANALYZE for
 * real: it does not wait for another one of the same table.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { statisticsRefresher } from '../../src/infra/db/analyze.ts';
import { type Queryable, sql } from '../../src/infra/db/db.ts';
import { createTestDb, usingPostgresServer } from '../helpers/test-db.ts';

function recorder() {
  const calls: string[] = [];
  const db = {
    async exec(script: string) {
      calls.push(script);
    },
  } as unknown as Queryable;
  return { db, calls };
}
const logger = { warn() {} };
/** A refresher of table `queue` after 100 rows claimed, unless the test says otherwise. */
const refresher = (
  db: Queryable,
  opts: { everyMs?: number; everyClaims?: number; atFirstClaim?: boolean; warned?: unknown[] },
) =>
  statisticsRefresher(db, {
    table: 'queue',
    everyClaims: opts.everyClaims ?? 100,
    everyMs: opts.everyMs ?? 3_600_000,
    atFirstClaim: opts.atFirstClaim ?? true,
    logger: opts.warned ? { warn: (o) => opts.warned?.push(o) } : logger,
    failureMessage: 'x',
  });
const settle = () => new Promise((r) => setImmediate(r));
const ANALYZE = "SET LOCAL lock_timeout = '100ms'; ANALYZE queue";

describe('statistics refresher', () => {
  it('refreshes at the first claim, then after 100, 200, 400 rows claimed', async () => {
    const { db, calls } = recorder();
    const r = refresher(db, {});
    const at: number[] = [];
    let claimed = 0;
    for (let i = 0; i < 800; i += 10) {
      const before = calls.length;
      r.claimed(10);
      claimed += 10;
      await settle();
      if (calls.length > before) at.push(claimed);
    }
    assert.deepEqual(at, [10, 110, 310, 710]);
    assert.deepEqual(new Set(calls), new Set([ANALYZE]));
  });

  it('refreshes after the time limit when rows were claimed, without doubling the count', async () => {
    const { db, calls } = recorder();
    const r = refresher(db, { everyMs: 30, atFirstClaim: false });
    r.claimed(1);
    assert.equal(calls.length, 0, 'the clock started at creation');
    await new Promise((r) => setTimeout(r, 40));
    r.claimed(1);
    await settle();
    assert.equal(calls.length, 1, 'by time');
    r.claimed(100);
    await settle();
    assert.equal(calls.length, 2, 'by count: still 100, the time refresh did not double it');
  });

  it('starts no second ANALYZE while one is running', async () => {
    let release = () => {};
    const calls: string[] = [];
    const db = {
      exec(script: string) {
        calls.push(script);
        return new Promise<void>((r) => {
          release = r;
        });
      },
    } as unknown as Queryable;
    const r = refresher(db, { everyClaims: 1 });
    r.claimed(5);
    r.claimed(5);
    assert.equal(calls.length, 1);
    release();
    await r.pending;
    r.claimed(5);
    assert.equal(calls.length, 2);
  });

  it('gives up on the lock after 100 ms without counting it a refresh, and tries again after a second', async () => {
    const calls: string[] = [];
    const warned: unknown[] = [];
    let busy = true;
    const db = {
      async exec(script: string) {
        calls.push(script);
        if (busy)
          throw Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' });
      },
    } as unknown as Queryable;
    const r = refresher(db, { atFirstClaim: false, warned });
    r.claimed(100);
    await r.pending;
    assert.equal(calls.length, 1);
    r.claimed(1);
    assert.equal(calls.length, 1, 'not again within a second');
    await new Promise((res) => setTimeout(res, 1_050));
    busy = false;
    r.claimed(1);
    await r.pending;
    assert.equal(calls.length, 2, 'the 101 rows claimed still count');
    r.claimed(150);
    await r.pending;
    assert.equal(calls.length, 2, 'the count doubled only after the ANALYZE that ran: 200 now');
    r.claimed(50);
    await r.pending;
    assert.equal(calls.length, 3);
    assert.deepEqual(warned, [], 'a lock given up is not a failure');
  });

  it('does not queue behind another process holding the table, and refreshes once it is free', {
    skip: !usingPostgresServer() && 'needs a second connection: a PostgreSQL server',
  }, async () => {
    const t = await createTestDb({ poolSize: 3 });
    const warned: unknown[] = [];
    let release = () => {};
    let holder: Promise<void> | null = null;
    try {
      await t.db.exec('CREATE TABLE queue (id int)');
      const reltuples = async () =>
        (
          await t.db.query<{ n: number }>(
            sql('', `SELECT reltuples::int AS n FROM pg_class WHERE relname = 'queue'`),
          )
        ).rows[0].n;
      assert.equal(await reltuples(), -1, 'never analyzed');
      const locked = new Promise<void>((isLocked) => {
        // The lock an ANALYZE, a VACUUM or an index build holds, held by a transaction here.
        holder = t.db.transaction(async (tx) => {
          await tx.query(sql('', 'LOCK TABLE queue IN SHARE UPDATE EXCLUSIVE MODE'));
          isLocked();
          await new Promise<void>((r) => {
            release = r;
          });
        });
      });
      await locked;
      const r = refresher(t.db, { everyClaims: 1, warned });
      r.claimed(1);
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        r.pending!.then(() => 'gave up'),
        new Promise((res) => {
          timer = setTimeout(() => res('still waiting after 5 s'), 5_000);
        }),
      ]);
      clearTimeout(timer);
      assert.equal(outcome, 'gave up');
      assert.equal(await reltuples(), -1, 'not analyzed while the table was held');
      release();
      await holder;
      holder = null;
      await new Promise((res) => setTimeout(res, 1_050));
      r.claimed(1);
      await r.pending;
      assert.equal(await reltuples(), 0, 'analyzed once the table was free');
      assert.deepEqual(warned, []);
    } finally {
      release();
      await holder;
      await t.cleanup();
    }
  });
});
