/**
 * A delivery's body is its event as the feed answers it, read from the events table when the
 * delivery is claimed (decision 0106): fan-out stores none. A test event, and a delivery written
 * before migration 0032, keep the body stored with them. A delivery whose event is gone is not
 * posted: it fails for good at once, and its key's later events go on.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FeedEvent } from '../../src/events/event-feed.ts';
import {
  type ClaimedRow,
  claimDueDeliveries,
  claimedDelivery,
} from '../../src/events/webhooks/webhook-deliveries.queries.ts';
import { startWebhookSender } from '../../src/events/webhooks/webhook-sender.ts';
import { sql } from '../../src/infra/db/db.ts';
import { createTestDb, type TestDb } from '../helpers/test-db.ts';
import {
  addEvent,
  countDeliveries,
  endpointAt,
  eventually,
  fanOutTo as fanOutToN,
  type Receiver,
  startReceiver,
  wholeFeed,
} from './webhooks-helpers.ts';

const CREATED = 'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED';
const STARTED = 'EVENT_ACCOUNT_IMPORT_PROCESS_STARTED';
const silent = { info() {}, warn() {}, error() {} };

describe('a webhook delivery’s body, read from its event', () => {
  let t: TestDb;
  let receiver: Receiver;
  before(async () => {
    t = await createTestDb();
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver?.close();
    await t?.cleanup();
  });

  const endpointFor = (supplier: string) => endpointAt(t.db, `${receiver.url}/${supplier}`, supplier);
  const count = (endpointId: string, where: string) => countDeliveries(t.db, endpointId, where);
  const fanOutTo = (endpointId: string, n: number) => fanOutToN(t.db, endpointId, n);
  const claim = async () =>
    (
      await t.db.query<ClaimedRow>(
        claimDueDeliveries({ senderId: 'body-test', leaseSeconds: 300, batchSize: 100, chainAfter: 3 }),
      )
    ).rows.map(claimedDelivery);

  it('fan-out stores no body, and the claim gives the feed’s event byte for byte', async () => {
    const endpointId = await endpointFor('BODY');
    await addEvent(t.db, 'BODY', 'B-1', CREATED);
    // Data the JSON round trip could change: escapes, non-ASCII text, a decimal, nesting, a null.
    await t.db.query(
      sql(
        '',
        `INSERT INTO events (import_supplier, external_account_number, type, occurred_at, data)
         VALUES ('BODY', NULL, 'EVENT_SUPPLIER_PAUSED', now(),
                 jsonb_build_object('reason', E'Jabłoński said "stop"\\n\\ttwice', 'amount', 12.50,
                                    'list', jsonb_build_array(1, 'two', NULL), 'none', NULL))`,
      ),
    );
    await fanOutTo(endpointId, 2);
    assert.equal(await count(endpointId, 'stored_body IS NOT NULL'), 0, 'deliveries that store a body');
    const feed = new Map((await wholeFeed(t.db, 'BODY')).map((e) => [e.id, JSON.stringify(e)]));
    const claimed = (await claim()).filter((d) => d.endpoint_id === endpointId);
    assert.equal(claimed.length, 2);
    for (const d of claimed) assert.equal(d.body, feed.get(d.feed_event_id), d.feed_event_id);
    assert.match(claimed.map((d) => d.body).join(), /Jabłoński said \\"stop\\"\\n\\ttwice/);
  });

  it('keeps and posts a body stored with the delivery, and refuses a delivery with neither', async () => {
    const endpointId = await endpointFor('STORED');
    await addEvent(t.db, 'STORED', 'S-1', CREATED);
    // The feed shows an event once no older transaction is open: on a shared server another test's may be.
    let feed: FeedEvent[] = [];
    await eventually(
      async () => {
        feed = await wholeFeed(t.db, 'STORED');
        return feed.length > 0;
      },
      10_000,
      'the event in the feed',
    );
    const [event] = feed;
    const [xid, id] = event.id.split('_');
    const insert = sql(
      '',
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_xid, feed_event_id, event_type, occurred_at, stored_body)
       VALUES ($1, $2, $3::xid8, $4, $5, now(), $6)`,
    );
    // As a delivery written before migration 0032 was: its body stored, its event in the feed.
    await t.db.query(insert, [endpointId, id, xid, event.id, CREATED, '{"written":"before 0032"}']);
    assert.deepEqual(
      (await claim()).filter((d) => d.endpoint_id === endpointId).map((d) => d.body),
      ['{"written":"before 0032"}'],
    );
    await assert.rejects(
      t.db.query(insert, [endpointId, null, null, 'nothing', CREATED, null]),
      (err: { code?: string }) => err.code === '23514',
    );
  });

  it('fails a delivery whose event is gone at once, posts nothing for it, and goes on with its key', async () => {
    const endpointId = await endpointFor('GONE');
    await addEvent(t.db, 'GONE', 'G-1', CREATED);
    await addEvent(t.db, 'GONE', 'G-1', STARTED);
    await fanOutTo(endpointId, 2);
    await t.db.query(sql('', "DELETE FROM events WHERE import_supplier = 'GONE' AND type = $1"), [CREATED]);
    const sender = startWebhookSender({
      db: t.db,
      logger: silent,
      leaseSeconds: 5,
      concurrency: 2,
      idlePollMs: 20,
      retry: { baseMs: 60_000 },
    });
    try {
      const posted = () => receiver.received.filter((r) => r.path === '/GONE');
      await eventually(
        async () => (await count(endpointId, "state = 'delivered'")) === 1,
        10_000,
        'the key’s next event delivered',
      );
      const states = await t.db.query(
        sql(
          '',
          `SELECT d.event_type, d.state, d.attempts, d.last_error, a.error AS attempt_error
             FROM webhook_deliveries d LEFT JOIN webhook_delivery_attempts a ON a.delivery_id = d.id
            WHERE d.endpoint_id = $1 ORDER BY d.id`,
        ),
        [endpointId],
      );
      const gone = 'its event is no longer in the event feed';
      assert.deepEqual(states.rows, [
        { event_type: CREATED, state: 'failed', attempts: 1, last_error: gone, attempt_error: gone },
        { event_type: STARTED, state: 'delivered', attempts: 1, last_error: null, attempt_error: null },
      ]);
      assert.deepEqual(
        posted().map((r) => JSON.parse(r.body).type),
        [STARTED],
        'only the event still in the feed is posted',
      );
      const endpoint = await t.db.query(
        sql('', 'SELECT enabled, failing_since FROM webhook_endpoints WHERE id = $1'),
        [endpointId],
      );
      assert.deepEqual(endpoint.rows, [{ enabled: true, failing_since: null }], 'not counted as failing');
    } finally {
      await sender.stop();
    }
  });
});
