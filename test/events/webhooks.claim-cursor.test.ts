/**
 * The claim cursor (decision 0110): a claim from the cursor starts after the last head the claims
 * so far took, so it does not read past the deliveries they leased; a claim from the front finds
 * what is due behind the cursor; either moves the cursor to its last head when that is past it
 * (one claim after another never moves it back).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type ClaimedRow,
  claimDueDeliveries,
  releaseDeliveries,
} from '../../src/events/webhooks/webhook-deliveries.queries.ts';
import { startWebhookSender } from '../../src/events/webhooks/webhook-sender.ts';
import { sql } from '../../src/infra/db/db.ts';
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
const SENDER = 'cursor-sender';
const options = { senderId: SENDER, leaseSeconds: 60, batchSize: 2, chainAfter: 0 };
const fromCursor = claimDueDeliveries({ ...options, fromCursor: true });
const fromFront = claimDueDeliveries(options);

describe('the webhook claim cursor', () => {
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

  /** The accounts' numbers behind the deliveries a claim took, sorted (the claim answers in no order). */
  const claim = async (statement: typeof fromFront) =>
    (await t.db.query<ClaimedRow>(statement)).rows.map((r) => r.ev_external_account_number).sort();
  /** The delivery the cursor points at, as its account's number ('' at the front). */
  const cursorAt = async () =>
    (
      await t.db.query<{ ext: string | null; at_matches: boolean | null }>(
        sql(
          '',
          `SELECT (SELECT d.ordering_key FROM webhook_deliveries d WHERE d.id = i.last_value) AS ext,
                  (SELECT d.next_attempt_at = timestamptz 'epoch' + a.last_value * interval '1 microsecond'
                     FROM webhook_deliveries d WHERE d.id = i.last_value) AS at_matches
             FROM webhook_claim_cursor_at a, webhook_claim_cursor_id i`,
        ),
      )
    ).rows.map((r) => (r.ext === null ? '' : `${r.ext.split('/')[1]} ${r.at_matches}`))[0];
  /** A new endpoint with one delivery for each account, queued by one fan-out. */
  async function queued(supplier: string, accounts: string[]) {
    const endpointId = await endpointAt(t.db, `${receiver.url}/${supplier}`, supplier);
    for (const ext of accounts) await addEvent(t.db, supplier, ext, CREATED);
    await fanOutTo(t.db, endpointId, accounts.length);
    return endpointId;
  }
  /** Two lanes of one delivery each, polling every 20 ms. */
  const sender = () =>
    startWebhookSender({
      db: t.db,
      logger: { info() {}, warn() {} },
      leaseSeconds: 60,
      concurrency: 2,
      idlePollMs: 20,
    });
  const delivered = (endpointId: string, n: number, what: string, ms: number) =>
    eventually(async () => (await countDeliveries(t.db, endpointId, "state = 'delivered'")) === n, ms, what);
  const release = async (...exts: string[]) =>
    t.db.query(
      sql(
        '',
        `UPDATE webhook_deliveries SET locked_by = NULL, locked_until = NULL
          WHERE split_part(ordering_key, '/', 2) = ANY($1::text[]) AND locked_by = $2`,
      ),
      [exts, SENDER],
    );

  it('starts after the heads claimed before, finds from the front what was handed back behind it, and never moves back', async () => {
    const endpointId = await queued('CURSOR', ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7']);
    assert.equal(await cursorAt(), '', 'a new database claims from the front');

    assert.deepEqual(await claim(fromCursor), ['A1', 'A2']);
    assert.equal(await cursorAt(), 'A2 true', 'the cursor is the last head claimed: its id and its due time');
    await release('A1');
    assert.deepEqual(await claim(fromCursor), ['A3', 'A4'], 'A1, handed back, is behind the cursor');
    assert.equal(await cursorAt(), 'A4 true');
    assert.deepEqual(await claim(fromFront), ['A1', 'A5'], 'from the front: A1, then past the leased');
    assert.equal(await cursorAt(), 'A5 true');

    await release('A2', 'A3');
    assert.deepEqual(await claim(fromFront), ['A2', 'A3']);
    assert.equal(await cursorAt(), 'A5 true', 'heads behind the cursor do not move it back');
    assert.deepEqual(await claim(fromCursor), ['A6', 'A7']);
    assert.deepEqual(await claim(fromCursor), [], 'nothing after the cursor');
    assert.equal(await cursorAt(), 'A7 true', 'an empty claim leaves the cursor where it was');
    assert.equal(await countDeliveries(t.db, endpointId, 'locked_by IS NULL'), 0);
  });

  it('orders by due time, then id: a delivery due later is after the cursor whatever its id', async () => {
    const endpointId = await queued('LATER', ['C1', 'C2', 'C3']);
    // One due time for the three (fan-out may have queued them in more than one page), then C1,
    // the smallest id, made due last, as a retry would be.
    await t.db.query(
      sql(
        '',
        `UPDATE webhook_deliveries
            SET next_attempt_at = (SELECT max(next_attempt_at) FROM webhook_deliveries WHERE endpoint_id = $1)
                  + CASE split_part(ordering_key, '/', 2)
                      WHEN 'C1' THEN interval '2 ms' WHEN 'C3' THEN interval '1 ms' ELSE interval '0' END
          WHERE endpoint_id = $1`,
      ),
      [endpointId],
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepEqual(await claim(fromCursor), ['C2', 'C3']);
    assert.equal(await cursorAt(), 'C3 true');
    assert.deepEqual(await claim(fromCursor), ['C1'], 'C1: due after C3, though its id is smaller');
  });

  it('a sender drains a backlog behind the cursor from the front, not a batch a second', async () => {
    const endpointId = await queued(
      'BACKLOG',
      Array.from({ length: 12 }, (_, i) => `D${i + 1}`),
    );
    // Claimed by another sender, which moved the cursor past them, and all handed back.
    const other = claimDueDeliveries({ ...options, batchSize: 12, fromCursor: true });
    const claimed = (await t.db.query<ClaimedRow>(other)).rows;
    assert.equal(claimed.length, 12);
    await t.db.query(releaseDeliveries, [claimed.map((r) => r.id), SENDER]);
    // A claim from the front takes one head, a full batch, and leaves the cursor where it was.
    const s = sender();
    try {
      // At one claim from the front a second, twelve would take twelve seconds.
      await delivered(endpointId, 12, 'the twelve delivered', 4_000);
    } finally {
      await s.stop();
    }
  });

  it('a sender drains one key’s backlog behind the cursor chain after chain, not a chain a second', async () => {
    const endpointId = await endpointAt(t.db, `${receiver.url}/one-key`, 'ONE-KEY');
    for (let i = 0; i < 24; i++) await addEvent(t.db, 'ONE-KEY', 'E1', CREATED);
    await fanOutTo(t.db, endpointId, 24);
    // The cursor past all 24, as when they waited for their endpoint to be enabled again.
    await t.db.query(
      sql(
        '',
        `SELECT setval('webhook_claim_cursor_at', (extract(epoch FROM max(next_attempt_at)) * 1000000)::bigint),
                setval('webhook_claim_cursor_id', max(id))
           FROM webhook_deliveries`,
      ),
    );
    const s = sender();
    try {
      // Four a claim (a head and three behind it): at one claim from the front a second, six seconds.
      await delivered(endpointId, 24, 'the 24 delivered', 4_000);
    } finally {
      await s.stop();
    }
  });

  it('a sender delivers what is handed back behind the cursor: its next claim from the front finds it', async () => {
    const endpointId = await queued('BEHIND', ['B1', 'B2', 'B3']);
    // Another sender has claimed all three, moving the cursor past them.
    const other = claimDueDeliveries({ ...options, batchSize: 3, fromCursor: true });
    const claimed = (await t.db.query<ClaimedRow>(other)).rows;
    assert.deepEqual(
      claimed.map((r) => r.ev_external_account_number),
      ['B1', 'B2', 'B3'],
    );
    const s = sender();
    try {
      // Its first claim, from the front, found all three leased; the next ones start at the cursor.
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(await countDeliveries(t.db, endpointId, "state = 'delivered'"), 0);
      await t.db.query(releaseDeliveries, [claimed.slice(0, 2).map((r) => r.id), SENDER]);
      await delivered(endpointId, 2, 'B1 and B2 delivered', 10_000);
    } finally {
      await s.stop();
    }
    assert.equal(await countDeliveries(t.db, endpointId, `locked_by = '${SENDER}'`), 1, 'B3 still leased');
  });
});
