import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { foldTallyChanges } from '../../src/account-import/metrics/import-metrics.queries.ts';
import { workerBatchDuration } from '../../src/account-import/metrics/worker-metrics.ts';
import { serveMetrics } from '../../src/http/metrics.ts';
import { sql } from '../../src/infra/db/db.ts';
import { IMPORT_PROCESS_STATUSES } from '../../src/vocabulary/import-process-states.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

type Samples = Map<string, number>;

/** The text exposition as `name{label="v",...}` → value, labels in the order the registry writes them. */
function parseMetrics(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

/** Every state of `supplier` as ferry_import_processes samples: the given counts, zero elsewhere. */
const processSamples = (supplier: string, counts: Record<string, number>) =>
  Object.fromEntries(
    IMPORT_PROCESS_STATUSES.map((s) => [
      `ferry_import_processes{supplier="${supplier}",status="${s}"}`,
      counts[s] ?? 0,
    ]),
  );

const HOUR = 3600e3;

describe('/metrics: the migration families', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  const metrics = new Registry();
  before(async () => {
    t = await createTestApp({}, { metrics });
    ({ headers } = await tokenFor(t.app, ['*'], ['M1', 'M2']));
  });
  after(() => t.close());

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    return parseMetrics(res.body);
  };
  const family = (samples: Samples, prefix: string) =>
    Object.fromEntries([...samples].filter(([k]) => k.startsWith(prefix)));
  const create = async (payload: unknown, taskParams: Record<string, unknown> = {}) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/data-import/accounts/',
      headers,
      payload: { payload, task_params: taskParams } as never,
    });
    assert.equal(res.statusCode, 201, res.body);
  };
  const tallyChanges = async () =>
    (await t.db.query<{ n: number }>(sql('', 'SELECT count(*)::int AS n FROM import_process_tally_changes')))
      .rows[0].n;

  it('counts a small migration exactly: processes per state, accounts created, errors by code, queue lag, batches', async () => {
    const before = await scrape();
    assert.deepEqual(family(before, 'ferry_import_processes{'), {});
    assert.deepEqual(family(before, 'ferry_accounts_created_total'), {});
    assert.deepEqual(family(before, 'ferry_import_errors_total{'), {});
    assert.equal(before.get('ferry_import_queue_lag_seconds'), 0);

    const a1 = accountFor('M1', 1);
    await create(a1);
    await create(accountFor('M1', 2));
    await create(accountFor('M1', 3));
    // Its electricity meter point is a1's: the worker creates a1 (staged first) and fails this one.
    const clash = accountFor('M1', 4);
    clash.supply_addresses[0].meter_points[0].identifier = a1.supply_addresses[0].meter_points[0].identifier;
    // Scheduling refuses it while a1 holds the meter point (decision 0064): staged as if a1 had
    // never reserved, so that only the worker's check is left to fail it.
    await t.db.exec('DELETE FROM identifier_reservations');
    await create(clash);
    const later = accountFor('M1', 5);
    await create(later, { schedule_window_start: new Date(Date.now() + 24 * HOUR).toISOString() });
    await create(accountFor('M2', 6));
    // Due for an hour already: the queue lag (a client cannot ask for a window in the past).
    await create(accountFor('M2', 7));
    await t.db.exec(
      `UPDATE import_processes SET schedule_window_start = now() - interval '1 hour'
        WHERE external_account_number = '${accountFor('M2', 7).external_account_number}'`,
    );

    const staged = await scrape();
    assert.deepEqual(family(staged, 'ferry_import_processes{'), {
      ...processSamples('M1', { PENDING: 5 }),
      ...processSamples('M2', { PENDING: 2 }),
    });
    assert.deepEqual(family(staged, 'ferry_accounts_created_total'), {
      'ferry_accounts_created_total{supplier="M1"}': 0,
      'ferry_accounts_created_total{supplier="M2"}': 0,
    });
    const lag = staged.get('ferry_import_queue_lag_seconds')!;
    assert.ok(lag >= 3600 && lag < 3660, `queue lag ${lag}`);

    await admin(t.app, 'POST', `/import-processes/M1/${later.external_account_number}/cancel/`);
    await runWorkerUntilIdle(t.config, t.db, { metrics });

    const done = await scrape();
    assert.deepEqual(family(done, 'ferry_import_processes{'), {
      ...processSamples('M1', { PROCESSED: 3, ERRORED: 1, CANCELLED: 1 }),
      ...processSamples('M2', { PROCESSED: 2 }),
    });
    assert.deepEqual(family(done, 'ferry_accounts_created_total'), {
      'ferry_accounts_created_total{supplier="M1"}': 3,
      'ferry_accounts_created_total{supplier="M2"}': 2,
    });
    assert.deepEqual(family(done, 'ferry_import_errors_total{'), {
      'ferry_import_errors_total{supplier="M1",code="meter_point_on_another_account"}': 1,
    });
    assert.equal(done.get('ferry_import_queue_lag_seconds'), 0);
    const batches = done.get('ferry_worker_batch_duration_seconds_count')!;
    assert.ok(batches >= 1, 'the worker observed its batches');
    assert.ok(done.get('ferry_worker_batch_duration_seconds_sum')! > 0);

    // A retry that fails again: one more error, still one process ERRORED.
    await admin(t.app, 'POST', `/import-processes/M1/${clash.external_account_number}/retry/`);
    await runWorkerUntilIdle(t.config, t.db, { metrics });
    const retried = await scrape();
    assert.equal(retried.get('ferry_import_processes{supplier="M1",status="ERRORED"}'), 1);
    assert.deepEqual(family(retried, 'ferry_import_errors_total{'), {
      'ferry_import_errors_total{supplier="M1",code="meter_point_on_another_account"}': 2,
    });
    assert.equal(retried.get('ferry_accounts_created_total{supplier="M1"}'), 3);
    assert.equal(retried.get('ferry_accounts_created_total{supplier="M2"}'), 2);

    // Folding the changes into the tallies changes no value.
    assert.ok((await tallyChanges()) > 0);
    await t.db.query(foldTallyChanges);
    assert.equal(await tallyChanges(), 0);
    const folded = await scrape();
    for (const prefix of [
      'ferry_import_processes{',
      'ferry_accounts_created_total',
      'ferry_import_errors_total',
    ]) {
      assert.deepEqual(family(folded, prefix), family(retried, prefix));
    }
  });

  it('keeps the tallies equal to a count of the processes, whatever path moved them', async () => {
    // V1 staging and processing in the request, a bulk cancel, and a lease that expired.
    const v1 = accountFor('M2', 20);
    const staged = await t.app.inject({
      method: 'POST',
      url: '/v1/data-import/account-import-process/create-or-update/',
      headers,
      payload: v1 as never,
    });
    assert.equal(staged.statusCode, 201, staged.body);
    const processed = await t.app.inject({
      method: 'POST',
      url: '/v1/data-import/account-import-process/process/',
      headers,
      payload: { import_supplier_code: 'M2', external_account_number: v1.external_account_number } as never,
    });
    assert.equal(processed.statusCode, 201, processed.body);
    for (const n of [21, 22]) {
      await create(accountFor('M2', n), { schedule_window_start: new Date(Date.now() + HOUR).toISOString() });
    }
    await admin(t.app, 'POST', '/import-processes/cancel/', { supplier: 'M2', status: 'PENDING' });
    await create(accountFor('M1', 23));
    await t.db.exec(
      `UPDATE import_processes SET status = 'IN_PROGRESS', locked_by = 'gone', locked_until = now() - interval '1 second'
        WHERE external_account_number = '${accountFor('M1', 23).external_account_number}'`,
    );
    await runWorkerUntilIdle(t.config, t.db);

    const counted = (
      await t.db.query<{ import_supplier: string; status: string; n: number }>(
        sql('', 'SELECT import_supplier, status, count(*)::int AS n FROM import_processes GROUP BY 1, 2'),
      )
    ).rows;
    const expected: Record<string, number> = {
      ...processSamples('M1', {}),
      ...processSamples('M2', {}),
    };
    for (const r of counted)
      expected[`ferry_import_processes{supplier="${r.import_supplier}",status="${r.status}"}`] = r.n;
    assert.deepEqual(family(await scrape(), 'ferry_import_processes{'), expected);
    const accounts = (
      await t.db.query<{ import_supplier: string; n: number }>(
        sql('', 'SELECT import_supplier, count(*)::int AS n FROM accounts GROUP BY 1'),
      )
    ).rows;
    assert.deepEqual(
      family(await scrape(), 'ferry_accounts_created_total'),
      Object.fromEntries(
        accounts.map((r) => [`ferry_accounts_created_total{supplier="${r.import_supplier}"}`, r.n]),
      ),
    );
  });

  it("serves a worker process's own registry on its metrics port (`ferry worker` with METRICS_PORT)", async () => {
    const own = new Registry();
    workerBatchDuration(own).observe(0.2);
    const server = await serveMetrics(own, { port: 0, host: '127.0.0.1' });
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await fetch(`${base}/metrics`);
      assert.equal(res.status, 200);
      assert.equal(parseMetrics(await res.text()).get('ferry_worker_batch_duration_seconds_count'), 1);
      assert.equal((await fetch(`${base}/other`)).status, 404);
    } finally {
      server.close();
    }
  });
});
