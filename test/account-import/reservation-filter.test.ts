/**
 * The in-memory filter of reserved identifiers (decision 0067): validate asks the database only
 * about identifiers that may be reserved, so the filter must never say "certainly free" about an
 * identifier that is reserved — whether this process reserved it, another process did, or a
 * transaction committed after a later one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import {
  noteReserving,
  REFRESH_MS,
  ReservationFilter,
} from '../../src/account-import/reservations/reservation-filter.ts';
import { BloomFilter } from '../../src/infra/bloom-filter.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { createFreshDb, type TestDb, usingPostgresServer } from '../helpers/test-db.ts';

const meterPoint = (key: string) => [{ kind: 'meter_point' as const, key, attr: 'x' }];

const insertProcess = `INSERT INTO import_processes (import_supplier, external_account_number, status, payload, latest_event)
  VALUES ('FILTER', $1, 'PENDING', '{}', '{}') RETURNING id`;
const reserve = `INSERT INTO identifier_reservations (kind, key, import_process_id, attr) VALUES ('meter_point', $1, $2, 'x')`;

describe('Bloom filter', () => {
  it('never forgets a key it was given, and is rarely wrong about others', () => {
    const bloom = new BloomFilter(50_000);
    for (let i = 0; i < 50_000; i++) bloom.add(`meter_point\u0000${1_000_000 + i}`);
    for (let i = 0; i < 50_000; i++) assert.ok(bloom.mightHave(`meter_point\u0000${1_000_000 + i}`));
    let wrong = 0;
    for (let i = 0; i < 100_000; i++) if (bloom.mightHave(`meter_point\u0000${9_000_000 + i}`)) wrong++;
    assert.ok(wrong < 2_000, `${wrong} false positives in 100,000 (over 2 %)`);
  });
});

describe('filter of reserved identifiers', () => {
  let tdb: TestDb & { schema?: string };
  let filter: ReservationFilter;
  let n = 0;
  const errors: unknown[] = [];

  before(async () => {
    tdb = await createFreshDb({ url: process.env.DATABASE_URL });
    await tdb.db.query(
      sql('', "INSERT INTO import_suppliers (code, document_root) VALUES ('FILTER', 'filter')"),
    );
    filter = new ReservationFilter(tdb.db, (err) => errors.push(err));
  });
  after(async () => {
    filter.close();
    await tdb.cleanup();
    assert.deepEqual(errors, []);
  });

  /** Reserves `key` for a new process, in its own transaction (as another service process would). */
  const reserveElsewhere = async (key: string) => {
    const { rows } = await tdb.db.query<{ id: string }>(sql('', insertProcess), [`E${n++}`]);
    await tdb.db.query(sql('', reserve), [key, rows[0].id]);
  };

  it('asks the database about everything until it is loaded, then only about what may be held', async () => {
    await reserveElsewhere('1000000001');
    assert.equal(filter.mayHoldAny(meterPoint('1000000999')), true, 'not loaded yet: ask the database');
    await filter.refresh();
    assert.equal(filter.mayHoldAny(meterPoint('1000000001')), true);
    assert.equal(filter.mayHoldAny(meterPoint('1000000999')), false);
    assert.equal(filter.mayHoldAny([]), false);
  });

  it("sees another process's reservation at its next refresh", async () => {
    await reserveElsewhere('1000000002');
    await filter.refresh();
    assert.equal(filter.mayHoldAny(meterPoint('1000000002')), true);
  });

  it('refreshes by itself when asked after REFRESH_MS', async () => {
    await filter.refresh();
    await reserveElsewhere('1000000003');
    await sleep(REFRESH_MS + 20);
    filter.mayHoldAny(meterPoint('1000000999')); // starts the refresh
    await filter.refresh();
    assert.equal(filter.mayHoldAny(meterPoint('1000000003')), true);
  });

  it("knows this process's reservations before they commit", async () => {
    await filter.refresh();
    noteReserving(meterPoint('1000000004'));
    assert.equal(filter.mayHoldAny(meterPoint('1000000004')), true);
  });

  it('does not miss a reservation whose transaction commits after a later one', {
    skip: !usingPostgresServer() && 'needs two connections (a PostgreSQL server)',
  }, async () => {
    const early = new pg.Client({ connectionString: tdb.url });
    await early.connect();
    try {
      const { rows } = await tdb.db.query<{ id: string }>(sql('', insertProcess), [`E${n++}`]);
      await early.query('BEGIN');
      await early.query(reserve, ['1000000005', rows[0].id]);
      await reserveElsewhere('1000000006'); // a later transaction, committed first
      await filter.refresh();
      assert.equal(filter.mayHoldAny(meterPoint('1000000006')), true);
      assert.equal(filter.mayHoldAny(meterPoint('1000000005')), false, 'not committed yet');
      await early.query('COMMIT');
      await filter.refresh();
      assert.equal(filter.mayHoldAny(meterPoint('1000000005')), true, 'committed after the later one');
    } finally {
      await early.end();
    }
  });

  it('grows: a rebuild keeps every reservation', async () => {
    const { rows } = await tdb.db.query<{ id: string }>(sql('', insertProcess), [`E${n++}`]);
    await tdb.db.query(
      sql(
        '',
        `INSERT INTO identifier_reservations (kind, key, import_process_id, attr)
         SELECT 'reference', 'BULK=' || i, $1, 'x' FROM generate_series(1, 80000) AS i`,
      ),
      [rows[0].id],
    );
    await filter.refresh(); // reads the 80,000 new rows: past the first filter's capacity
    await filter.refresh(); // so this one rebuilds it larger
    for (const i of [1, 40_000, 80_000]) {
      assert.equal(filter.mayHoldAny([{ kind: 'reference', key: `BULK=${i}`, attr: 'x' }]), true);
    }
    assert.equal(filter.mayHoldAny(meterPoint('1000000001')), true);
  });
});

