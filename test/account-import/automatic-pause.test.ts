import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { startWorker } from '../../src/account-import/queue/worker.ts';
import { scheduleImportProcess } from '../../src/account-import/scheduling/scheduling.queries.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { admin, createTestApp, type TestApp } from '../helpers/test-app.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

const DAY = 86400e3;
const SETTING = { window: 10, share: 0.5 };

interface SupplierBody {
  status: string;
  config: Record<string, unknown>;
  automatic_pause: null | {
    paused_at: string;
    window: number;
    share: number;
    errored: number;
    top_error_codes: { code: string; count: number }[];
  };
}

describe('automatic pause (pause_when_errored)', () => {
  let t: TestApp;
  let n = 0;
  const metrics = new Registry();
  const logs: Record<string, unknown>[] = [];
  const logger = {
    info() {},
    warn: (o: Record<string, unknown>) => logs.push(o),
    error: (o: unknown) => console.error('ERR', o),
  };
  let holder: ReturnType<typeof accountFor>;

  before(async () => {
    t = await createTestApp({}, { metrics });
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'HOLD' });
    for (const code of ['AP', 'LOW', 'FEW', 'FILL'])
      await admin(t.app, 'POST', '/import-suppliers/', { code, config: { pause_when_errored: SETTING } });
    holder = accountFor('HOLD', ++n);
    await stage('HOLD', holder);
    await runWorkerUntilIdle(t.config, t.db, { logger, metrics });
  });
  after(() => t.close());

  async function stage(supplier: string, payload = accountFor(supplier, ++n), start = new Date()) {
    await scheduleImportProcess(t.db, {
      supplier,
      externalAccountNumber: String(payload.external_account_number),
      payload,
      isDryRun: false,
      scheduleWindowStart: start,
      scheduleWindowEnd: new Date(start.getTime() + 4 * DAY),
      explicitWindow: true,
    });
    return String(payload.external_account_number);
  }
  /**
   * An account whose meter point HOLD's account has: the worker ends it ERRORED. Scheduling
   * would refuse it (decision 0064), so the reservations are forgotten first, as if it had been
   * written around the API.
   */
  async function stageFailing(supplier: string) {
    const clash = accountFor(supplier, ++n);
    clash.supply_addresses[0].meter_points[0].identifier =
      holder.supply_addresses[0].meter_points[0].identifier;
    await t.db.query(sql('', 'DELETE FROM identifier_reservations'));
    return stage(supplier, clash);
  }
  const supplier = (code: string) => admin<SupplierBody>(t.app, 'GET', `/import-suppliers/${code}/`);
  const statuses = async (code: string) =>
    (
      await t.db.query<{ status: string; n: number }>(
        sql(
          '',
          'SELECT status, count(*)::int AS n FROM import_processes WHERE import_supplier = $1 GROUP BY status ORDER BY status',
        ),
        [code],
      )
    ).rows.reduce<Record<string, number>>((all, r) => Object.assign(all, { [r.status]: r.n }), {});
  const pausesCounted = async (code: string) =>
    (await metrics.getSingleMetric('ferry_supplier_automatic_pauses_total')?.get())?.values.find(
      (v) => v.labels.supplier === code,
    )?.value ?? 0;
  const supplierEvents = async (code: string) =>
    (
      await t.db.query<{ event: string; data: unknown }>(
        sql('', 'SELECT event, data FROM import_supplier_events WHERE import_supplier = $1 ORDER BY id'),
        [code],
      )
    ).rows;

  it('pauses the supplier when half of its last 10 finished ERRORED; its PENDING work waits for the resume', async () => {
    for (let i = 0; i < 6; i++) await stageFailing('AP');
    for (let i = 0; i < 4; i++) await stage('AP');
    // Scheduled with the others, due only once the supplier is paused (no worker may take them first).
    for (let i = 0; i < 3; i++) await stage('AP', undefined, new Date(Date.now() + DAY));
    await runWorkerUntilIdle(t.config, t.db, { logger, metrics });

    const paused = await supplier('AP');
    assert.equal(paused.status, 'Paused');
    const topCodes = [{ code: 'meter_point_on_another_account', count: 6 }];
    const { paused_at, ...pause } = paused.automatic_pause!;
    assert.deepEqual(pause, { window: 10, share: 0.5, errored: 6, top_error_codes: topCodes });
    assert.match(paused_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(await supplierEvents('AP'), [
      {
        event: 'EVENT_SUPPLIER_PAUSED',
        data: { reason: 'pause_when_errored', window: 10, share: 0.5, errored: 6, top_error_codes: topCodes },
      },
    ]);
    assert.equal(await pausesCounted('AP'), 1);
    const line = logs.find((l) => l.event === 'import_supplier_paused' && l.importSupplier === 'AP');
    assert.deepEqual(line, {
      event: 'import_supplier_paused',
      reason: 'pause_when_errored',
      importSupplier: 'AP',
      window: 10,
      share: 0.5,
      errored: 6,
      topErrorCodes: topCodes,
    });

    // Due now, but the supplier is paused: a worker leaves them PENDING.
    await t.db.query(
      sql(
        '',
        "UPDATE import_processes SET schedule_window_start = now() WHERE import_supplier = 'AP' AND status = 'PENDING'",
      ),
    );
    const worker = startWorker(t.config, { db: t.db, logger, idlePollMs: 20, metrics });
    await new Promise((r) => setTimeout(r, 300));
    await worker.stop();
    assert.deepEqual(await statuses('AP'), { ERRORED: 6, PENDING: 3, PROCESSED: 4 });

    await admin(t.app, 'PATCH', '/import-suppliers/AP/', { status: 'Ongoing' });
    assert.equal((await supplier('AP')).automatic_pause, null, 'resuming ends the automatic pause');
    await runWorkerUntilIdle(t.config, t.db, { logger, metrics });
    assert.deepEqual(await statuses('AP'), { ERRORED: 6, PROCESSED: 7 });
    assert.equal((await supplier('AP')).status, 'Ongoing');
    assert.equal(await pausesCounted('AP'), 1);
  });

  it('pauses nothing while fewer than half of the last 10 finished ERRORED', async () => {
    for (let i = 0; i < 4; i++) await stageFailing('LOW');
    for (let i = 0; i < 8; i++) await stage('LOW');
    await runWorkerUntilIdle(t.config, t.db, { logger, metrics });
    assert.deepEqual(await statuses('LOW'), { ERRORED: 4, PROCESSED: 8 });
    const s = await supplier('LOW');
    assert.equal(s.status, 'Ongoing');
    assert.equal(s.automatic_pause, null);
    assert.deepEqual(await supplierEvents('LOW'), []);
    assert.equal(await pausesCounted('LOW'), 0);
  });

  it('pauses nothing before the window is full, however many ERRORED', async () => {
    for (let i = 0; i < 6; i++) await stageFailing('FEW');
    await runWorkerUntilIdle(t.config, t.db, { logger, metrics });
    assert.deepEqual(await statuses('FEW'), { ERRORED: 6 });
    assert.equal((await supplier('FEW')).status, 'Ongoing');
    assert.equal(await pausesCounted('FEW'), 0);
  });

  it('pauses when a PROCESSED fills a window that already holds enough ERRORED', async () => {
    const worker = startWorker(t.config, { db: t.db, logger, idlePollMs: 20, metrics });
    const until = async (want: Record<string, number>) => {
      const deadline = Date.now() + 20_000;
      while (JSON.stringify(await statuses('FILL')) !== JSON.stringify(want)) {
        if (Date.now() > deadline) throw new Error(`FILL never reached ${JSON.stringify(want)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      for (let i = 0; i < 6; i++) await stageFailing('FILL');
      await until({ ERRORED: 6 });
      assert.equal((await supplier('FILL')).status, 'Ongoing', 'only 6 of 10 have finished');
      for (let i = 0; i < 4; i++) await stage('FILL');
      await until({ ERRORED: 6, PROCESSED: 4 });
    } finally {
      await worker.stop();
    }
    assert.equal((await supplier('FILL')).status, 'Paused');
    assert.equal(await pausesCounted('FILL'), 1);
  });

  it('leaves a supplier without the setting running, however many ERRORED', async () => {
    await admin(t.app, 'PATCH', '/import-suppliers/FEW/', { config: { pause_when_errored: null } });
    for (let i = 0; i < 6; i++) await stageFailing('FEW');
    await runWorkerUntilIdle(t.config, t.db, { logger, metrics });
    assert.deepEqual(await statuses('FEW'), { ERRORED: 12 });
    assert.equal((await supplier('FEW')).status, 'Ongoing');
  });
});
