import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { claimRateLimitTokens } from '../../src/http/rate-limit.queries.ts';
import {
  type ClaimTokens,
  LocalRateLimiter,
  type RateLimiter,
  rateLimiterFor,
  SharedRateLimiter,
} from '../../src/http/rate-limit.ts';
import { type Db, sql } from '../../src/infra/db/db.ts';
import { openPgDb } from '../../src/infra/db/pg-db.ts';
import { createFreshDb, createTestDb, type TestDb, usingPostgresServer } from '../helpers/test-db.ts';

/**
 * A shared bucket in memory on the test's clock, with rate_limit_claim's arithmetic (the function
 * itself is tested on the database below): what the fleet's processes share, minus PostgreSQL.
 */
function sharedBucket(rate: number, now: () => number) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const bucket = {
    claims: 0,
    down: false,
    claim: (async (key, wanted) => {
      bucket.claims++;
      if (bucket.down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      const t = now();
      const b = buckets.get(key) ?? { tokens: rate, at: t };
      const level = Math.min(rate, b.tokens + ((t - b.at) / 1000) * rate);
      const granted = Math.max(0, Math.min(wanted, Math.floor(level)));
      buckets.set(key, { tokens: level - granted, at: t });
      return { granted, waitMs: (Math.max(0, wanted - (level - granted)) / rate) * 1000 };
    }) as ClaimTokens,
  };
  return bucket;
}

/** Takes one token, waiting when the limiter must claim first; reports whether the request was allowed. */
async function allowed(limiter: RateLimiter, key = 'k'): Promise<boolean> {
  const wait = limiter.take(key);
  return (typeof wait === 'number' ? wait : await wait) === 0;
}

const logSink = () => {
  const lines: { level: string; event: unknown }[] = [];
  return {
    lines,
    warn: (obj: Record<string, unknown>) => lines.push({ level: 'warn', event: obj.event }),
    info: (obj: Record<string, unknown>) => lines.push({ level: 'info', event: obj.event }),
  };
};

describe('LocalRateLimiter', () => {
  it('allows a burst of one second, then the rate, and says how long to wait', () => {
    let now = 0;
    const limiter = new LocalRateLimiter(10, () => now);
    for (let i = 0; i < 10; i++) assert.equal(limiter.take('k'), 0);
    assert.equal(limiter.take('k'), 1);
    now += 100;
    assert.equal(limiter.take('k'), 0, 'one token a tenth of a second');
    assert.equal(limiter.take('k'), 1);
    assert.equal(limiter.take('other'), 0, 'keys are apart');
  });
});

