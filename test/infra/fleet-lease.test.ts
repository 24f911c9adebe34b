/**
 * Fleet leases (decision 0102): one holder at a time; a holder keeps its lease by renewing it and
 * hands it back when it stops; another process takes a lease that ran out; asking costs a
 * statement only when the answer may have changed. Each lease here is a process of its own (its
 * own holder name), with a clock the test moves.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from '../../src/infra/db/db.ts';
import { fleetLease } from '../../src/infra/fleet-lease.ts';
import { countingDb } from '../helpers/counting-db.ts';
import { createTestDb, type TestDb } from '../helpers/test-db.ts';

describe('fleet leases', () => {
  let tdb: TestDb;
  before(async () => {
    tdb = await createTestDb();
  });
  after(async () => {
    await tdb?.cleanup();
  });

  /**
   * A process's lease `name`, its clock at 0 ms until the test moves it, and its statements
   * counted. The holder's renewal timer runs in real time: each test releases what it took.
   */
  function processLease(name: string, seconds: number) {
    const counted = countingDb(tdb.db);
    const clock = { ms: 0 };
    const lease = fleetLease(counted.db, name, { seconds, now: () => clock.ms });
    return { lease, clock, asked: () => counted.calls('takeFleetLease') };
  }
  const holderOf = async (name: string) =>
    (
      await tdb.db.query<{ holder: string }>(sql('', 'SELECT holder FROM fleet_leases WHERE name = $1'), [
        name,
      ])
    ).rows[0]?.holder ?? null;

  it('has one holder at a time; the others ask again only when the lease they saw runs out', async () => {
    const a = processLease('one-holder', 60);
    const b = processLease('one-holder', 60);
    assert.equal(await a.lease.held(), true);
    assert.equal(await b.lease.held(), false);
    assert.equal(await holderOf('one-holder'), a.lease.holder);
    // Neither asks again before it is time: the holder before a third of its lease is left, the
    // other before the lease runs out.
    a.clock.ms = 39_000;
    b.clock.ms = 59_000;
    assert.equal(await a.lease.held(), true);
    assert.equal(await b.lease.held(), false);
    assert.deepEqual([a.asked(), b.asked()], [1, 1]);
    // Concurrent callers share one statement.
    a.clock.ms = 41_000;
    assert.deepEqual(await Promise.all([a.lease.held(), a.lease.held(), a.lease.held()]), [true, true, true]);
    assert.equal(a.asked(), 2);
    // At the time it saw the lease end, the other asks again, and the holder has renewed it.
    b.clock.ms = 61_000;
    assert.equal(await b.lease.held(), false);
    assert.equal(b.asked(), 2);
    await a.lease.release();
  });

  it('passes to another process once the holder hands it back', async () => {
    const a = processLease('handed-back', 60);
    const b = processLease('handed-back', 60);
    assert.equal(await a.lease.held(), true);
    assert.equal(await b.lease.held(), false);
    await a.lease.release();
    assert.equal(await holderOf('handed-back'), null);
    b.clock.ms = 60_000;
    assert.equal(await b.lease.held(), true);
    // Handing back is final: the first no longer asks, and a second release changes nothing.
    assert.equal(await a.lease.held(), false);
    assert.equal(a.asked(), 1);
    await a.lease.release();
    assert.equal(await holderOf('handed-back'), b.lease.holder);
    await b.lease.release();
  });

  it('is kept by renewing it, even when nothing asks, and taken over once its holder stops', async () => {
    const a = processLease('renewed', 2);
    const b = processLease('renewed', 2);
    assert.equal(await a.lease.held(), true);
    const until = async () =>
      (
        await tdb.db.query<{ ms: number }>(
          sql(
            '',
            'SELECT (extract(epoch FROM until) * 1000)::float8 AS ms FROM fleet_leases WHERE name = $1',
          ),
          ['renewed'],
        )
      ).rows[0].ms;
    const first = await until();
    // Past the first lease's end, without a call of held(): the holder's timer renewed it.
    await new Promise((r) => setTimeout(r, 2_500));
    assert.ok(a.asked() >= 2, `${a.asked()} statements of the holder`);
    assert.ok((await until()) > first, 'the lease was not renewed');
    b.clock.ms = 10_000;
    assert.equal(await b.lease.held(), false);
    // The holder stops renewing (its process hangs, say): once the lease runs out, another takes it.
    await a.lease.release();
    assert.equal(await holderOf('renewed'), null);
    await tdb.db.query(
      sql(
        '',
        "INSERT INTO fleet_leases (name, holder, until) VALUES ('renewed', $1, now() + interval '1 second')",
      ),
      [a.lease.holder],
    );
    b.clock.ms = 20_000;
    assert.equal(await b.lease.held(), false);
    await new Promise((r) => setTimeout(r, 1_200));
    b.clock.ms = 30_000;
    assert.equal(await b.lease.held(), true);
    await b.lease.release();
  });

  it('tells a holder that lost its lease so, at its next ask', async () => {
    const a = processLease('lost', 60);
    const b = processLease('lost', 60);
    assert.equal(await a.lease.held(), true);
    // As if a's lease had run out and b had taken it.
    await tdb.db.query(
      sql('', "UPDATE fleet_leases SET until = now() - interval '1 second' WHERE name = 'lost'"),
    );
    b.clock.ms = 100_000;
    assert.equal(await b.lease.held(), true);
    a.clock.ms = 100_000;
    assert.equal(await a.lease.held(), false);
    assert.equal(await holderOf('lost'), b.lease.holder);
    await b.lease.release();
  });
});
