/**
 * Webhook fan-out (decision 0072): every event after an endpoint's cursor becomes one delivery
 * for it, however many rounds run at once, never two; an event of a transaction still open is
 * held back and delivered in its place once it commits; a sender that dies leaves its claimed
 * deliveries to another once their lease runs out.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { cursorText, FEED_START } from '../../src/events/event-feed.ts';
import {
  claimDueDeliveries,
  markBatchDelivered,
} from '../../src/events/webhooks/webhook-deliveries.queries.ts';
import { fanOutRound } from '../../src/events/webhooks/webhook-fan-out.ts';
import { startWebhookSender } from '../../src/events/webhooks/webhook-sender.ts';
import { sql } from '../../src/infra/db/db.ts';
import { admin, createTestApp, type TestApp } from '../helpers/test-app.ts';
import { usingPostgresServer } from '../helpers/test-db.ts';
import { addEvent, eventually, type Receiver, startReceiver } from './webhooks-helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

const silent = { info() {}, warn() {}, error() {} };

describe('webhook fan-out', () => {
  let t: TestApp;
  let receiver: Receiver;

  before(async () => {
    t = await createTestApp();
    receiver = await startReceiver();
    for (const code of ['FAN', 'NOISE', 'LATE', 'LEASE'])
      await admin(t.app, 'POST', '/import-suppliers/', { code });
  });
  after(async () => {
    await receiver?.close();
    await t?.close();
  });

  const endpoint = (importSuppliers: string[]) =>
    admin<Obj>(t.app, 'POST', '/webhook-endpoints/', {
      url: `${receiver.url}/fan`,
      import_suppliers: importSuppliers,
    });
  const count = async (text: string, params: unknown[] = []) =>
    (await t.db.query<{ n: number }>(sql('', text), params)).rows[0].n;
  /**
   * Fan-out rounds, `parallel` at once, until `done` holds. A round may find nothing new for a
   * while: on a shared server, another test file's open transaction holds the feed's horizon back.
   */
  async function fanOutUntil(done: () => Promise<boolean>, parallel = 1, pageSize?: number) {
    const deadline = Date.now() + 20_000;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error('fan-out did not catch up within 20 s');
      const rounds = await Promise.all(Array.from({ length: parallel }, () => fanOutRound(t.db, pageSize)));
      if (rounds.every((r) => r.length === 0)) await new Promise((r) => setTimeout(r, 20));
    }
  }
  const cursorsOf = async (ids: string[]) =>
    (
      await t.db.query<{ c: string }>(
        sql(
          '',
          "SELECT cursor_xid || '_' || cursor_id AS c FROM webhook_endpoints WHERE id = ANY($1::uuid[])",
        ),
        [ids],
      )
    ).rows.map((r) => r.c);

  it('writes one delivery per event and endpoint across many pages, with four rounds at once', async () => {
    const fan = await endpoint(['FAN']);
    const everyone = await endpoint(['*']);
    // 2,500 events of FAN in three transactions, and others' events between them.
    for (const [n, supplier] of [
      [1200, 'FAN'],
      [300, 'NOISE'],
      [900, 'FAN'],
      [400, 'FAN'],
    ] as const) {
      await t.db.query(
        sql(
          '',
          `INSERT INTO events (import_supplier, external_account_number, type, occurred_at)
           SELECT $1, 'ACC-' || (g % 50), 'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED', now() FROM generate_series(1, $2) g`,
        ),
        [supplier, n],
      );
    }
    const last = await t.db.query<{ xid: string; id: string }>(
      sql('', 'SELECT xid::text, id::text FROM events ORDER BY xid DESC, id DESC LIMIT 1'),
    );
    const end = cursorText(last.rows[0]);
    // Until each endpoint's cursor is at the feed's last event.
    await fanOutUntil(async () => (await cursorsOf([fan.id, everyone.id])).every((c) => c === end), 4, 250);
    const per = `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1`;
    const distinct = `SELECT count(DISTINCT event_id)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1`;
    assert.equal(await count(per, [fan.id]), 2500);
    assert.equal(await count(distinct, [fan.id]), 2500);
    assert.equal(await count(per, [everyone.id]), 2800);
    assert.equal(await count(distinct, [everyone.id]), 2800);

    // Fanning out again from the feed's start makes no second delivery: the table refuses one.
    await t.db.query(
      sql('', 'UPDATE webhook_endpoints SET cursor_xid = $2::xid8, cursor_id = $3 WHERE id = $1'),
      [fan.id, FEED_START.xid, FEED_START.id],
    );
    await fanOutUntil(async () => (await cursorsOf([fan.id]))[0] === end);
    assert.equal(await count(per, [fan.id]), 2500);
    await assert.rejects(
      t.db.query(
        sql(
          '',
          `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_xid, feed_event_id, event_type, occurred_at, stored_body)
           SELECT endpoint_id, event_id, event_xid, feed_event_id, event_type, occurred_at, stored_body
             FROM webhook_deliveries WHERE endpoint_id = $1 LIMIT 1`,
        ),
        [fan.id],
      ),
      (err: Obj) => err.code === '23505',
    );
    // Neither endpoint takes part in the tests below.
    await admin(t.app, 'DELETE', `/webhook-endpoints/${fan.id}/`);
    await admin(t.app, 'DELETE', `/webhook-endpoints/${everyone.id}/`);
  });

  it('holds back the events of a transaction still open, then fans them out in their place', {
    skip: !usingPostgresServer() && 'needs DATABASE_URL (two connections)',
  }, async () => {
    const ep = await endpoint(['LATE']);
    // A writer that began first and commits last.
    const slow = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await slow.connect();
    try {
      const schema = (await t.db.query<{ s: string }>(sql('', 'SELECT current_schema() AS s'))).rows[0].s;
      await slow.query(`SET search_path = ${schema}`);
      await slow.query('BEGIN');
      await slow.query(
        "INSERT INTO events (import_supplier, external_account_number, type, occurred_at) VALUES ('LATE', 'L-1', 'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED', now())",
      );
      await addEvent(t.db, 'LATE', 'L-1', 'EVENT_ACCOUNT_IMPORT_PROCESS_STARTED');
      await fanOutRound(t.db);
      const deliveries = `SELECT event_type AS n FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY event_xid, event_id`;
      assert.deepEqual((await t.db.query(sql('', deliveries), [ep.id])).rows, [], 'both held back');
      await slow.query('COMMIT');
      await fanOutUntil(async () => (await t.db.query(sql('', deliveries), [ep.id])).rows.length === 2);
      assert.deepEqual(
        (await t.db.query<{ n: string }>(sql('', deliveries), [ep.id])).rows.map((r) => r.n),
        ['EVENT_ACCOUNT_IMPORT_PROCESS_CREATED', 'EVENT_ACCOUNT_IMPORT_PROCESS_STARTED'],
      );
    } finally {
      await slow.end();
      await admin(t.app, 'DELETE', `/webhook-endpoints/${ep.id}/`);
    }
  });

  it('posts a delivery whose sender died once that sender’s lease runs out, not before', async () => {
    const ep = await endpoint(['LEASE']);
    await addEvent(t.db, 'LEASE', 'LS-1', 'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED');
    await fanOutUntil(
      async () =>
        (await count('SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1', [ep.id])) ===
        1,
    );
    // A sender claims it for 2 seconds, then dies without a word.
    const claimed = await t.db.query<Obj>(
      claimDueDeliveries({ senderId: 'dead-sender', leaseSeconds: 2, batchSize: 10, chainAfter: 3 }),
    );
    assert.equal(claimed.rows.length, 1);
    const claimedAt = Date.now();
    const sender = startWebhookSender({
      db: t.db,
      logger: silent,
      leaseSeconds: 5,
      concurrency: 4,
      idlePollMs: 20,
    });
    try {
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(
        receiver.received.filter((r) => r.path === '/fan'),
        [],
        'leased to the dead sender',
      );
      await eventually(() => receiver.received.some((r) => r.path === '/fan'), 10_000, 'the post');
      assert.ok(Date.now() - claimedAt >= 1_900, `posted ${Date.now() - claimedAt} ms after the claim`);
      const [d] = await admin<Obj[]>(t.app, 'GET', `/webhook-endpoints/${ep.id}/deliveries/`);
      await eventually(
        async () =>
          (await admin<Obj[]>(t.app, 'GET', `/webhook-endpoints/${ep.id}/deliveries/`))[0].state ===
          'delivered',
      );
      assert.equal(d.event_id, receiver.received[0].headers['ferry-event-id']);

      // The dead sender comes back and records the 2xx it got meanwhile: the delivery stays as the
      // other sender recorded it, and the late answer is listed as an attempt of its own.
      const list = () => admin<Obj[]>(t.app, 'GET', `/webhook-endpoints/${ep.id}/deliveries/`);
      const [before] = await list();
      assert.deepEqual(
        before.attempts.map((a: Obj) => a.status_code),
        [200],
      );
      const recorded = await t.db.query(markBatchDelivered, [[d.id], [new Date()], [204], [7]]);
      assert.equal(recorded.rows.length, 0, 'delivered already');
      const [after] = await list();
      assert.equal(after.state, 'delivered');
      assert.equal(after.delivered_at, before.delivered_at);
      assert.deepEqual(
        after.attempts.map((a: Obj) => [a.at, a.status_code, a.duration_ms]),
        [
          [before.attempts[0].at, 200, before.attempts[0].duration_ms],
          [after.attempts[1].at, 204, 7],
        ],
      );
    } finally {
      await sender.stop();
    }
  });
});
