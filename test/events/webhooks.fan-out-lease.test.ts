/**
 * Webhook fan-out in one process of the fleet (decision 0102): of two processes' fan-out loops on
 * one database, only the holder of the fan-out lease runs rounds; the other reads nothing, however
 * often it is woken, until the holder stops and hands the lease on.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startWebhooks } from '../../src/events/webhooks/start-webhooks.ts';
import { startWebhookFanOut } from '../../src/events/webhooks/webhook-fan-out.ts';
import { sql } from '../../src/infra/db/db.ts';
import { fleetLease } from '../../src/infra/fleet-lease.ts';
import { countingDb } from '../helpers/counting-db.ts';
import { createTestDb, feedSettled, type TestDb } from '../helpers/test-db.ts';
import { addEvent, eventually } from './webhooks-helpers.ts';

const silent = { warn() {} };

describe('webhook fan-out under the fleet lease', () => {
  let tdb: TestDb;
  /** Every loop started, stopped at the end whatever the test came to. */
  const loops: { stop(): Promise<void> }[] = [];
  before(async () => {
    tdb = await createTestDb();
    await tdb.db.query(
      sql(
        '',
        `INSERT INTO webhook_endpoints (url, import_suppliers, secret, cursor_xid, cursor_id)
         VALUES ('http://127.0.0.1:9/', '{LEASED}', 'secret', '0', 0)`,
      ),
    );
  });
  after(async () => {
    for (const loop of loops) await loop.stop();
    await tdb?.cleanup();
  });

  const deliveries = async () =>
    (await tdb.db.query<{ n: number }>(sql('', 'SELECT count(*)::int AS n FROM webhook_deliveries'))).rows[0]
      .n;

  /**
   * A process's fan-out: its own lease (1 s) and its statements counted. With `clock`, the lease
   * reads time from it (the test moves it), so the process asks again only when the test says.
   */
  function processFanOut(clock?: { ms: number }) {
    const counted = countingDb(tdb.db);
    const lease = fleetLease(counted.db, 'webhook-fan-out', {
      seconds: 1,
      now: clock && (() => clock.ms),
    });
    const loop = startWebhookFanOut({ db: counted.db, logger: silent, idlePollMs: 20, lease });
    loops.push(loop);
    return { loop, lease, rounds: () => counted.calls('selectWebhookEndpointsBehind') };
  }

  it('runs rounds in the lease holder only, and in the other process once the holder stops', async () => {
    const first = processFanOut();
    await eventually(() => first.rounds() > 0, 5_000, 'the first process fans out');
    // The second asks once, then not again until its clock moves: however slow this machine, the
    // first keeps the lease meanwhile (it renews on a timer).
    const secondClock = { ms: 0 };
    const second = processFanOut(secondClock);
    for (let i = 1; i <= 20; i++) {
      await addEvent(tdb.db, 'LEASED', `L-${i}`, 'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED');
      first.loop.wake();
      second.loop.wake();
    }
    await feedSettled(tdb.db);
    await eventually(async () => (await deliveries()) === 20, 10_000, 'twenty deliveries');
    assert.equal(second.rounds(), 0, 'the process without the lease read the feed');

    await first.loop.stop();
    await first.lease.release();
    const before = first.rounds();
    for (let i = 21; i <= 30; i++)
      await addEvent(tdb.db, 'LEASED', `L-${i}`, 'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED');
    await feedSettled(tdb.db);
    // The other asks again when the lease it saw would have run out, and takes it.
    secondClock.ms = 60_000;
    await eventually(async () => (await deliveries()) === 30, 10_000, 'thirty deliveries');
    assert.ok(second.rounds() > 0);
    assert.equal(first.rounds(), before);
    await second.loop.stop();
    await second.lease.release();
  });

  it('hands the fan-out lease back when webhooks stop', async () => {
    const holders = async () =>
      (
        await tdb.db.query<{ n: number }>(
          sql('', "SELECT count(*)::int AS n FROM fleet_leases WHERE name = 'webhook-fan-out'"),
        )
      ).rows[0].n;
    const hooks = startWebhooks(
      { leaseSeconds: 30, pollMs: 20, concurrency: 4 },
      { db: tdb.db, logger: { info() {}, warn() {} } },
    );
    loops.push(hooks);
    await eventually(async () => (await holders()) === 1, 5_000, 'the fan-out lease taken');
    await hooks.stop();
    assert.equal(await holders(), 0);
  });
});
