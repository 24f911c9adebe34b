import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { scheduleImportProcess } from '../../src/account-import/scheduling/scheduling.queries.ts';
import { findImportProcessStatus } from '../../src/account-import/status/status.queries.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { admin, createTestApp, type TestApp } from '../helpers/test-app.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

const DAY = 86400e3;

describe('account-creation worker', () => {
  let t: TestApp;
  let n = 0;
  before(async () => {
    t = await createTestApp();
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'W' });
    await admin(t.app, 'POST', '/import-suppliers/', {
      code: 'WELCOME',
      config: { send_welcome_emails: true },
    });
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'DRY', config: { dry_run_only: true } });
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'HELD', status: 'Paused' });
  });
  after(() => t.close());

  async function stage(
    supplier: string,
    opts: { payload?: Record<string, unknown>; dryRun?: boolean; start?: Date; end?: Date } = {},
  ) {
    const payload = opts.payload ?? accountFor(supplier, ++n);
    const start = opts.start ?? new Date();
    const outcome = await scheduleImportProcess(t.db, {
      supplier,
      externalAccountNumber: String(payload.external_account_number),
      payload,
      isDryRun: opts.dryRun ?? false,
      scheduleWindowStart: start,
      scheduleWindowEnd: opts.end ?? new Date(start.getTime() + 4 * DAY),
      explicitWindow: opts.start !== undefined || opts.end !== undefined,
    });
    return { payload, external: String(payload.external_account_number), outcome };
  }
  const status = (supplier: string, external: string) => findImportProcessStatus(t.db, supplier, external);
  /**
   * Scheduling refuses an account whose identifiers another process holds (decision 0064); the
   * worker's own check stays behind it. Its tests stage conflicts as if the holder had never
   * reserved (as processes written around the API would).
   */
  const forgetReservations = () => t.db.query(sql('', 'DELETE FROM identifier_reservations'));
  const count = async (table: string, accountNumber: string, via = 'account_id') =>
    (
      await t.db.query<{ n: number }>(
        sql(
          '',
          `SELECT count(*)::int AS n FROM ${table} x JOIN accounts a ON a.id = x.${via} WHERE a.number = $1`,
        ),
        [accountNumber],
      )
    ).rows[0].n;
  const events = async (supplier: string, external: string) =>
    (
      await admin<{ events: { event: string }[] }>(t.app, 'GET', `/import-processes/${supplier}/${external}/`)
    ).events.map((e) => e.event.replace('EVENT_ACCOUNT_IMPORT_PROCESS_', ''));

  it('creates the account with every record and the full payload, then PROCESSED', async () => {
    const { payload, external } = await stage('W');
    await runWorkerUntilIdle(t.config, t.db);
    const s = (await status('W', external))!;
    assert.equal(s.status, 'PROCESSED');
    assert.match(s.account_number!, /^A-[0-9A-F]{8}$/);
    const acc = (
      await t.db.query<Record<string, unknown>>(
        // The payload is kept on the account's process (migration 0029).
        sql(
          '',
          'SELECT a.*, p.payload FROM accounts a JOIN import_processes p ON p.id = a.import_process_id WHERE a.number = $1',
        ),
        [s.account_number],
      )
    ).rows[0];
    assert.deepEqual(acc.payload, payload);
    assert.equal(String(acc.balance), '30.00');
    const counts = {
      account_customers: await count('account_customers', s.account_number!),
      supply_addresses: await count('supply_addresses', s.account_number!),
      meter_points: await count('meter_points', s.account_number!),
      ledgers: await count('ledgers', s.account_number!),
      transactions: await count('transactions', s.account_number!),
      statements: await count('statements', s.account_number!),
      notes: await count('notes', s.account_number!),
      payment_schedules: await count('payment_schedules', s.account_number!),
      account_references: await count('account_references', s.account_number!),
      account_metadata: await count('account_metadata', s.account_number!),
      billing_addresses: await count('billing_addresses', s.account_number!),
    };
    assert.deepEqual(counts, {
      account_customers: 1,
      supply_addresses: 1,
      meter_points: 2,
      ledgers: 1,
      transactions: 4,
      statements: 2,
      notes: 1,
      payment_schedules: 2,
      account_references: 1,
      account_metadata: 1,
      billing_addresses: 1,
    });
    const deep = (
      await t.db.query<Record<string, number>>(
        sql(
          '',
          `SELECT (SELECT count(*)::int FROM meters m JOIN meter_points mp ON mp.id = m.meter_point_id WHERE mp.account_id = a.id) AS meters,
                  (SELECT count(*)::int FROM registers r JOIN meters m ON m.id = r.meter_id JOIN meter_points mp ON mp.id = m.meter_point_id WHERE mp.account_id = a.id) AS registers,
                  (SELECT count(*)::int FROM readings r JOIN meters m ON m.id = r.meter_id JOIN meter_points mp ON mp.id = m.meter_point_id WHERE mp.account_id = a.id) AS readings,
                  (SELECT count(*)::int FROM agreements g JOIN meter_points mp ON mp.id = g.meter_point_id WHERE mp.account_id = a.id) AS agreements,
                  a.open_statement_start::text AS open_start
             FROM accounts a WHERE a.number = $1`,
        ),
        [s.account_number],
      )
    ).rows[0];
    assert.deepEqual(deep, { meters: 2, registers: 2, readings: 4, agreements: 2, open_start: '2019-08-01' });
    assert.deepEqual(await events('W', external), ['CREATED', 'STARTED', 'PROCESSED']);
  });

  it('records a welcome e-mail only for suppliers that send them', async () => {
    const a = await stage('WELCOME');
    const b = await stage('W');
    await runWorkerUntilIdle(t.config, t.db);
    const outbox = async (sup: string, ext: string) =>
      (
        await t.db.query<{ recipient: string }>(
          sql(
            '',
            "SELECT o.recipient FROM email_outbox o JOIN accounts a ON a.id = o.account_id WHERE a.import_supplier = $1 AND a.external_account_number = $2 AND o.kind = 'welcome'",
          ),
          [sup, ext],
        )
      ).rows;
    assert.deepEqual(await outbox('WELCOME', a.external), [{ recipient: 'bob@jablonski.com' }]);
    assert.deepEqual(await outbox('W', b.external), []);
  });

  it('dry runs do the whole creation and roll it back: DRY_RUN_SUCCEEDED, no account', async () => {
    const a = await stage('W', { dryRun: true });
    const b = await stage('DRY');
    await runWorkerUntilIdle(t.config, t.db);
    for (const [sup, ext] of [
      ['W', a.external],
      ['DRY', b.external],
    ]) {
      const s = (await status(sup, ext))!;
      assert.equal(s.status, 'DRY_RUN_SUCCEEDED');
      assert.equal(s.account_number, null);
    }
    const { rows } = await t.db.query<{ n: number }>(
      sql('', 'SELECT count(*)::int AS n FROM meter_points WHERE identifier = $1'),
      [a.payload.supply_addresses[0].meter_points[0].identifier],
    );
    assert.equal(rows[0].n, 0);
    assert.deepEqual(await events('W', a.external), ['CREATED', 'STARTED', 'DRY_RUN_SUCCEEDED']);
  });

  it('ends ERRORED (or DRY_RUN_ERRORED) when a meter point is already on another account', async () => {
    const first = await stage('W');
    await runWorkerUntilIdle(t.config, t.db);
    const clash = accountFor('W', ++n);
    clash.supply_addresses[0].meter_points[0].identifier =
      first.payload.supply_addresses[0].meter_points[0].identifier;
    await forgetReservations();
    const real = await stage('W', { payload: clash });
    await forgetReservations();
    const dry = await stage('W', {
      payload: { ...structuredClone(clash), external_account_number: 'DRY-CLASH' },
      dryRun: true,
    });
    await runWorkerUntilIdle(t.config, t.db);
    const e = (await status('W', real.external))!;
    assert.equal(e.status, 'ERRORED');
    assert.equal(e.latest_error!.code, 'meter_point_on_another_account');
    assert.equal(e.latest_error!.domain, 'account_import');
    assert.equal((await status('W', dry.external))!.status, 'DRY_RUN_ERRORED');
    const { rows } = await t.db.query<{ n: number }>(
      sql(
        '',
        "SELECT count(*)::int AS n FROM accounts WHERE external_account_number = $1 AND import_supplier = 'W'",
      ),
      [real.external],
    );
    assert.equal(rows[0].n, 0, 'nothing of the failed account remains');
  });

  const createdAtOf = async (externals: string[]) =>
    (
      await t.db.query<{ created_at: Date }>(
        sql(
          '',
          "SELECT created_at FROM accounts WHERE import_supplier = 'W' AND external_account_number = ANY($1)",
        ),
        [externals],
      )
    ).rows.map((r) => r.created_at.toISOString());

  it('creates a claimed batch in one transaction, each process with its own account and events', async () => {
    const staged = [];
    for (let i = 0; i < 6; i++) staged.push(await stage('W'));
    await runWorkerUntilIdle(t.config, t.db);
    const numbers = new Set<string>();
    for (const { external, payload } of staged) {
      const s = (await status('W', external))!;
      assert.equal(s.status, 'PROCESSED');
      numbers.add(s.account_number!);
      assert.equal(await count('meter_points', s.account_number!), 2);
      const acc = (
        await t.db.query<{ payload: unknown }>(
          sql(
            '',
            'SELECT p.payload FROM accounts a JOIN import_processes p ON p.id = a.import_process_id WHERE a.number = $1',
          ),
          [s.account_number],
        )
      ).rows[0];
      assert.deepEqual(acc.payload, payload, 'each account keeps its own payload');
      assert.deepEqual(await events('W', external), ['CREATED', 'STARTED', 'PROCESSED']);
    }
    assert.equal(numbers.size, 6);
    // now() is the transaction's start: one value for all six means one transaction. The worker's
    // two lanes claim in turn, so the six staged before it started are one claim, not two halves.
    assert.equal(new Set(await createdAtOf(staged.map((x) => x.external))).size, 1);
  });

  it('a batch with one failing account creates the others and fails only that one', async () => {
    const first = await stage('W');
    await runWorkerUntilIdle(t.config, t.db);
    const good = [await stage('W'), await stage('W')];
    const clash = accountFor('W', ++n);
    clash.supply_addresses[0].meter_points[1].identifier =
      first.payload.supply_addresses[0].meter_points[1].identifier;
    await forgetReservations();
    const bad = await stage('W', { payload: clash });
    // Two accounts of the same batch bringing the same meter point: the first one staged wins.
    const twinA = accountFor('W', ++n);
    const twinB = accountFor('W', ++n);
    twinB.supply_addresses[0].meter_points[0].identifier =
      twinA.supply_addresses[0].meter_points[0].identifier;
    const a = await stage('W', { payload: twinA });
    await forgetReservations();
    const b = await stage('W', { payload: twinB });
    good.push(await stage('W'));
    await runWorkerUntilIdle(t.config, t.db);
    for (const g of [...good, a]) assert.equal((await status('W', g.external))!.status, 'PROCESSED');
    for (const x of [bad, b]) {
      const e = (await status('W', x.external))!;
      assert.equal(e.status, 'ERRORED');
      assert.equal(e.latest_error!.code, 'meter_point_on_another_account');
      assert.deepEqual(await events('W', x.external), ['CREATED', 'STARTED', 'ERRORED']);
    }
    assert.deepEqual(await createdAtOf([bad.external, b.external]), []);
  });

  it("leaves a paused supplier's work PENDING until it is Ongoing again", async () => {
    const { external } = await stage('HELD');
    await runWorkerUntilIdle(t.config, t.db);
    assert.equal((await status('HELD', external))!.status, 'PENDING');
    await admin(t.app, 'PATCH', '/import-suppliers/HELD/', { status: 'Ongoing' });
    await runWorkerUntilIdle(t.config, t.db);
    assert.equal((await status('HELD', external))!.status, 'PROCESSED');
  });

  it('does not start a process before its schedule window', async () => {
    const { external } = await stage('W', { start: new Date(Date.now() + DAY) });
    await runWorkerUntilIdle(t.config, t.db);
    assert.equal((await status('W', external))!.status, 'PENDING');
  });

  it('ends a process not started by the end of its window ERRORED with schedule_window_expired', async () => {
    const { external } = await stage('W', {
      start: new Date(Date.now() - 2 * DAY),
      end: new Date(Date.now() - DAY),
    });
    await runWorkerUntilIdle(t.config, t.db);
    const s = (await status('W', external))!;
    assert.equal(s.status, 'ERRORED');
    assert.equal(s.latest_error!.code, 'schedule_window_expired');
  });

  it('hands a process whose lease expired back to PENDING, and it is then created once', async () => {
    const { external } = await stage('W');
    // A worker that claimed it and vanished: IN_PROGRESS with a lease already over.
    await t.db.query(
      sql(
        '',
        "UPDATE import_processes SET status = 'IN_PROGRESS', locked_by = 'gone', locked_until = now() - interval '1 second' WHERE external_account_number = $1",
      ),
      [external],
    );
    await runWorkerUntilIdle(t.config, t.db);
    assert.equal((await status('W', external))!.status, 'PROCESSED');
    const evs = await events('W', external);
    assert.deepEqual(evs, ['CREATED', 'CREATED', 'STARTED', 'PROCESSED']);
  });

  it('applies the re-scheduling rules', async () => {
    const { payload, external } = await stage('W');
    assert.equal((await stage('W', { payload })).outcome.kind, 'unchanged');
    const changed = { ...payload, billing_name: 'Someone Else' };
    assert.equal((await stage('W', { payload: changed })).outcome.kind, 'rescheduled');
    await t.db.query(
      sql('', "UPDATE import_processes SET status = 'IN_PROGRESS' WHERE external_account_number = $1"),
      [external],
    );
    assert.equal((await stage('W', { payload })).outcome.kind, 'in_progress');
    await t.db.query(
      sql('', "UPDATE import_processes SET status = 'PENDING' WHERE external_account_number = $1"),
      [external],
    );
    await runWorkerUntilIdle(t.config, t.db);
    const done = await stage('W', { payload });
    assert.equal(done.outcome.kind, 'already_imported');
    for (const from of ['ERRORED', 'CANCELLED', 'DRY_RUN_SUCCEEDED', 'DRY_RUN_ERRORED']) {
      const p = await stage('W');
      await t.db.query(
        sql('', 'UPDATE import_processes SET status = $2 WHERE external_account_number = $1'),
        [p.external, from],
      );
      assert.equal((await stage('W', { payload: p.payload })).outcome.kind, 'rescheduled', from);
      assert.equal((await status('W', p.external))!.status, 'PENDING', from);
    }
  });
});