describe('SharedRateLimiter (chunks of a shared bucket, on a test clock)', () => {
  it('claims a chunk and spends it from memory: one claim serves many requests', async () => {
    let now = 0;
    const bucket = sharedBucket(1_000, () => now);
    const limiter = new SharedRateLimiter({ ratePerSecond: 1_000, claim: bucket.claim, now: () => now });
    assert.equal(limiter.maxChunk, 50);
    const first = limiter.take('k');
    assert.ok(first instanceof Promise, 'the first request of a key waits for a claim');
    assert.equal(await first, 0);
    let sync = 0;
    for (let i = 0; i < 400; i++) {
      now += 1;
      const wait = limiter.take('k');
      if (typeof wait === 'number') sync++;
      assert.equal(typeof wait === 'number' ? wait : await wait, 0);
      await Promise.resolve();
    }
    assert.ok(sync >= 395, `${sync} of 400 answered from memory`);
    // At 1,000 requests/s a claim asks for a quarter second's worth, at most 50.
    assert.ok(bucket.claims <= 20, `${bucket.claims} claims for 401 requests`);
    await limiter.close();
  });

  it('two processes on one bucket admit the rate together, not twice it', async () => {
    let now = 0;
    const rate = 50;
    const bucket = sharedBucket(rate, () => now);
    const processes = [0, 1].map(
      () => new SharedRateLimiter({ ratePerSecond: rate, claim: bucket.claim, now: () => now }),
    );
    const accepted: number[] = [];
    // Each process is offered 500 requests a second (20× the rate between them) for 10 s.
    for (let ms = 0; ms < 10_000; ms++) {
      now = ms;
      for (const limiter of processes) if (await allowed(limiter)) accepted.push(ms);
    }
    const steady = accepted.filter((ms) => ms >= 1_000).length / 9;
    assert.ok(
      Math.abs(steady - rate) <= rate * 0.05,
      `${steady.toFixed(1)} accepted/s past the first second`,
    );
    // A key far over its limit costs claims per chunk, not per request.
    assert.ok(bucket.claims < 10 * 2 * 40, `${bucket.claims} claims for 10,000 requests`);
    for (const limiter of processes) await limiter.close();
  });

  it('refuses from memory with Retry-After while the shared bucket is short of a chunk', async () => {
    let now = 0;
    const bucket = sharedBucket(20, () => now);
    const limiter = new SharedRateLimiter({ ratePerSecond: 20, claim: bucket.claim, now: () => now });
    let accepted = 0;
    for (let i = 0; i < 40; i++) if (await allowed(limiter)) accepted++;
    assert.equal(accepted, 20, 'the burst: one second of tokens');
    const claims = bucket.claims;
    for (let i = 0; i < 100; i++) assert.equal(limiter.take('k'), 1, 'refused at once, 1 s to wait');
    assert.equal(bucket.claims, claims, 'no claim while the bucket is known to be empty');
    now += 50;
    assert.equal(await limiter.take('k'), 0, 'a token is due after 1/20 s');
    await limiter.close();
  });

  it('voids tokens held past the lease, so a quiet process cannot spend them with a full bucket', async () => {
    let now = 0;
    const bucket = sharedBucket(1_000, () => now);
    const limiter = new SharedRateLimiter({ ratePerSecond: 1_000, claim: bucket.claim, now: () => now });
    await allowed(limiter);
    for (let i = 0; i < 20; i++) {
      now += 2;
      await allowed(limiter);
    }
    assert.ok(limiter.held('k') > 0);
    now += 1_000;
    assert.equal(limiter.held('k'), 0);
    const claims = bucket.claims;
    assert.ok(
      limiter.take('k') instanceof Promise,
      'void tokens are not spent: the request waits for a claim',
    );
    assert.equal(bucket.claims, claims + 1);
    await limiter.close();
  });

  it('sends one claim at a time per key', async () => {
    const now = 0;
    const bucket = sharedBucket(100, () => now);
    const limiter = new SharedRateLimiter({ ratePerSecond: 100, claim: bucket.claim, now: () => now });
    const waits = Array.from({ length: 5 }, () => limiter.take('k'));
    assert.equal(bucket.claims, 1);
    assert.deepEqual(await Promise.all(waits), [0, 0, 0, 0, 0]);
    await limiter.close();
  });

  it('falls back to a local bucket when claims fail, logs it once, and returns to the shared one', async () => {
    let now = 0;
    const bucket = sharedBucket(10, () => now);
    const log = logSink();
    const limiter = new SharedRateLimiter({
      ratePerSecond: 10,
      claim: bucket.claim,
      now: () => now,
      logger: log,
    });
    bucket.down = true;
    let accepted = 0;
    for (let i = 0; i < 30; i++) if (await allowed(limiter)) accepted++;
    assert.ok(limiter.degraded);
    assert.equal(accepted, 10, 'the local bucket limits this process alone, not everything refused');
    assert.equal(bucket.claims, 1, 'no claim per request while it is down');
    bucket.down = false;
    now += 1_000;
    assert.equal(limiter.take('k'), 0, 'answered locally while the probe runs');
    await new Promise((r) => setImmediate(r));
    assert.ok(!limiter.degraded, 'the probe succeeded');
    assert.deepEqual(log.lines, [
      { level: 'warn', event: 'rate_limit_local' },
      { level: 'info', event: 'rate_limit_shared' },
    ]);
    await limiter.close();
  });

  it('a slow claim sent ahead of need is no outage while the process still holds tokens', async () => {
    let now = 0;
    const bucket = sharedBucket(1_000, () => now);
    let slow = false;
    const log = logSink();
    const limiter = new SharedRateLimiter({
      ratePerSecond: 1_000,
      claimWaitMs: 20,
      now: () => now,
      logger: log,
      claim: async (key, wanted) => {
        if (slow) await new Promise((r) => setTimeout(r, 100));
        return bucket.claim(key, wanted);
      },
    });
    for (let i = 0; i < 30; i++) {
      now += 1;
      await allowed(limiter);
    }
    await new Promise((r) => setImmediate(r));
    slow = true;
    const claims = bucket.claims;
    while (limiter.held('k') > 3) {
      now += 1;
      assert.equal(limiter.take('k'), 0, 'answered from memory');
    }
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(bucket.claims, claims + 1, 'the next chunk was claimed ahead of need');
    assert.deepEqual(log.lines, [], 'no fallback to the local bucket, not even for a moment');
    assert.ok(limiter.held('k') > 3, 'and landed');
    await limiter.close();
  });

  it('a claim with no answer within claimWaitMs lets the local bucket answer the waiting request', async () => {
    let release = () => {};
    const limiter = new SharedRateLimiter({
      ratePerSecond: 10,
      claimWaitMs: 20,
      // A statement the database does not answer (its socket, like this timer, keeps the process up).
      claim: () =>
        new Promise((resolve) => {
          const stalled = setTimeout(() => resolve({ granted: 0, waitMs: 0 }), 10_000);
          release = () => {
            clearTimeout(stalled);
            resolve({ granted: 1, waitMs: 0 });
          };
        }),
    });
    const started = performance.now();
    assert.equal(await limiter.take('k'), 0);
    assert.ok(performance.now() - started < 1_000);
    assert.ok(limiter.degraded);
    release();
    await limiter.close();
    assert.ok(!limiter.degraded, 'the late answer ends the fallback');
  });
});

