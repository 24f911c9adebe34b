/**
 * A delivery's body is its event as the feed answers it, read from the events table when the
 * delivery is claimed (decision 0106): fan-out stores none. A test event, and a delivery written
 * before migration 0032, keep the body stored with them. A delivery whose event is gone is not
 * posted: it fails as an attempt does.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { currentCursor } from '../../src/events/event-feed.ts';
import {
  type ClaimedRow,
  claimDueDeliveries,
  claimedDelivery,
} from '../../src/events/webhooks/webhook-deliveries.queries.ts';
import { fanOutRound } from '../../src/events/webhooks/webhook-fan-out.ts';
import { startWebhookSender } from '../../src/events/webhooks/webhook-sender.ts';
import { sql } from '../../src/infra/db/db.ts';
import { createTestDb, type TestDb } from '../helpers/test-db.ts';
import { addEvent, eventually, type Receiver, startReceiver, wholeFeed } from './webhooks-helpers.ts';

const CREATED = 'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED';
const silent = { info() {}, warn() {}, error() {} };

describe('a webhook delivery’s body, read from its event', () => {
  let t: TestDb;
  let receiver: Receiver;
  let endpointId: string;
  before(async () => {
    t = await createTestDb();
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver?.close();
    await t?.cleanup();
  });
  beforeEach(async () => {
    await t.db.query(sql('', 'DELETE FROM webhook_endpoints'));
    // Its cursor at the feed's end: each test's deliveries are of its own events only.
    const end = await currentCursor(t.db);
    const { rows } = await t.db.query<{ id: string }>(
      sql(
        '',
        `INSERT INTO webhook_endpoints (url, import_suppliers, secret, cursor_xid, cursor_id)
         VALUES ($1, '{*}', 'secret', $2::xid8, $3::bigint) RETURNING id`,
      ),
      [`${receiver.url}/body`, end.xid, end.id],
    );
    endpointId = rows[0].id;
  });

  const claim = async () =>
    (await t.db.query<ClaimedRow>(claimDueDeliveries, ['body-test', 100, 300])).rows.map(claimedDelivery);
  const count = async (where: string) =>
    (
      await t.db.query<{ n: number }>(
        sql('', `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND ${where}`),
        [endpointId],
      )
    ).rows[0].n;

  it('fan-out stores no body, and the claim gives the feed’s event byte for byte', async () => {
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
    await fanOutRound(t.db);
    assert.equal(await count('true'), 2);
    assert.equal(await count('body IS NOT NULL'), 0, 'deliveries that store a body');
    const feed = new Map((await wholeFeed(t.db, 'BODY')).map((e) => [e.id, JSON.stringify(e)]));
    const claimed = await claim();
    assert.equal(claimed.length, 2);
    for (const d of claimed) assert.equal(d.body, feed.get(d.feed_event_id), d.feed_event_id);
    assert.match(claimed.map((d) => d.body).join(), /Jabłoński said \\"stop\\"\\n\\ttwice/);
  });

  it('keeps and posts a body stored with the delivery, and refuses a delivery with neither', async () => {
    await addEvent(t.db, 'BODY', 'B-2', CREATED);
    const [event] = (await wholeFeed(t.db, 'BODY')).slice(-1);
    const [xid, id] = event.id.split('_');
    const insert = sql(
      '',
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_xid, feed_event_id, event_type, occurred_at, body)
       VALUES ($1, $2, $3::xid8, $4, $5, now(), $6)`,
    );
    // As a delivery written before migration 0032 was: its body stored, its event in the feed.
    await t.db.query(insert, [endpointId, id, xid, event.id, CREATED, '{"written":"before 0032"}']);
    assert.deepEqual(
      (await claim()).map((d) => d.body),
      ['{"written":"before 0032"}'],
    );
    await assert.rejects(
      t.db.query(insert, [endpointId, null, null, 'nothing', CREATED, null]),
      (err: { code?: string }) => err.code === '23514',
    );
  });

  it('does not post a delivery whose event is gone: it is a failed attempt with the reason', async () => {
    await addEvent(t.db, 'GONE', 'G-1', CREATED);
    await fanOutRound(t.db);
    assert.equal(await count('true'), 1);
    await t.db.query(sql('', "DELETE FROM events WHERE import_supplier = 'GONE'"));
    const sender = startWebhookSender({
      db: t.db,
      logger: silent,
      leaseSeconds: 5,
      concurrency: 2,
      idlePollMs: 20,
      retry: { baseMs: 60_000 },
    });
    try {
      const attempts = sql(
        '',
        `SELECT a.error, a.status_code FROM webhook_delivery_attempts a
           JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = $1`,
      );
      await eventually(
        async () => (await t.db.query(attempts, [endpointId])).rows.length > 0,
        10_000,
        'the attempt',
      );
      assert.deepEqual((await t.db.query(attempts, [endpointId])).rows, [
        { error: 'its event is no longer in the event feed', status_code: null },
      ]);
      assert.equal(await count("state = 'pending' AND attempts = 1"), 1, 'pending, to be tried again');
      assert.deepEqual(receiver.received, [], 'nothing posted');
    } finally {
      await sender.stop();
    }
  });
});
