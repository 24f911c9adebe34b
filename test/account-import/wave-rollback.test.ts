/**
 * Rolling back a wave before its approval (decision 0070): every account the wave created and
 * every row of them removed in one transaction, the processes CANCELLED with their ROLLED_BACK
 * event and their reservations released, so the same book pushed again gives the same result;
 * a dry run changes nothing; refused after approval and once a welcome e-mail went out.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ACCOUNT_TABLES,
  DETACHED_TABLES,
  ROLLBACK_TABLES,
} from '../../src/account-import/waves/wave-rollback.queries.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { foreignKeys, rowCounts, scheduleInWave, tablesHangingOff } from '../helpers/waves.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

// biome-ignore lint/suspicious/noExplicitAny: answer bodies as JSON
type Obj = Record<string, any>;

const SUPPLIER = 'ROLLING';
const OTHER = 'ROLLING_OTHER';

const processesOf = sql(
  '',
  `SELECT p.id, p.external_account_number, p.status, p.account_id, p.latest_event->>'event' AS latest,
          (SELECT array_agg(e.event ORDER BY e.id) FROM import_process_events e WHERE e.import_process_id = p.id) AS events,
          (SELECT count(*)::int FROM identifier_reservations r WHERE r.import_process_id = p.id) AS reservations
     FROM import_processes p WHERE p.import_supplier = $1 AND p.wave IS NOT DISTINCT FROM $2
    ORDER BY p.external_account_number`,
);

/** A follow-up of every kind the account payload does not bring, on the wave's accounts. */
const addFollowUps = sql(
  '',
  `WITH wave_accounts AS (
     SELECT a.id FROM accounts a JOIN import_processes p ON p.account_id = a.id
      WHERE p.import_supplier = $1 AND p.wave = $2
   ), pi AS (
     INSERT INTO payment_instructions (account_id, vendor, type, reference, status, active)
     SELECT id, 'GOCARDLESS', 'DIRECT_DEBIT', 'MD' || id, 'active', true FROM wave_accounts
   )
   INSERT INTO account_metadata (account_id, key, value)
   SELECT id, 'rollback-test', '"x"'::jsonb FROM wave_accounts
   ON CONFLICT DO NOTHING`,
);

