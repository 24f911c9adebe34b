import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/infra/db/db.ts';
import { openPgDb } from '../../src/infra/db/pg-db.ts';
import { admin, buildTestAppOn, tokenFor } from '../helpers/test-app.ts';
import { createFreshDb, usingPostgresServer } from '../helpers/test-db.ts';

const RATE = 50;

/**
 * Two API processes as the fleet has them: two apps, each on its own pool of one database, nothing
 * else shared. One key limited to 50/s polls both as fast as it can.
 */
describe('the per-key rate limit holds for the fleet', {
  skip: !usingPostgresServer() && 'needs DATABASE_URL (a PostgreSQL server; the embedded one is one process)',
}, () => {
  let fresh: Awaited<ReturnType<typeof createFreshDb>>;
  let secondDb: Db;
  let apps: FastifyInstance[];
  let headers: Record<string, string>;
  before(async () => {
    fresh = await createFreshDb({ url: process.env.DATABASE_URL, schemaPrefix: 'fleet_rate' });
    secondDb = await openPgDb({ connectionString: process.env.DATABASE_URL!, schema: fresh.schema, max: 5 });
    const env = { RATE_LIMIT_PER_SECOND: String(RATE) };
    apps = [(await buildTestAppOn(fresh.db, env)).app, (await buildTestAppOn(secondDb, env)).app];
    await admin(apps[0], 'POST', '/import-suppliers/', { code: 'FLEET' });
    ({ headers } = await tokenFor(apps[0], ['FLEET'], []));
  });
  after(async () => {
    for (const app of apps) await app.close();
    await secondDb.close();
    await fresh.cleanup();
  });

  it(`a key limited to ${RATE}/s gets ${RATE}/s across two API processes, not ${2 * RATE}`, async (t) => {
    const MEASURE_MS = 3_000;
    // Counted from a second after the first refusal: by then the bucket's burst (a second's worth)
    // is spent and the tokens the processes held have expired, however slowly a busy machine began.
    const SETTLE_MS = 1_000;
    const started = performance.now();
    const accepted: { i: number; at: number }[] = [];
    let firstRefusal: number | null = null;
    let refused = 0;
    const measuredUntil = () =>
      firstRefusal === null ? Number.POSITIVE_INFINITY : firstRefusal + SETTLE_MS + MEASURE_MS;
    const poll = async (i: number) => {
      for (;;) {
        const at = performance.now() - started;
        if (at >= measuredUntil() || at >= 30_000) return;
        const res = await apps[i].inject({ method: 'GET', url: '/v2/data-import/suppliers/FLEET/', headers });
        const done = performance.now() - started;
        // A refusal is answered without I/O: without this turn of the event loop, pollers answered
        // from memory would starve those waiting on the database (real sockets take turns too).
        await new Promise((r) => setImmediate(r));
        if (res.statusCode === 429) {
          refused++;
          firstRefusal ??= done;
          assert.equal(res.json().code, 'throttled');
          assert.match(String(res.headers['retry-after']), /^[1-9]\d*$/);
        } else {
          assert.equal(res.statusCode, 200, res.body);
          accepted.push({ i, at: done });
        }
      }
    };
    // Four connections on each process.
    await Promise.all([0, 0, 0, 0, 1, 1, 1, 1].map(poll));
    assert.ok(firstRefusal !== null, 'the key was refused');
    const from = firstRefusal + SETTLE_MS;
    const inWindow = accepted.filter((a) => a.at >= from && a.at < from + MEASURE_MS);
    const per = [0, 1].map((i) => inWindow.filter((a) => a.i === i).length);
    const rate = inWindow.length / (MEASURE_MS / 1000);
    const detail = `${rate.toFixed(1)} accepted/s (${per.join(' + ')} in ${MEASURE_MS / 1000} s, ${refused} refused)`;
    t.diagnostic(detail);
    assert.ok(refused > 10 * RATE, `the key was offered far more than its limit: ${detail}`);
    assert.ok(Math.abs(rate - RATE) <= RATE * 0.1, detail);
  });
});
