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
import { createTestDb, type TestDb } from '../helpers/test-db.ts';

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
    const claimed = await t.db.query(claimDueDeliveries, ['hot-sender', 60, 30, 3]);
    assert.equal(claimed.rows.length, 60);
    const pagesAfter = (await t.db.query<{ id: string; page: number }>(pages)).rows;
    const moved = pagesAfter.filter((r, i) => r.page !== pagesBefore[i].page).map((r) => r.id);
    assert.deepEqual(moved, [], 'deliveries whose claimed version went to another page');
  });
});
