/**
 * The statistics refresher's schedule: ANALYZE at the first claim (when asked), then after the
 * configured number of rows claimed, doubling with each refresh by count, and after the time
 * limit when anything was claimed; one at a time. The database here only records the calls: what
 * is under test is when they are made.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { statisticsRefresher } from '../../src/infra/db/analyze.ts';
import type { Queryable } from '../../src/infra/db/db.ts';

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
    assert.deepEqual(new Set(calls), new Set(['ANALYZE queue']));
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
});
