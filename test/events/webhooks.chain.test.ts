/**
 * A key's next deliveries are claimed with its head (decision 0107): the claim answers each
 * head's chain in order, as far as each next delivery is due and not leased, stamping only the
 * head's first attempt; the sender posts a chain one after another and hands back the rest at the
 * first post that was not answered 2xx, or once the time to start its next post is over.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type ClaimedRow,
  claimDueDeliveries,
  releaseDeliveries,
} from '../../src/events/webhooks/webhook-deliveries.queries.ts';
import { createWebhookPoster } from '../../src/events/webhooks/webhook-post.ts';
import {
  chainsOf,
  type SenderOptions,
  startWebhookSender,
} from '../../src/events/webhooks/webhook-sender.ts';
import { sql } from '../../src/infra/db/db.ts';
import { countingDb } from '../helpers/counting-db.ts';
import { createTestDb, type TestDb } from '../helpers/test-db.ts';
import {
  addEvent,
  countDeliveries,
  endpointAt,
  eventually,
  fanOutTo,
  type Receiver,
  startReceiver,
} from './webhooks-helpers.ts';

const CREATED = 'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED';
const STARTED = 'EVENT_ACCOUNT_IMPORT_PROCESS_STARTED';
const PROCESSED = 'EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED';
const silent = { info() {}, warn() {}, error() {} };

describe('a key’s next deliveries claimed and posted with its head', () => {
  let t: TestDb;
  let receiver: Receiver;
  /** Status to answer per account and type, each answer used once; 200 when none is left. */
  const planned = new Map<string, number[]>();
  before(async () => {
    t = await createTestDb();
    receiver = await startReceiver(({ body }) => {
      const e = JSON.parse(body);
      return planned.get(`${e.external_account_number} ${e.type}`)?.shift() ?? 200;
    });
  });
  after(async () => {
    await receiver?.close();
    await t?.cleanup();
  });

  /** An account's three events, then `others` accounts with one each, fanned out to a new endpoint. */
  async function deliveriesFor(supplier: string, ext: string, others = 0) {
    const endpointId = await endpointAt(t.db, `${receiver.url}/${supplier}`, supplier);
    for (const type of [CREATED, STARTED, PROCESSED]) await addEvent(t.db, supplier, ext, type);
    for (let i = 1; i <= others; i++) await addEvent(t.db, supplier, `${ext}-OTHER-${i}`, CREATED);
    await fanOutTo(t.db, endpointId, 3 + others);
    return endpointId;
  }
  /**
   * A sender (on a database that counts its statements) until the endpoint's three deliveries are
   * delivered; answers how many times it handed deliveries back meanwhile.
   */
  async function sendAll(endpointId: string, opts: Partial<SenderOptions> & { leaseSeconds: number }) {
    const counting = countingDb(t.db);
    const sender = startWebhookSender({
      db: counting.db,
      logger: silent,
      concurrency: 4,
      idlePollMs: 20,
      ...opts,
    });
    try {
      await eventually(
        async () => (await countDeliveries(t.db, endpointId, "state = 'delivered'")) === 3,
        10_000,
        'three delivered',
      );
      return counting.calls('releaseWebhookDeliveries');
    } finally {
      await sender.stop();
    }
  }
  /** The types the receiver got for one account, with the status each was answered. */
  const postsOf = (supplier: string, ext: string) =>
    receiver.received
      .filter((r) => r.path === `/${supplier}` && JSON.parse(r.body).external_account_number === ext)
      .map((r) => `${JSON.parse(r.body).type} ${r.status}`);

  it('claims each head with its key’s next deliveries, in order, stamping only the head’s first attempt', async () => {
    const endpointId = await deliveriesFor('CHAINCLAIM', 'CC-1', 1);
    const claim = async (chainAfter: number) =>
      (
        await t.db.query<ClaimedRow>(
          claimDueDeliveries({ senderId: 'chain-test', leaseSeconds: 300, batchSize: 10, chainAfter }),
        )
      ).rows;
    const rows = await claim(3);
    const typeOf = async (id: string) =>
      (
        await t.db.query<{ event_type: string; first: boolean }>(
          sql(
            '',
            'SELECT event_type, first_attempt_at IS NOT NULL AS first FROM webhook_deliveries WHERE id = $1',
          ),
          [id],
        )
      ).rows[0];
    assert.equal(rows.length, 4, 'every delivery of the endpoint');
    const chains = chainsOf(rows);
    assert.equal(chains.length, 2, 'two heads: the account’s first event and the other account’s');
    const three = chains.find((c) => c.length === 3);
    assert.ok(three, 'the account’s three deliveries in one chain');
    assert.ok(three[0].id === three[0].head_id, 'the head is its own head');
    assert.deepEqual(
      three.map((r) => [r.chain_pos, r.head_id]),
      [0, 1, 2].map((pos) => [pos, three[0].id]),
    );
    assert.deepEqual(
      await Promise.all(three.map(async (r) => (await typeOf(r.id)).event_type)),
      [CREATED, STARTED, PROCESSED],
      'in the key’s order',
    );
    assert.deepEqual(
      await Promise.all(three.map(async (r) => (await typeOf(r.id)).first)),
      [true, false, false],
      'only the head’s first attempt is stamped at the claim',
    );
    assert.equal(await countDeliveries(t.db, endpointId, "locked_by = 'chain-test'"), 4, 'all four leased');
    assert.deepEqual((await claim(3)).length, 0, 'nothing more to claim while they are leased');

    // Handed back, they come again; at most $4 behind each head.
    await t.db.query(releaseDeliveries, [rows.map((r) => r.id), 'chain-test']);
    const shorter = await claim(1);
    assert.equal(shorter.length, 3, 'each head, and one delivery behind the account’s');
    assert.deepEqual(shorter.map((r) => r.chain_pos).sort(), [0, 0, 1]);
    // A next delivery that is leased (by a sender whose lease has not run out) ends the chain there.
    await t.db.query(releaseDeliveries, [shorter.map((r) => r.id), 'chain-test']);
    await t.db.query(
      sql(
        '',
        `UPDATE webhook_deliveries SET locked_by = 'someone', locked_until = now() + interval '1 minute'
          WHERE endpoint_id = $1 AND event_type = $2`,
      ),
      [endpointId, STARTED],
    );
    const cut = await claim(3);
    assert.deepEqual(cut.map((r) => r.chain_pos).sort(), [0, 0], 'no delivery past the leased one');
    // So does one waiting out a backoff.
    await t.db.query(releaseDeliveries, [cut.map((r) => r.id), 'chain-test']);
    await t.db.query(
      sql(
        '',
        `UPDATE webhook_deliveries SET locked_by = NULL, locked_until = NULL,
                next_attempt_at = CASE WHEN event_type = $2 THEN now() + interval '1 minute' ELSE next_attempt_at END
          WHERE endpoint_id = $1`,
      ),
      [endpointId, STARTED],
    );
    const waiting = await claim(3);
    assert.deepEqual(
      waiting.map((r) => r.chain_pos).sort(),
      [0, 0],
      'no delivery past the one in its backoff',
    );
    // A head that has failed before is claimed alone: its retries would hand back what is behind it.
    await t.db.query(releaseDeliveries, [waiting.map((r) => r.id), 'chain-test']);
    await t.db.query(
      sql(
        '',
        `UPDATE webhook_deliveries SET next_attempt_at = now(),
                attempts = CASE WHEN event_type = $2 THEN 1 ELSE 0 END
          WHERE endpoint_id = $1`,
      ),
      [endpointId, CREATED],
    );
    const retried = await claim(3);
    assert.deepEqual(retried.map((r) => r.chain_pos).sort(), [0, 0], 'nothing behind a head tried before');
    await t.db.query(sql('', `UPDATE webhook_deliveries SET state = 'delivered' WHERE endpoint_id = $1`), [
      endpointId,
    ]);
  });

  it('posts a chain one after another; after a failure the rest wait, then go in order', async () => {
    planned.set(`CP-1 ${STARTED}`, [500]);
    const endpointId = await deliveriesFor('CHAINPOST', 'CP-1');
    const handedBack = await sendAll(endpointId, { leaseSeconds: 30, retry: { baseMs: 40, maxMs: 200 } });
    assert.equal(handedBack, 1, 'the delivery behind the failure handed back');
    assert.deepEqual(postsOf('CHAINPOST', 'CP-1'), [
      `${CREATED} 200`,
      `${STARTED} 500`,
      `${STARTED} 200`,
      `${PROCESSED} 200`,
    ]);
    const stamped = await countDeliveries(t.db, endpointId, 'first_attempt_at IS NOT NULL');
    assert.equal(stamped, 3, 'each delivery’s first attempt is stamped');
  });

  it('posts a chain’s next delivery only within its time; the rest go later, in order', async () => {
    const endpointId = await deliveriesFor('CHAINLEASE', 'CL-1');
    // The real poster, slow to hand back the answer to the account's first event: a lease of 8 s
    // with posts of up to 0.5 s and 5 s to record them leaves 2.5 s to start a chain's next post,
    // so the two deliveries behind it are handed back unposted and claimed again behind their
    // next head.
    const real = createWebhookPoster({ maxSockets: 4 });
    const handedBack = await sendAll(endpointId, {
      leaseSeconds: 8,
      postTimeoutMs: 500,
      poster: {
        async post(p) {
          const outcome = await real.post(p);
          if (JSON.parse(p.body).type === CREATED) await new Promise((r) => setTimeout(r, 3_500));
          return outcome;
        },
        close: () => real.close(),
      },
    });
    assert.ok(handedBack >= 1, 'the two behind the slow head handed back');
    assert.deepEqual(postsOf('CHAINLEASE', 'CL-1'), [`${CREATED} 200`, `${STARTED} 200`, `${PROCESSED} 200`]);
    assert.equal(
      await countDeliveries(t.db, endpointId, 'attempts = 1'),
      3,
      'each posted once: a delivery handed back was not attempted',
    );
    assert.equal(
      await countDeliveries(t.db, endpointId, 'first_attempt_at IS NOT NULL'),
      3,
      'each delivery’s first attempt is stamped, those posted behind a head too',
    );
  });
});
