/**
 * A stream's hand-over from its own catch-up to the hub, step by step (decision 0073): the hub
 * here is driven by the test, so that it hands events over exactly when a real one may, while the
 * stream is joining: one the stream's own reading will also find (not to be repeated) and one
 * beyond what it reads (not to be lost). The stream reads the real feed of a real database. The
 * same hand-over under real concurrency is in event-stream-hub.test.ts.
 */

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Cursor, FEED_START, type FeedEvent, readEvents } from '../../src/events/event-feed.ts';
import { EventHub, type HubSubscriber, type StreamHub } from '../../src/events/event-hub.ts';
import { openEventStream } from '../../src/events/event-stream.ts';
import type { Db } from '../../src/infra/db/db.ts';
import { createTestDb, feedSettled } from '../helpers/test-db.ts';
import { parseSse, writeEvents } from './event-stream-client.ts';

const SUPPLIER = 'HANDOVER';

/**
 * A hub the test drives: it answers `cursor` and, while subscribing, hands over `whileJoining`
 * (given how many times the stream has subscribed). Like the real one, it answers null to a
 * subscriber that left before its answer.
 */
function drivenHub(
  cursor: () => Cursor,
  whileJoining: (joins: number) => FeedEvent[],
  maxQueuedBytes = 1 << 20,
) {
  const subscribers = new Set<HubSubscriber>();
  let joins = 0;
  const hub: StreamHub = {
    stream: { heartbeatMs: 60_000, retryMs: 1_000, maxQueuedBytes, maxStallMs: 30_000 },
    async subscribe(sub) {
      subscribers.add(sub);
      // A real hub may hand events over between adding a subscriber and answering its cursor.
      sub.deliver(whileJoining(++joins));
      return subscribers.has(sub) ? cursor() : null;
    },
    unsubscribe: (sub) => subscribers.delete(sub),
    countDropped() {},
    countDemoted() {},
  };
  return { hub, subscribers };
}

/** An event beyond every one written: the hub read it, the stream's own reads never will. */
const beyond = (e: FeedEvent, n: number): FeedEvent => {
  const [xid] = e.id.split('_');
  const id = `${BigInt(xid) + 1_000n}_${n}`;
  return { ...e, id, data: { beyond: n } };
};

describe('live event stream: the hand-over to the hub', () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  before(async () => {
    ({ db, cleanup } = await createTestDb());
  });
  after(() => cleanup());

  it('keeps what the hub hands over while joining: beyond its own reading once, within it never again', async () => {
    await writeEvents(db, SUPPLIER, 30);
    await feedSettled(db);
    const written = (await readEvents(db, { supplier: SUPPLIER, after: FEED_START, limit: 100 })).events;
    assert.equal(written.length, 30);
    const far = beyond(written[29], 1);
    const later = beyond(written[29], 2);
    // The hub had read up to the 20th; while the stream joins it hands over the 25th (the stream
    // reads it too) and one beyond (the stream never reads it).
    const { hub, subscribers } = drivenHub(
      () => ({ xid: written[19].id.split('_')[0], id: written[19].id.split('_')[1] }),
      () => [written[24], far],
    );
    const { stream, ids, until } = follow(hub);
    await until(() => ids().length === 31);
    // Live: the hub hands over the one beyond again (already sent) and the next.
    assert.equal(subscribers.size, 1);
    for (const sub of subscribers) sub.deliver([far, later]);
    await until(() => ids().length >= 32);
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(ids(), [...written.map((e) => e.id), far.id, later.id]);
    await stream.close();
    assert.equal(subscribers.size, 0, 'it left the hub');
  });

  it('goes round again when more than it may keep aside comes while it subscribes', async () => {
    const supplier = 'HANDOVER-FLOOD';
    await writeEvents(db, supplier, 40);
    await feedSettled(db);
    const written = (await readEvents(db, { supplier, after: FEED_START, limit: 100 })).events;
    // The first time it subscribes the hub hands over all 40 at once (more than the 2 KiB it may
    // keep aside): it leaves before the hub has answered, reads by itself, and joins again.
    const { hub, subscribers } = drivenHub(
      () => ({ xid: written[39].id.split('_')[0], id: written[39].id.split('_')[1] }),
      (joins) => (joins === 1 ? written : []),
      2 * 1024,
    );
    const { stream, ids, until } = follow(hub, supplier);
    try {
      await until(() => ids().length === 40 && subscribers.size === 1);
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(
        ids(),
        written.map((e) => e.id),
      );
    } finally {
      await stream.close();
    }
  });

  it('answers a subscriber that left before its answer, and is idle after', async () => {
    const hub = new EventHub(db, { pollMs: 20 });
    const sub: HubSubscriber = { supplier: SUPPLIER, types: null, deliver() {}, close: async () => {} };
    const joining = hub.subscribe(sub);
    hub.unsubscribe(sub);
    assert.equal(await joining, null);
    await hub.close();
    assert.deepEqual([hub.stats().subscribers, hub.stats().listening], [0, 0]);
  });

  /** A stream of the whole feed from its start, read as it comes. */
  function follow(hub: StreamHub, supplier = SUPPLIER) {
    let text = '';
    const stream = openEventStream(
      db,
      hub,
      { supplier, types: null, after: FEED_START, pageSize: 7 },
      () => {},
    );
    stream.body.setEncoding('utf8');
    stream.body.on('data', (chunk: string) => {
      text += chunk;
    });
    const ids = () => parseSse(text).map((e) => e.id);
    const until = async (condition: () => boolean) => {
      const deadline = Date.now() + 10_000;
      while (!condition()) {
        if (Date.now() > deadline) assert.fail(`timed out; got ${ids().length} events`);
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    return { stream, ids, until };
  }
});
