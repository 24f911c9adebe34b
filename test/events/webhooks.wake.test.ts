/**
 * Webhooks wake on news (decision 0072, *Waking*): with fan-out and the sender polling only once a
 * minute, an event is delivered within seconds once a NOTIFY on the events channel says it is
 * there, or once this process's worker says it committed events; fan-out in turn wakes the sender.
 */
import { after, before, describe, it } from 'node:test';
import { startWebhooks, type WebhooksHandle } from '../../src/events/webhooks/start-webhooks.ts';
import { sql } from '../../src/infra/db/db.ts';
import { admin, createTestApp, type TestApp } from '../helpers/test-app.ts';
import { feedSettled } from '../helpers/test-db.ts';
import { addEvent, eventually, type Receiver, startReceiver } from './webhooks-helpers.ts';

const SUPPLIER = 'WAKE';
const silent = { info() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

  /** An event committed and visible to the feed, while fan-out and the sender wait out their poll. */
  async function eventWhileIdle(ext: string) {
    await sleep(300);
    await addEvent(t.db, SUPPLIER, ext, 'EVENT_NOTE_ADDED');
    await feedSettled(t.db);
  }

  it('delivers an event within seconds of a NOTIFY on the events channel', async () => {
    await eventWhileIdle('EXT-1');
    await t.db.query(sql('', 'NOTIFY ferry_events'));
    await eventually(() => receiver.received.length === 1, 5_000, 'the delivery after a NOTIFY');
  });

  it('delivers an event within seconds of its worker saying it committed events', async () => {
    await eventWhileIdle('EXT-2');
    hooks.eventsCommitted();
    await eventually(() => receiver.received.length === 2, 5_000, 'the delivery after eventsCommitted()');
  });
});
