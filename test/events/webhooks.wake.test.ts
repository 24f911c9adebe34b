/**
 * Webhooks wake on news (decision 0072, *Waking*; decision 0105): with fan-out and the sender
 * polling only once a minute, an event is delivered within seconds once a NOTIFY on the events
 * channel says it is there, or once this process's worker says it committed events; fan-out in
 * turn wakes the sender. A sender whose process does not fan out is woken by the notice of
 * another process's fan-out, and a failed attempt is tried again when its backoff ends, not at
 * the next look.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startWebhooks, type WebhooksHandle } from '../../src/events/webhooks/start-webhooks.ts';
import { fanOutRound } from '../../src/events/webhooks/webhook-fan-out.ts';
import { sql } from '../../src/infra/db/db.ts';
import { admin, createTestApp, type TestApp } from '../helpers/test-app.ts';
import { feedSettled } from '../helpers/test-db.ts';
import { addEvent, eventually, type Receiver, startReceiver } from './webhooks-helpers.ts';

const SUPPLIER = 'WAKE';
const silent = { info() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An event committed and visible to the feed, while fan-out and the sender wait out their poll. */
async function eventWhileIdle(t: TestApp, ext: string) {
  await sleep(300);
  await addEvent(t.db, SUPPLIER, ext, 'EVENT_NOTE_ADDED');
  await feedSettled(t.db);
}

describe('webhooks wake on news', () => {
  let t: TestApp;
  let receiver: Receiver;
  let hooks: WebhooksHandle;

  before(async () => {
    t = await createTestApp();
    receiver = await startReceiver();
    await admin(t.app, 'POST', '/import-suppliers/', { code: SUPPLIER });
    await admin(t.app, 'POST', '/webhook-endpoints/', {
      url: `${receiver.url}/wake`,
      import_suppliers: [SUPPLIER],
    });
    hooks = startWebhooks({ leaseSeconds: 30, pollMs: 60_000, concurrency: 4 }, { db: t.db, logger: silent });
  });
  after(async () => {
    await hooks?.stop();
    await receiver?.close();
    await t?.close();
  });

  it('delivers an event within seconds of a NOTIFY on the events channel', async () => {
    await eventWhileIdle(t, 'EXT-1');
    await t.db.query(sql('', 'NOTIFY ferry_events'));
    await eventually(() => receiver.received.length === 1, 5_000, 'the delivery after a NOTIFY');
  });

  it('delivers an event within seconds of its worker saying it committed events', async () => {
    await eventWhileIdle(t, 'EXT-2');
    hooks.eventsCommitted();
    await eventually(() => receiver.received.length === 2, 5_000, 'the delivery after eventsCommitted()');
  });
});

describe('a sender whose process does not fan out', () => {
  let t: TestApp;
  let receiver: Receiver;
  let hooks: WebhooksHandle;
  /** The first post of each event answers 500, the others 200. */
  const answered = new Set<string>();

  before(async () => {
    t = await createTestApp();
    receiver = await startReceiver(({ eventId }) => {
      if (answered.has(eventId)) return 200;
      answered.add(eventId);
      return 500;
    });
    await admin(t.app, 'POST', '/import-suppliers/', { code: SUPPLIER });
    await admin(t.app, 'POST', '/webhook-endpoints/', {
      url: `${receiver.url}/elsewhere`,
      import_suppliers: [SUPPLIER],
    });
    // Another process holds the fan-out lease for the hour: this process's fan-out stands by.
    await t.db.query(
      sql(
        '',
        `INSERT INTO fleet_leases (name, holder, until)
         VALUES ('webhook-fan-out', 'another process', now() + interval '1 hour')`,
      ),
    );
    hooks = startWebhooks({ leaseSeconds: 30, pollMs: 60_000, concurrency: 4 }, { db: t.db, logger: silent });
  });
  after(async () => {
    await hooks?.stop();
    await receiver?.close();
    await t?.close();
  });

  it('posts what another process queued once its notice comes, and tries a failure again when due', async () => {
    await eventWhileIdle(t, 'EXT-3');
    // The other process's round: the deliveries are written, and this sender has not looked.
    assert.equal((await fanOutRound(t.db)).length, 1);
    await sleep(300);
    assert.equal(receiver.received.length, 0, 'nothing posted before the notice');
    await t.db.query(sql('', 'NOTIFY ferry_webhooks_due'));
    await eventually(() => receiver.received.length === 1, 5_000, 'the first post after the notice');
    assert.equal(receiver.received[0].status, 500);
    // Its backoff is about a second; the next look would be a minute away.
    await eventually(() => receiver.received.length === 2, 5_000, 'the retry when its backoff ends');
    assert.equal(receiver.received[1].status, 200);
  });
});
