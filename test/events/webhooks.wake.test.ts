/**
 * Webhooks wake on news (decision 0072, *Waking*; decision 0105): with fan-out and the sender
 * polling only once a minute, an event is delivered within seconds once a NOTIFY on the events
 * channel says it is there, or once this process's worker says it committed events; fan-out in
 * turn wakes the sender and tells the senders of other processes. A sender whose process does
 * not fan out is woken by the notice of another process's fan-out, and a failed attempt is tried again when its backoff ends, not at
 * the next look.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startWebhooks, type WebhooksHandle } from '../../src/events/webhooks/start-webhooks.ts';
import { fanOutRound } from '../../src/events/webhooks/webhook-fan-out.ts';
import { sql } from '../../src/infra/db/db.ts';
import { admin, createTestApp, type TestApp } from '../helpers/test-app.ts';
import { feedSettled } from '../helpers/test-db.ts';
import { type Answerer, addEvent, eventually, type Receiver, startReceiver } from './webhooks-helpers.ts';

const SUPPLIER = 'WAKE';
const silent = { info() {}, warn() {}, error() {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An event committed and visible to the feed, while fan-out and the sender wait out their poll. */
async function eventWhileIdle(t: TestApp, ext: string) {
  await sleep(300);
  await addEvent(t.db, SUPPLIER, ext, 'EVENT_NOTE_ADDED');
  await feedSettled(t.db);
}

interface Fixture {
  t: TestApp;
  receiver: Receiver;
  hooks: WebhooksHandle;
}

/**
 * An app with one endpoint for SUPPLIER and webhooks that would not look for a minute. `before`
 * runs ahead of them (a lease taken elsewhere); `answer` is the receiver's.
 */
async function startFixture(opts: { answer?: Answerer; before?: (t: TestApp) => Promise<void> } = {}) {
  const t = await createTestApp();
  const receiver = await startReceiver(opts.answer);
  await admin(t.app, 'POST', '/import-suppliers/', { code: SUPPLIER });
  await admin(t.app, 'POST', '/webhook-endpoints/', {
    url: `${receiver.url}/wake`,
    import_suppliers: [SUPPLIER],
  });
  await opts.before?.(t);
  const hooks = startWebhooks(
    { leaseSeconds: 30, pollMs: 60_000, concurrency: 4 },
    { db: t.db, logger: silent },
  );
  // Listening starts with a wake: it must be behind the tests' "nothing posted yet".
  await hooks.listening;
  return { t, receiver, hooks };
}

async function stopFixture(f: Fixture | undefined) {
  await f?.hooks.stop();
  await f?.receiver.close();
  await f?.t.close();
}

describe('webhooks wake on news', () => {
  let f: Fixture;
  before(async () => {
    f = await startFixture();
  });
  after(() => stopFixture(f));

  it('delivers an event within seconds of a NOTIFY on the events channel', async () => {
    await eventWhileIdle(f.t, 'EXT-1');
    await f.t.db.query(sql('', 'NOTIFY ferry_events'));
    await eventually(() => f.receiver.received.length === 1, 5_000, 'the delivery after a NOTIFY');
  });

  it('delivers an event within seconds of its worker saying it committed events, and tells every sender', async () => {
    let notices = 0;
    const unlisten = await f.t.db.listen('ferry_webhooks_due', {
      onMessage: () => {
        notices++;
      },
      onLive: () => {},
    });
    try {
      await eventWhileIdle(f.t, 'EXT-2');
      f.hooks.eventsCommitted();
      await eventually(() => f.receiver.received.length === 2, 5_000, 'the delivery after eventsCommitted()');
      await eventually(() => notices > 0, 5_000, 'NOTIFY ferry_webhooks_due after the round that queued it');
    } finally {
      await unlisten();
    }
  });
});

describe('a sender whose process does not fan out', () => {
  let f: Fixture;
  /** The first post of each event answers 500, the others 200. */
  const answered = new Set<string>();
  before(async () => {
    f = await startFixture({
      answer: ({ eventId }) => {
        if (answered.has(eventId)) return 200;
        answered.add(eventId);
        return 500;
      },
      // Another process holds the fan-out lease for the hour: this process's fan-out stands by.
      before: (t) =>
        t.db
          .query(
            sql(
              '',
              `INSERT INTO fleet_leases (name, holder, until)
               VALUES ('webhook-fan-out', 'another process', now() + interval '1 hour')`,
            ),
          )
          .then(() => {}),
    });
  });
  after(() => stopFixture(f));

  it('posts what another process queued once its notice comes, and tries a failure again when due', async () => {
    const { t, receiver } = f;
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
