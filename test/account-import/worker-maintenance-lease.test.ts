/**
 * The import queue's upkeep in one worker process of the fleet (decision 0102): of two workers on
 * one database, only the holder of the maintenance lease looks for expired leases and closed
 * windows; once it stops, the other does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startWorker, type WorkerHandle } from '../../src/account-import/queue/worker.ts';
import { sql } from '../../src/infra/db/db.ts';
import { countingDb } from '../helpers/counting-db.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

const quiet = { info() {}, warn() {}, error() {} };

describe('queue maintenance under the fleet lease', () => {
  let t: TestApp;
  const workers: WorkerHandle[] = [];
  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    for (const w of workers) await w.stop();
    await t?.close();
  });

  function worker() {
    const counted = countingDb(t.db);
    const handle = startWorker(t.config, {
      db: counted.db,
      logger: quiet,
      idlePollMs: 50,
      idlePollMaxMs: 50,
    });
    workers.push(handle);
    return { handle, sweeps: () => counted.calls('releaseExpiredLeases') };
  }
  const waitFor = async (check: () => boolean, ms: number, what: string) => {
    const deadline = Date.now() + ms;
    while (!check()) {
      assert.ok(Date.now() < deadline, `${what} within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  it('runs in the lease holder only, and in the other worker once the holder stops', async () => {
    const first = worker();
    await waitFor(() => first.sweeps() > 0, 5_000, 'the first worker maintains the queue');
    const second = worker();
    // Three seconds: each would have swept about three times.
    await new Promise((r) => setTimeout(r, 3_000));
    assert.ok(first.sweeps() >= 2, `${first.sweeps()} sweeps by the holder`);
    assert.equal(second.sweeps(), 0, 'the worker without the lease swept the queue');

    await first.handle.stop();
    // The other asks again when the lease it saw would have run out (5 s), and takes it.
    await waitFor(() => second.sweeps() > 0, 10_000, 'the second worker maintains the queue');
    await second.handle.stop();
  });

  it('hands the lease back when the worker stops', async () => {
    const only = worker();
    await waitFor(() => only.sweeps() > 0, 10_000, 'the worker maintains the queue');
    await only.handle.stop();
    const { rows } = await t.db.query<{ n: number }>(
      sql('', "SELECT count(*)::int AS n FROM fleet_leases WHERE name = 'import-queue-maintenance'"),
    );
    assert.equal(rows[0].n, 0);
  });
});
