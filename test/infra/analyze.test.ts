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
const refresher = (db: Queryable, opts: { everyMs?: number; everyClaims?: number; atFirstClaim?: boolean }) =>
  statisticsRefresher(db, {
    table: 'queue',
    everyClaims: opts.everyClaims ?? 100,
    everyMs: opts.everyMs ?? 3_600_000,
    atFirstClaim: opts.atFirstClaim ?? true,
    logger,
    failureMessage: 'x',
  });
const settle = () => new Promise((r) => setImmediate(r));

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
    assert.deepEqual(new Set(calls), new Set(['ANALYZE (SKIP_LOCKED) queue']));
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

  it('skips its ANALYZE while another holds the table (another process analyzing it), instead of waiting', {
    skip: !usingPostgresServer() && 'needs a second connection: a PostgreSQL server',
  }, async () => {
    const t = await createTestDb({ poolSize: 3 });
    try {
      await t.db.exec('CREATE TABLE queue (id int)');
      let release = () => {};
      let locked = () => {};
      const isLocked = new Promise<void>((r) => {
        locked = r;
      });
      // The lock another ANALYZE (or autovacuum) holds while it runs, held by a transaction here.
      const holder = t.db.transaction(async (tx) => {
        await tx.query(sql('', 'LOCK TABLE queue IN SHARE UPDATE EXCLUSIVE MODE'));
        locked();
        await new Promise<void>((r) => {
          release = r;
        });
      });
      await isLocked;
      const r = refresher(t.db, {});
      r.claimed(1);
      const outcome = await Promise.race([
        r.pending!.then(() => 'done'),
        new Promise((res) => setTimeout(() => res('still waiting after 5 s'), 5_000)),
      ]);
      release();
      await holder;
      await r.pending;
      assert.equal(outcome, 'done');
    } finally {
      await t.cleanup();
    }
  });
});
