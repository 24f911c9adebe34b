/**
 * The webhooks' Done-when (decision 0072): a receiver on a loopback port gets every event of a
 * 2,000-account push while a worker process delivering webhooks is SIGKILLed three times and the
 * receiver answers 500 to a tenth of the requests (random, seeded). Every event of the supplier's
 * feed is delivered at least once, each account's events arrive in the feed's order, and every
 * signature is valid. Needs a server (PGlite cannot be shared between processes), so it runs in
 * the DATABASE_URL suite.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { FeedEvent } from '../../src/events/event-feed.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { admin, buildTestAppOn, tokenFor } from '../helpers/test-app.ts';
import { createTestDb, type TestDb, usingPostgresServer } from '../helpers/test-db.ts';
import {
  deliveredIds,
  eventually,
  type Receiver,
  signatureValid,
  startReceiver,
  wholeFeed,
} from './webhooks-helpers.ts';

const SUPPLIER = 'PUSHED';
const ACCOUNTS = 2_000;
const FAILURE_SHARE = 0.1;

/** mulberry32: the receiver's failures are random, but the same on every run. */
function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('webhooks while a worker process delivering them is killed', {
  skip: !usingPostgresServer() && 'needs DATABASE_URL (a PostgreSQL server)',
}, () => {
  let tdb: TestDb;
  let app: FastifyInstance;
  let receiver: Receiver;
  let secret: string;
  let headers: Record<string, string>;
  const children = new Set<ChildProcess>();
  const random = seeded(20_261_126);

  before(async () => {
    tdb = await createTestDb();
    ({ app } = await buildTestAppOn(tdb.db, { RATE_LIMIT_PER_SECOND: '100000' }));
    receiver = await startReceiver(() => (random() < FAILURE_SHARE ? 500 : 200));
    ({ headers } = await tokenFor(app, [SUPPLIER]));
    const ep = await admin<{ secret: string }>(app, 'POST', '/webhook-endpoints/', {
      url: `${receiver.url}/ferry`,
      import_suppliers: [SUPPLIER],
    });
    secret = ep.secret;
  });
  after(async () => {
    for (const c of children) c.kill('SIGKILL');
    await receiver?.close();
    await app?.close();
    await tdb?.cleanup();
  });

  function spawnWorker(): ChildProcess {
    const child = spawn(process.execPath, ['bin/ferry.js', 'worker'], {
      env: {
        ...process.env,
        DATABASE_URL: tdb.url,
        WEBHOOK_LEASE_SECONDS: '2',
        WEBHOOK_POLL_MS: '50',
        WORKER_LEASE_SECONDS: '3',
        WORKER_CONCURRENCY: '50',
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.add(child);
    child.on('exit', () => children.delete(child));
    return child;
  }

  const unfinished = async () =>
    (
      await tdb.db.query<{ n: number }>(
        sql('', "SELECT count(*)::int AS n FROM import_processes WHERE status <> 'PROCESSED'"),
      )
    ).rows[0].n;

  it('delivers every event at least once, in order per process, each signed', async () => {
    const started = Date.now();
    const steady = spawnWorker();
    let victim = spawnWorker();
    for (let i = 0; i < ACCOUNTS; i += 1000) {
      const accounts = Array.from({ length: 1000 }, (_, j) => accountFor(SUPPLIER, i + j + 1));
      const res = await app.inject({
        method: 'POST',
        url: '/v2/data-import/accounts/bulk/',
        headers,
        payload: accounts,
      });
      assert.equal(res.statusCode, 200, res.body);
    }

    const delivered = () => deliveredIds(receiver);
    const kills: number[] = [];
    const deadline = Date.now() + 100_000;
    let events: FeedEvent[] = [];
    for (;;) {
      await new Promise((r) => setTimeout(r, 200));
      const got = delivered().size;
      // Kill the victim at about 1,200, 2,800 and 4,400 events delivered (of about 6,000).
      const next = [1_200, 2_800, 4_400][kills.length];
      if (next !== undefined && got >= next) {
        victim.kill('SIGKILL');
        kills.push(got);
        await new Promise((r) => victim.once('exit', r));
        victim = spawnWorker();
      }
      if (kills.length === 3 && (await unfinished()) === 0) {
        events = await wholeFeed(tdb.db, SUPPLIER);
        const now = delivered();
        if (events.every((e) => now.has(e.id))) break;
      }
      assert.ok(Date.now() < deadline, `${got} events delivered after 100 s; kills at ${kills.join(', ')}`);
    }
    steady.kill('SIGTERM');
    victim.kill('SIGTERM');
    const seconds = Math.round((Date.now() - started) / 1000);

    // Every event of the feed: 2,000 accounts created, started, processed once each; the processes
    // a killed worker held come back to the queue when its lease runs out (created and started again).
    const count = (type: string) => events.filter((e) => e.type === type).length;
    assert.equal(count('EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED'), ACCOUNTS);
    assert.ok(count('EVENT_ACCOUNT_IMPORT_PROCESS_CREATED') >= ACCOUNTS);
    assert.ok(count('EVENT_ACCOUNT_IMPORT_PROCESS_STARTED') >= ACCOUNTS);
    const byId = new Map(events.map((e) => [e.id, e]));
    const posts = receiver.received;
    const failed = posts.filter((r) => r.status === 500).length;
    const duplicates = posts.filter((r) => r.status === 200).length - byId.size;
    console.log(
      `${posts.length} POSTs in ${seconds} s for ${byId.size} events: ${failed} answered 500, ${duplicates} delivered twice; worker killed at ${kills.join(', ')} delivered`,
    );
    assert.ok(failed > posts.length * 0.05, `${failed} failures of ${posts.length}`);

    // Each POST: a valid signature, its event's id in Ferry-Event-Id, the feed's event as body.
    for (const p of posts) {
      assert.ok(signatureValid(secret, p.headers['ferry-signature'], p.body), p.body);
      const body = JSON.parse(p.body) as FeedEvent;
      assert.equal(p.headers['ferry-event-id'], body.id);
      assert.deepEqual(body, byId.get(body.id));
    }

    // In order per process: each account's events first arrive in the feed's order, whether
    // counting every arrival or only the delivered ones.
    const order = (list: FeedEvent[]) => {
      const per = new Map<string, string[]>();
      for (const e of list) {
        const seen = per.get(e.external_account_number ?? '') ?? [];
        if (!seen.includes(e.id)) seen.push(e.id);
        per.set(e.external_account_number ?? '', seen);
      }
      return per;
    };
    const expected = order(events);
    const arrived = order(posts.map((p) => JSON.parse(p.body)));
    const acknowledged = order(posts.filter((p) => p.status === 200).map((p) => JSON.parse(p.body)));
    assert.equal(expected.size, ACCOUNTS);
    for (const [account, ids] of expected) {
      assert.deepEqual(arrived.get(account), ids, account);
      assert.deepEqual(acknowledged.get(account), ids, account);
    }

    // And the table agrees: nothing pending, nothing given up (a batch is recorded as delivered
    // once all its POSTs are answered, a moment after the receiver has the last).
    const states = async () =>
      (
        await tdb.db.query<{ state: string; n: number }>(
          sql('', 'SELECT state, count(*)::int AS n FROM webhook_deliveries GROUP BY state'),
        )
      ).rows;
    await eventually(async () => (await states()).length === 1, 10_000, 'every delivery recorded');
    assert.deepEqual(await states(), [{ state: 'delivered', n: events.length }]);
  });
});