describe('wave rollback', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let tables: string[];

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' });
    ({ headers } = await tokenFor(t.app, [SUPPLIER, OTHER]));
    await admin(
      t.app,
      'PATCH',
      `/import-suppliers/${SUPPLIER}/`,
      { config: { send_welcome_emails: true } },
      200,
    );
    const keys = await foreignKeys(t.db);
    // The tables of accounts by the catalog (the processes stay: they are not counted).
    const hanging = tablesHangingOff(keys, 'accounts', new Set(['import_processes']));
    tables = [...hanging].filter((table) => table !== 'import_processes').concat('accounts');
  });
  after(() => t.close());

  const rollback = (supplier: string, wave: string, body: unknown = {}, status = 200) =>
    admin<Obj>(t.app, 'POST', `/waves/${supplier}/${wave}/rollback/`, body, status);
  const processes = async (supplier: string, wave: string | null) =>
    (await t.db.query<Record<string, never>>(processesOf, [supplier, wave])).rows;
  const book = (supplier: string, from: number, count: number) =>
    Array.from({ length: count }, (_, i) => accountFor(supplier, from + i));

  it('knows every table that holds rows of an account, by the foreign keys in the catalog', async () => {
    const keys = await foreignKeys(t.db);
    const detached = new Set(DETACHED_TABLES.map((d) => d.table));
    const hanging = tablesHangingOff(keys, 'accounts', detached);
    assert.deepEqual(
      [...hanging].filter((table) => !detached.has(table)).sort(),
      ACCOUNT_TABLES.map((a) => a.table).sort(),
      'a table with a foreign key to accounts (directly or through another table) that the rollback does not delete from',
    );
    for (const d of DETACHED_TABLES) assert.ok(hanging.has(d.table), `${d.table} still refers to accounts`);
    // Each table is reached through a foreign key that exists.
    for (const a of [...ACCOUNT_TABLES, ...DETACHED_TABLES]) {
      assert.ok(
        keys.some((k) => k.table === a.table && k.column === a.column && k.parent === a.parent),
        `${a.table}.${a.column} → ${a.parent} is a foreign key`,
      );
    }
  });

  it('finds a table added with a foreign key to a table of an account', async () => {
    await t.db.exec(
      'CREATE TABLE rollback_probe (id bigserial PRIMARY KEY, register_id bigint REFERENCES registers (id))',
    );
    try {
      const hanging = tablesHangingOff(await foreignKeys(t.db), 'accounts', new Set(['import_processes']));
      assert.ok(hanging.has('rollback_probe'));
      assert.ok(!ACCOUNT_TABLES.some((a) => a.table === 'rollback_probe'));
    } finally {
      await t.db.exec('DROP TABLE rollback_probe');
    }
  });

  it('removes every row of the wave, cancels its processes, releases their reservations; the book goes in again the same', async () => {
    // Around the wave: another wave of the supplier, an account of no wave, another supplier's wave.
    await scheduleInWave(t.app, headers, book(SUPPLIER, 1, 2), 'W2');
    await scheduleInWave(t.app, headers, book(SUPPLIER, 3, 1), null);
    await scheduleInWave(t.app, headers, book(OTHER, 4, 2), 'W1');
    await runWorkerUntilIdle(t.config, t.db);
    await t.db.query(addFollowUps, [SUPPLIER, 'W2']);
    const untouched = await rowCounts(t.db, tables);

    const wave = book(SUPPLIER, 10, 3);
    await scheduleInWave(t.app, headers, wave, 'W1');
    await runWorkerUntilIdle(t.config, t.db);
    await t.db.query(addFollowUps, [SUPPLIER, 'W1']);
    const imported = await rowCounts(t.db, tables);
    // The wave's accounts have rows in every table of an account (else the test proves less).
    for (const table of tables)
      assert.ok(imported[table] > untouched[table], `the wave has rows in ${table}`);
    const before = await processes(SUPPLIER, 'W1');
    assert.deepEqual(
      before.map((p) => p.status),
      ['PROCESSED', 'PROCESSED', 'PROCESSED'],
    );

    const preview = await rollback(SUPPLIER, 'W1', { dry_run: true });
    assert.deepEqual(await rowCounts(t.db, tables), imported, 'a dry run deletes nothing');
    assert.deepEqual(await processes(SUPPLIER, 'W1'), before, 'a dry run moves no process');
    assert.equal(preview.dry_run, true);
    assert.equal(preview.processes, 3);
    for (const table of ROLLBACK_TABLES)
      assert.equal(preview.rows[table], imported[table] - untouched[table], `preview of ${table}`);
    const record = await t.db.query(sql('', "SELECT * FROM waves WHERE wave = 'W1'"));
    assert.equal(record.rowCount, 0, 'a dry run records nothing');

    const done = await rollback(SUPPLIER, 'W1', { dry_run: false });
    assert.equal(done.dry_run, false);
    assert.deepEqual(done.rows, preview.rows);
    assert.ok(done.rolled_back_at);
    assert.deepEqual(await rowCounts(t.db, tables), untouched, 'every row of the wave is gone, nothing else');

    const after = await processes(SUPPLIER, 'W1');
    for (const p of after) {
      assert.equal(p.status, 'CANCELLED');
      assert.equal(p.account_id, null);
      assert.equal(p.latest, 'EVENT_ACCOUNT_IMPORT_PROCESS_ROLLED_BACK');
      assert.equal(p.reservations, 0);
      assert.deepEqual(p.events, [
        'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED',
        'EVENT_ACCOUNT_IMPORT_PROCESS_STARTED',
        'EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED',
        'EVENT_ACCOUNT_IMPORT_PROCESS_ROLLED_BACK',
      ]);
    }
    const [w] = (
      await t.db.query<Record<string, never>>(
        sql('', 'SELECT rolled_back_by, rollback FROM waves WHERE import_supplier = $1 AND wave = $2'),
        [SUPPLIER, 'W1'],
      )
    ).rows;
    assert.equal(w.rolled_back_by, 'operator');
    assert.deepEqual(w.rollback, { processes: 3, rows: done.rows });

    // The same book again: accepted (its identifiers are free), created the same.
    await scheduleInWave(t.app, headers, wave, 'W1');
    await runWorkerUntilIdle(t.config, t.db);
    await t.db.query(addFollowUps, [SUPPLIER, 'W1']);
    assert.deepEqual(await rowCounts(t.db, tables), imported);
    assert.deepEqual(
      (await processes(SUPPLIER, 'W1')).map((p) => [p.external_account_number, p.status, p.reservations]),
      before.map((p) => [p.external_account_number, 'PROCESSED', p.reservations]),
    );
  });

  it('cancels the processes of the wave that have no account yet', async () => {
    // Due in an hour: no worker takes them before the rollback.
    const later = new Date(Date.now() + 3600e3).toISOString();
    await scheduleInWave(t.app, headers, book(OTHER, 30, 2), 'PENDING-WAVE', {
      schedule_window_start: later,
    });
    assert.ok((await processes(OTHER, 'PENDING-WAVE')).every((p) => p.reservations > 0));
    const done = await rollback(OTHER, 'PENDING-WAVE');
    assert.equal(done.processes, 2);
    assert.equal(done.rows.accounts, 0);
    for (const p of await processes(OTHER, 'PENDING-WAVE')) {
      assert.equal(p.status, 'CANCELLED');
      assert.equal(p.latest, 'EVENT_ACCOUNT_IMPORT_PROCESS_ROLLED_BACK');
      assert.equal(p.reservations, 0);
    }
  });

  it("frees the wave's identifiers for another account, of another supplier too", async () => {
    const [rolled] = book(SUPPLIER, 90, 1);
    await scheduleInWave(t.app, headers, [rolled], 'FREEING');
    await runWorkerUntilIdle(t.config, t.db);
    const taker = accountFor(OTHER, 91);
    taker.supply_addresses[0].meter_points[0].identifier =
      rolled.supply_addresses[0].meter_points[0].identifier;
    const schedule = () =>
      t.app.inject({ method: 'POST', url: '/v2/data-import/accounts/', headers, payload: taker });
    const refused = await schedule();
    assert.equal(refused.statusCode, 400, 'held by the imported account');
    assert.equal(refused.json().errors[0].code, 'meter_point_on_another_account');
    await rollback(SUPPLIER, 'FREEING');
    assert.equal((await schedule()).statusCode, 201, 'free once the wave is rolled back');
    await runWorkerUntilIdle(t.config, t.db);
    const [created] = (
      await t.db.query<{ status: string }>(
        sql(
          '',
          'SELECT status FROM import_processes WHERE import_supplier = $1 AND external_account_number = $2',
        ),
        [OTHER, taker.external_account_number],
      )
    ).rows;
    assert.equal(created.status, 'PROCESSED');
  });

  it('is refused once a welcome e-mail of the wave went out, naming the accounts', async () => {
    await scheduleInWave(t.app, headers, book(SUPPLIER, 40, 2), 'MAILED');
    await runWorkerUntilIdle(t.config, t.db);
    await t.db.query(
      sql(
        '',
        `UPDATE email_outbox SET status = 'SENT', sent_at = now()
          WHERE account_id = (SELECT account_id FROM import_processes WHERE import_supplier = $1 AND external_account_number = $2)`,
      ),
      [SUPPLIER, 'EXT-0000041'],
    );
    const counts = await rowCounts(t.db, tables);
    for (const body of [{}, { dry_run: true }]) {
      const refused = await rollback(SUPPLIER, 'MAILED', body, 409);
      assert.equal(refused.code, 'welcome_emails_sent');
      assert.equal(refused.emails_sent, 1);
      assert.deepEqual(refused.external_account_numbers, ['EXT-0000041']);
    }
    assert.deepEqual(await rowCounts(t.db, tables), counts);
    assert.deepEqual(
      (await processes(SUPPLIER, 'MAILED')).map((p) => p.status),
      ['PROCESSED', 'PROCESSED'],
    );
  });

  it('is refused after the approval', async () => {
    await scheduleInWave(t.app, headers, book(SUPPLIER, 50, 1), 'APPROVED');
    await runWorkerUntilIdle(t.config, t.db);
    await admin(t.app, 'POST', `/waves/${SUPPLIER}/APPROVED/approve/`, { force: true }, 200);
    const refused = await rollback(SUPPLIER, 'APPROVED', {}, 409);
    assert.equal(refused.code, 'wave_approved');
    assert.equal((await rollback(SUPPLIER, 'APPROVED', { dry_run: true }, 409)).code, 'wave_approved');
    assert.deepEqual(
      (await processes(SUPPLIER, 'APPROVED')).map((p) => p.status),
      ['PROCESSED'],
    );
  });

  it('answers 404 for an unknown supplier and 400 for a bad wave name or body', async () => {
    assert.equal((await rollback('NOBODY', 'W1', {}, 404)).code, 'not_found');
    const bad = await rollback(SUPPLIER, 'no spaces', {}, 400);
    assert.match(String(bad.code), /validation_error|invalid/);
    await rollback(SUPPLIER, 'W1', { dry_run: 'yes' }, 400);
    await rollback(SUPPLIER, 'W1', { other: true }, 400);
  });
});