describe('rate_limit_claim (the shared bucket in PostgreSQL)', () => {
  let tdb: TestDb;
  before(async () => {
    tdb = await createTestDb();
  });
  after(() => tdb.cleanup());

  it('starts full, grants up to what is asked, and says when a chunk is there again', async () => {
    const claim = (wanted: number) => claimRateLimitTokens(tdb.db, { key: 'a', rate: 10, wanted });
    assert.deepEqual(await claim(4), { granted: 4, waitMs: 0 });
    assert.equal((await claim(4)).granted, 4);
    const short = await claim(4);
    assert.equal(short.granted, 2);
    // About 0.4 s until 4 tokens again (a little less: time passed since the bucket was made).
    assert.ok(short.waitMs > 300 && short.waitMs <= 400, String(short.waitMs));
    assert.equal((await claim(4)).granted, 0);
    await new Promise((r) => setTimeout(r, 220));
    const refilled = (await claim(4)).granted;
    assert.ok(refilled >= 2, `refilled at the rate: ${refilled} granted after 0.22 s`);
  });

  it('refills no further than the burst', async () => {
    const claim = (wanted: number) => claimRateLimitTokens(tdb.db, { key: 'b', rate: 1_000, wanted });
    assert.equal((await claim(1_000)).granted, 1_000);
    await tdb.db.query(
      sql('', "UPDATE rate_limit_buckets SET refilled_at = refilled_at - interval '1 hour' WHERE key = 'b'"),
    );
    assert.equal((await claim(5_000)).granted, 1_000);
  });

  it('uses the local bucket on the embedded database and the shared one on a server', async () => {
    const limiter = rateLimiterFor(tdb.db, 10);
    assert.ok(limiter instanceof (tdb.db.kind === 'pglite' ? LocalRateLimiter : SharedRateLimiter));
    await limiter.close();
  });
});

describe('the shared limiter without its database', () => {
  it('limits each process alone when the server cannot be reached, rather than refusing everything', async () => {
    // A server nobody listens for: every claim fails at once (ECONNREFUSED).
    const db = await openPgDb({
      connectionString: 'postgres://postgres@127.0.0.1:1/nowhere',
      connectionTimeoutMs: 1_000,
    });
    const log = logSink();
    const limiter = rateLimiterFor(db, 5, log);
    let accepted = 0;
    for (let i = 0; i < 10; i++) if (await allowed(limiter)) accepted++;
    assert.equal(accepted, 5);
    assert.deepEqual(log.lines, [{ level: 'warn', event: 'rate_limit_local' }]);
    await limiter.close();
    await db.close();
  });
});

describe('rate_limit_claim from two connections at once', {
  skip: !usingPostgresServer() && 'needs DATABASE_URL (a PostgreSQL server)',
}, () => {
  let fresh: Awaited<ReturnType<typeof createFreshDb>>;
  let second: Db;
  before(async () => {
    fresh = await createFreshDb({ url: process.env.DATABASE_URL, schemaPrefix: 'rate_limit' });
    second = await openPgDb({ connectionString: process.env.DATABASE_URL!, schema: fresh.schema, max: 5 });
  });
  after(async () => {
    await second.close();
    await fresh.cleanup();
  });

  it('never grants more than the bucket holds, however many claim together', async () => {
    const started = performance.now();
    const claims = Array.from({ length: 40 }, (_, i) =>
      claimRateLimitTokens(i % 2 ? fresh.db : second, { key: 'c', rate: 100, wanted: 5 }),
    );
    const granted = (await Promise.all(claims)).reduce((n, c) => n + c.granted, 0);
    // 100 to start with, and what the time the claims took adds (100 a second; a busy machine is slow).
    const refilled = Math.ceil(((performance.now() - started) / 1000) * 100);
    assert.ok(granted >= 100 && granted <= 100 + refilled, `${granted} granted, ${refilled} refilled`);
  });
});