describe('validate with the filter, two service processes on one database', () => {
  let a: TestApp;
  let headers: Record<string, string>;

  before(async () => {
    a = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' });
    ({ headers } = await tokenFor(a.app, ['FILTERED']));
  });
  after(() => a.close());

  it('reports a conflict reserved in this process at once, and one reserved elsewhere within REFRESH_MS', async () => {
    const validate = (body: object) =>
      a.app.inject({ method: 'POST', url: '/v2/data-import/accounts/validate/', headers, payload: body });
    const first = accountFor('FILTERED', 1);
    const second = accountFor('FILTERED', 2);
    second.supply_addresses[0].meter_points[1].identifier =
      first.supply_addresses[0].meter_points[1].identifier;
    assert.equal((await validate(second)).statusCode, 200);
    const created = await a.app.inject({
      method: 'POST',
      url: '/v2/data-import/accounts/',
      headers,
      payload: first,
    });
    assert.equal(created.statusCode, 201);
    assert.equal((await validate(second)).statusCode, 400, 'this process scheduled it');

    // Reserved by "another process": written straight to the database, which this filter has not seen.
    const third = accountFor('FILTERED', 3);
    const fourth = accountFor('FILTERED', 4);
    fourth.supply_addresses[0].meter_points[0].identifier =
      third.supply_addresses[0].meter_points[0].identifier;
    assert.equal((await validate(fourth)).statusCode, 200);
    const { rows } = await a.db.query<{ id: string }>(
      sql(
        '',
        `INSERT INTO import_processes (import_supplier, external_account_number, status, payload, latest_event)
         VALUES ('FILTERED', 'ELSEWHERE', 'PENDING', '{}', '{}') RETURNING id`,
      ),
    );
    await a.db.query(sql('', reserve), [third.supply_addresses[0].meter_points[0].identifier, rows[0].id]);
    await sleep(REFRESH_MS + 20);
    await validate(accountFor('FILTERED', 5)); // starts the refresh
    await sleep(200);
    const late = await validate(fourth);
    assert.equal(late.statusCode, 400);
    assert.equal(late.json().errors[0].code, 'meter_point_on_another_account');
  });
});
