/**
 * A sender that records a key's delivery leases the key's next delivery in the same statement
 * (webhook-deliveries.queries.ts, markBatchDelivered) and posts it without a claim: only a
 * successor that is due and that no other sender holds, and no other sender can claim it
 * meanwhile.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  claimDueDeliveries,
  markBatchDelivered,
} from '../../src/events/webhooks/webhook-deliveries.queries.ts';
import { fanOutRound } from '../../src/events/webhooks/webhook-fan-out.ts';
import { sql } from '../../src/infra/db/db.ts';
import { admin, createTestApp, type TestApp } from '../helpers/test-app.ts';
import { addEvent, eventually } from './webhooks-helpers.ts';

interface Row {
  id: string;
  next: boolean;
  feed_event_id: string;
}
const TYPES = ['CREATED', 'STARTED', 'PROCESSED'].map((s) => `EVENT_ACCOUNT_IMPORT_PROCESS_${s}`);

describe('webhook successors', () => {
  let t: TestApp;
  /** Delivery ids by `<account>:<type suffix>`. */
  const ids = new Map<string, string>();

  before(async () => {
    t = await createTestApp();
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'NEXT' });
    const ep = await admin<{ id: string }>(t.app, 'POST', '/webhook-endpoints/', {
      url: 'http://127.0.0.1:9/unused',
      import_suppliers: ['NEXT'],
    });
    for (const type of TYPES) await addEvent(t.db, 'NEXT', 'K-1', type);
    await addEvent(t.db, 'NEXT', 'K-2', TYPES[0]);
    const rows = async () =>
      (
        await t.db.query<{ id: string; key: string; event_type: string }>(
          sql(
            '',
            `SELECT id::text, ordering_key AS key, event_type FROM webhook_deliveries WHERE endpoint_id = $1`,
          ),
          [ep.id],
        )
      ).rows;
    await eventually(async () => {
      await fanOutRound(t.db);
      return (await rows()).length === 4;
    });
    for (const r of await rows()) ids.set(`${r.key.split('/')[1]}:${r.event_type.split('_').at(-1)}`, r.id);
  });
  after(async () => {
    await t?.close();
  });

  const claim = async (sender: string) =>
    (await t.db.query<Row>(claimDueDeliveries, [sender, 10, 30])).rows.map((r) => String(r.id)).sort();
  const deliver = async (deliveryIds: string[], sender: string) => {
    const { rows } = await t.db.query<Row>(markBatchDelivered, [
      deliveryIds,
      deliveryIds.map(() => new Date()),
      deliveryIds.map(() => 204),
      deliveryIds.map(() => 3),
      sender,
      30,
    ]);
    return {
      delivered: rows
        .filter((r) => !r.next)
        .map((r) => String(r.id))
        .sort(),
      next: rows.filter((r) => r.next).map((r) => String(r.id)),
    };
  };
  const holder = async (id: string) =>
    (
      await t.db.query<{ locked_by: string | null }>(
        sql('', 'SELECT locked_by FROM webhook_deliveries WHERE id = $1'),
        [id],
      )
    ).rows[0].locked_by;

  it('leases a delivered key’s next delivery to its sender, which no other sender can claim', async () => {
    const heads = [ids.get('K-1:CREATED')!, ids.get('K-2:CREATED')!].sort();
    assert.deepEqual(await claim('sender-a'), heads, 'a claim takes the heads only');
    assert.deepEqual(await claim('sender-b'), [], 'the successors wait for their heads');

    const first = await deliver(heads, 'sender-a');
    assert.deepEqual(first.delivered, heads);
    assert.deepEqual(first.next, [ids.get('K-1:STARTED')], 'K-1’s next; K-2 has none');
    assert.equal(await holder(ids.get('K-1:STARTED')!), 'sender-a');
    assert.deepEqual(await claim('sender-b'), [], 'leased to sender-a');
  });

  it('leaves a successor that is not due yet, or that another sender holds', async () => {
    const processed = ids.get('K-1:PROCESSED')!;
    await t.db.query(
      sql('', `UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 hour' WHERE id = $1`),
      [processed],
    );
    assert.deepEqual((await deliver([ids.get('K-1:STARTED')!], 'sender-a')).next, [], 'not due');
    assert.equal(await holder(processed), null);

    // Due again, and held by another sender (its lease not run out): not taken from it.
    await t.db.query(
      sql(
        '',
        `UPDATE webhook_deliveries SET next_attempt_at = now(), state = 'pending',
                locked_by = 'sender-c', locked_until = now() + interval '1 minute'
          WHERE id = $1`,
      ),
      [processed],
    );
    await t.db.query(sql('', `UPDATE webhook_deliveries SET state = 'pending' WHERE id = $1`), [
      ids.get('K-1:STARTED'),
    ]);
    assert.deepEqual((await deliver([ids.get('K-1:STARTED')!], 'sender-a')).next, [], 'held by sender-c');
    assert.equal(await holder(processed), 'sender-c');
  });
});
