/**
 * A sender's claim is a HOT update (decision 0076): it changes no indexed column, and the
 * deliveries' pages leave room for the new version, so a claim writes no index entry and the
 * due index's front, where every claim reads, does not grow with each lease. Two guards: no index
 * of the table reads the lease columns, and claimed deliveries stay on their pages.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { claimDueDeliveries } from '../../src/events/webhooks/webhook-deliveries.queries.ts';
import { sql } from '../../src/infra/db/db.ts';
import { createTestDb, type TestDb, usingPostgresServer } from '../helpers/test-db.ts';

/** What the claim writes. */
const LEASE_COLUMNS = ['locked_by', 'locked_until', 'first_attempt_at'];

describe('webhook claims as HOT updates', () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(() => t?.cleanup());

  it('no index of the deliveries reads a column the claim writes, in its keys or its predicate', async () => {
    const { rows } = await t.db.query<{ def: string }>(
      sql(
        '',
        `SELECT pg_get_indexdef(i.indexrelid) AS def FROM pg_index i
          WHERE i.indrelid = 'webhook_deliveries'::regclass`,
      ),
    );
    assert.ok(rows.length >= 4, 'the table has its indexes');
    for (const { def } of rows)
      for (const column of LEASE_COLUMNS) assert.ok(!def.includes(column), `${def} reads ${column}`);
    const options = await t.db.query<{ o: string[] | null }>(
      sql('', `SELECT reloptions AS o FROM pg_class WHERE oid = 'webhook_deliveries'::regclass`),
    );
    assert.deepEqual(options.rows[0].o, ['fillfactor=50']);
  });

  it('claimed deliveries keep their place: the new version of each is on its page', async () => {
    const endpoint = (
      await t.db.query<{ id: string }>(
        sql(
          '',
          `INSERT INTO webhook_endpoints (url, import_suppliers, secret, cursor_xid, cursor_id)
           VALUES ('http://127.0.0.1:9/hooks', '{*}', 'secret', '0', 0) RETURNING id`,
        ),
      )
    ).rows[0].id;
    // Stored bodies (a test event's, or a delivery's from before migration 0032), 700 bytes each:
    // several pages of them, each full up to its fill factor.
    await t.db.query(
      sql(
        '',
        `INSERT INTO webhook_deliveries (endpoint_id, event_id, event_xid, feed_event_id, event_type,
                                         ordering_key, occurred_at, stored_body)
         SELECT $1, g, '1'::xid8, 'e' || g, 'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED', 'HOT/' || (g % 20), now(),
                repeat('x', 700)
           FROM generate_series(1, 60) g`,
      ),
      [endpoint],
    );
    const pages = sql(
      '',
      `SELECT id::text, (ctid::text::point)[0]::int AS page FROM webhook_deliveries ORDER BY id`,
    );
    const pagesBefore = (await t.db.query<{ id: string; page: number }>(pages)).rows;
    assert.ok(new Set(pagesBefore.map((r) => r.page)).size >= 5, 'the deliveries span several pages');
    // Twenty keys of three: twenty heads, each claimed with the two deliveries behind it.
    const claimed = await t.db.query(
      claimDueDeliveries({ senderId: 'hot-sender', leaseSeconds: 30, batchSize: 60, chainAfter: 3 }),
    );
    assert.equal(claimed.rows.length, 60);
    const pagesAfter = (await t.db.query<{ id: string; page: number }>(pages)).rows;
    const moved = pagesAfter.filter((r, i) => r.page !== pagesBefore[i].page).map((r) => r.id);
    assert.deepEqual(moved, [], 'deliveries whose claimed version went to another page');
  });
});

/** The claim has no parameters (decision 0108): the server never makes it a custom plan. */
describe('a webhook claim without parameters', () => {
  let t: TestDb;
  before(async () => {
    // One connection, so that every claim and the look at its prepared statements share it.
    t = await createTestDb({ poolSize: 1 });
  });
  after(() => t?.cleanup());

  it('writes its values into the statement, a quote and a backslash in the sender’s id included, and refuses what is not a count or a lease', async () => {
    await t.db.query(
      sql(
        '',
        `WITH e AS (
           INSERT INTO webhook_endpoints (url, import_suppliers, secret, cursor_xid, cursor_id)
           VALUES ('http://127.0.0.1:9/hooks', '{*}', 'secret', '0', 0) RETURNING id)
         INSERT INTO webhook_deliveries (endpoint_id, event_id, event_xid, feed_event_id, event_type,
                                         ordering_key, occurred_at, stored_body)
         SELECT e.id, g, '1'::xid8, 'e' || g, 'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED', 'K/' || g, now(), '{}'
           FROM e, generate_series(1, 12) g`,
      ),
    );
    const senderId = "it's me\\'; --";
    const claim = claimDueDeliveries({ senderId, leaseSeconds: 30, batchSize: 2, chainAfter: 0 });
    assert.equal(claim.text.includes('$'), false, 'no parameter');
    assert.deepEqual(claimDueDeliveries({ senderId, leaseSeconds: 30, batchSize: 2, chainAfter: 0 }), claim);
    assert.notEqual(
      claimDueDeliveries({ senderId, leaseSeconds: 30, batchSize: 3, chainAfter: 0 }).name,
      claim.name,
    );
    assert.ok(claim.name.length <= 63, claim.name);
    assert.equal((await t.db.query(claim)).rows.length, 2);
    const held = await t.db.query<{ by: string; secs: number }>(
      sql(
        '',
        `SELECT locked_by AS by, extract(epoch FROM locked_until - first_attempt_at)::int AS secs
           FROM webhook_deliveries WHERE locked_by IS NOT NULL`,
      ),
    );
    assert.deepEqual(
      held.rows.map((r) => [r.by, r.secs]),
      [
        [senderId, 30],
        [senderId, 30],
      ],
    );
    for (const bad of [
      { batchSize: 1.5 },
      { batchSize: 0 },
      { chainAfter: -1 },
      { leaseSeconds: 0 },
      { leaseSeconds: Number.NaN },
    ])
      assert.throws(() =>
        claimDueDeliveries({ senderId: 's', leaseSeconds: 30, batchSize: 2, chainAfter: 0, ...bad }),
      );
  });

  it('is never given a custom plan on a PostgreSQL server', {
    skip: !usingPostgresServer() && 'PGlite prepares no statement',
  }, async () => {
    const claim = claimDueDeliveries({
      senderId: 'planned-once',
      leaseSeconds: 30,
      batchSize: 1,
      chainAfter: 3,
    });
    for (let i = 0; i < 8; i++) await t.db.query(claim);
    const { rows } = await t.db.query<{ generic: number; custom: number }>(
      sql(
        '',
        `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE name = '${claim.name}'`,
      ),
    );
    assert.deepEqual(rows, [{ generic: 8, custom: 0 }]);
  });
});
