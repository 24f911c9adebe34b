/**
 * Identifier reservations (decision 0064): an identifier no two accounts may share is refused
 * when the account is scheduled, never after a 201 — on V2 create, bulk lines, V1 staging and
 * validate (read-only) — whichever supplier holds it; cancelling releases it, re-scheduling
 * replaces it, and of concurrent schedules of one identifier exactly one wins.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { sql } from '../../src/infra/db/db.ts';
import { migrate } from '../../src/infra/db/migrate.ts';
import { accountFor, mpanFor, mprnFor } from '../helpers/account-fixtures.ts';
import { dashboardSession } from '../helpers/dashboard.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

const OURS = 'RESERVING';
const THEIRS = 'OTHER_RESERVING';
const CREATE = '/v2/data-import/accounts/';
const VALIDATE = '/v2/data-import/accounts/validate/';
const BULK = '/v2/data-import/accounts/bulk/';
const STAGE = '/v1/data-import/account-import-process/create-or-update/';
const MPRN_ATTR = 'supply_addresses.0.meter_points.1.identifier';

// biome-ignore lint/suspicious/noExplicitAny: account fixtures and answer bodies as JSON
type Obj = Record<string, any>;

const reservationsOf = sql(
  '',
  `SELECT r.kind, r.key, r.attr FROM identifier_reservations r
     JOIN import_processes p ON p.id = r.import_process_id
    WHERE p.import_supplier = $1 AND p.external_account_number = $2 ORDER BY r.kind, r.key`,
);
const statusOf = sql(
  '',
  'SELECT status FROM import_processes WHERE import_supplier = $1 AND external_account_number = $2',
);

describe('identifier reservations', () => {
  let t: TestApp;
  let ours: Record<string, string>;
  let theirs: Record<string, string>;
  let n = 100;
  /** A fresh account of `supplier`, sharing nothing with any other unless told. */
  const fresh = (supplier = OURS): Obj => accountFor(supplier, n++);

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' });
    ({ headers: ours } = await tokenFor(t.app, [OURS]));
    ({ headers: theirs } = await tokenFor(t.app, [THEIRS]));
  });
  after(() => t.close());

  const post = (url: string, body: unknown, headers = ours) =>
    t.app.inject({ method: 'POST', url, headers, payload: body as object });
  const reservations = async (supplier: string, external: string) =>
    (await t.db.query(reservationsOf, [supplier, external])).rows;
  const status = async (supplier: string, external: string) =>
    (await t.db.query<{ status: string }>(statusOf, [supplier, external])).rows[0]?.status;

  it('reserves what a scheduled account brings, and refuses the same MPRN on another account with the item at its attr', async () => {
    const first = fresh();
    assert.equal((await post(CREATE, first)).statusCode, 201);
    assert.deepEqual(
      (await reservations(OURS, first.external_account_number)).map((r) => `${r.kind} ${r.attr}`),
      [
        `meter_point supply_addresses.0.meter_points.0.identifier`,
        `meter_point ${MPRN_ATTR}`,
        'reference references.0.value',
      ],
    );
    const second = fresh();
    second.supply_addresses[0].meter_points[1].identifier =
      first.supply_addresses[0].meter_points[1].identifier;
    const res = await post(CREATE, second);
    assert.equal(res.statusCode, 400, res.body);
    const body = res.json();
    assert.equal(body.code, 'import_process_failed_validation');
    assert.deepEqual(
      body.errors.map((e: Obj) => [e.attr, e.code]),
      [[MPRN_ATTR, 'meter_point_on_another_account']],
    );
    assert.match(body.errors[0].detail, new RegExp(first.external_account_number));
    assert.equal(await status(OURS, second.external_account_number), undefined, 'no process was created');

    // Validate reports the same item, and reserves nothing.
    const validated = await post(VALIDATE, second);
    assert.equal(validated.statusCode, 400);
    assert.deepEqual(
      validated.json().errors.map((e: Obj) => [e.attr, e.code]),
      [[MPRN_ATTR, 'meter_point_on_another_account']],
    );
    assert.equal((await post(VALIDATE, fresh())).statusCode, 200);
  });

  it('refuses a reference and a CAIS reference another process holds', async () => {
    const first: Obj = { ...fresh(), debts: [{ cais_reference: `CAIS-${n}` }] };
    assert.equal((await post(CREATE, first)).statusCode, 201);
    const second: Obj = { ...fresh(), debts: [{ cais_reference: `CAIS-${n - 1}` }] };
    second.references = [{ ...first.references[0] }];
    const res = await post(CREATE, second);
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(
      res.json().errors.map((e: Obj) => [e.attr, e.code]),
      [
        ['references.0.value', 'reference_already_exists'],
        ['debts.0.cais_reference', 'cais_reference_already_in_use_on_another_account'],
      ],
    );
  });

  it("names the holder only within the supplier's tenancy", async () => {
    const theirAccount = fresh(THEIRS);
    assert.equal((await post(CREATE, theirAccount, theirs)).statusCode, 201);
    const mine = fresh();
    mine.supply_addresses[0].meter_points[0].identifier =
      theirAccount.supply_addresses[0].meter_points[0].identifier;
    const res = await post(CREATE, mine);
    assert.equal(res.statusCode, 400);
    const [error] = res.json().errors;
    assert.equal(error.code, 'meter_point_on_another_account');
    assert.match(error.detail, /another supplier's account/);
    assert.doesNotMatch(error.detail, new RegExp(`${theirAccount.external_account_number}|${THEIRS}`));
  });

  it('lets exactly one of 50 concurrent creates of one MPRN win', async () => {
    const shared = mprnFor(9_000_001);
    const accounts = Array.from({ length: 50 }, () => {
      const a = fresh();
      a.supply_addresses[0].meter_points[1].identifier = shared;
      return a;
    });
    const answers = await Promise.all(accounts.map((a) => post(CREATE, a)));
    const codes = answers.map((r) => r.statusCode).sort();
    assert.equal(codes.filter((c) => c === 201).length, 1, JSON.stringify(answers.map((r) => r.json())));
    assert.equal(codes.filter((c) => c === 400).length, 49);
    for (const r of answers.filter((a) => a.statusCode === 400)) {
      assert.deepEqual(
        r.json().errors.map((e: Obj) => [e.attr, e.code]),
        [[MPRN_ATTR, 'meter_point_on_another_account']],
      );
    }
    // No process that answered 201 ends ERRORED.
    await runWorkerUntilIdle(t.config, t.db);
    const winner = accounts[answers.findIndex((r) => r.statusCode === 201)];
    assert.equal(await status(OURS, winner.external_account_number), 'PROCESSED');

    // The imported account keeps its identifier: a new account is refused, naming it.
    const late = fresh();
    late.supply_addresses[0].meter_points[1].identifier = shared;
    const refused = await post(CREATE, late);
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().errors[0].detail, /already on account A-[0-9A-F]{8}/);
  });

  it('releases on cancel: the other account is then scheduled', async () => {
    const holder = fresh();
    const other = fresh();
    other.supply_addresses[0].meter_points[0].identifier =
      holder.supply_addresses[0].meter_points[0].identifier;
    assert.equal((await post(CREATE, holder)).statusCode, 201);
    assert.equal((await post(CREATE, other)).statusCode, 400);
    await admin(t.app, 'POST', `/import-processes/${OURS}/${holder.external_account_number}/cancel/`);
    assert.deepEqual(await reservations(OURS, holder.external_account_number), []);
    assert.equal((await post(CREATE, other)).statusCode, 201);
    // The cancelled one now conflicts in turn.
    assert.equal((await post(CREATE, holder)).statusCode, 400);
  });

  it('replaces a process’s reservations when it is scheduled again, and a dry run reserves nothing', async () => {
    const account = fresh();
    const before = account.supply_addresses[0].meter_points[0].identifier;
    assert.equal((await post(CREATE, account)).statusCode, 201);
    account.supply_addresses[0].meter_points[0].identifier = mpanFor(9_000_002);
    assert.equal((await post(CREATE, account)).statusCode, 201, 'its own reservations are no conflict');
    const keys = (await reservations(OURS, account.external_account_number)).map((r) => r.key);
    assert.ok(keys.includes(mpanFor(9_000_002)) && !keys.includes(before));
    const freed = fresh();
    freed.supply_addresses[0].meter_points[0].identifier = before;
    assert.equal((await post(CREATE, freed)).statusCode, 201);

    const dry = fresh();
    assert.equal((await post(CREATE, { payload: dry, task_params: { is_dry_run: true } })).statusCode, 201);
    assert.deepEqual(await reservations(OURS, dry.external_account_number), []);
    // A dry run is still checked: it would not create the account.
    const dryConflict = fresh();
    dryConflict.supply_addresses[0].meter_points[0].identifier = before;
    const res = await post(CREATE, { payload: dryConflict, task_params: { is_dry_run: true } });
    assert.equal(res.statusCode, 400);
  });

  it('refuses the later of two bulk lines that share an identifier, and one held elsewhere', async () => {
    const held = fresh();
    assert.equal((await post(CREATE, held)).statusCode, 201);
    const a = fresh();
    const b = fresh();
    b.supply_addresses[0].meter_points[1].identifier = a.supply_addresses[0].meter_points[1].identifier;
    const c = fresh();
    c.references = [{ ...held.references[0] }];
    const d = fresh();
    const res = await t.app.inject({
      method: 'POST',
      url: BULK,
      headers: { ...ours, 'content-type': 'application/x-ndjson' },
      payload: [a, b, c, d].map((x) => JSON.stringify(x)).join('\n'),
    });
    assert.equal(res.statusCode, 200, res.body);
    const results = res.json().results as Obj[];
    assert.deepEqual(
      results.map((r) => r.status),
      [201, 400, 400, 201],
    );
    assert.deepEqual(
      results[1].body.errors.map((e: Obj) => [e.attr, e.code]),
      [[MPRN_ATTR, 'meter_point_on_another_account']],
    );
    assert.match(
      results[1].body.errors[0].detail,
      new RegExp(`earlier in this request.*${a.external_account_number}|${a.external_account_number}`),
    );
    assert.deepEqual(
      results[2].body.errors.map((e: Obj) => [e.attr, e.code]),
      [['references.0.value', 'reference_already_exists']],
    );
    assert.equal(await status(OURS, b.external_account_number), undefined);
  });

  it('reserves on V1 staging too', async () => {
    const staged = fresh();
    assert.equal((await post(STAGE, staged)).statusCode, 201);
    assert.equal((await reservations(OURS, staged.external_account_number)).length, 3);
    const other = fresh();
    other.supply_addresses[0].meter_points[0].identifier =
      staged.supply_addresses[0].meter_points[0].identifier;
    const res = await post(STAGE, other);
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().errors[0].code, 'meter_point_on_another_account');
    const created = await post(CREATE, other);
    assert.equal(created.statusCode, 400);
    const validated = await post('/v1/data-import/validate-account/', other);
    assert.equal(validated.statusCode, 400);
    assert.equal(validated.json().errors[0].code, 'meter_point_on_another_account');
  });

  it('counts the conflicts the worker still finds (none through the API)', async () => {
    const metrics = new Registry();
    // A process written around the API, with no reservation: only the worker's check stops it.
    const holder = fresh();
    assert.equal((await post(CREATE, holder)).statusCode, 201);
    const sneaky = fresh();
    sneaky.supply_addresses[0].meter_points[0].identifier =
      holder.supply_addresses[0].meter_points[0].identifier;
    await runWorkerUntilIdle(t.config, t.db, { metrics });
    await t.db.query(
      sql(
        '',
        `INSERT INTO import_processes (import_supplier, external_account_number, status, payload, latest_event)
         VALUES ($1, $2, 'PENDING', $3, '{}')`,
      ),
      [OURS, sneaky.external_account_number, sneaky],
    );
    await runWorkerUntilIdle(t.config, t.db, { metrics });
    assert.equal(await status(OURS, sneaky.external_account_number), 'ERRORED');
    const counted = await metrics.getSingleMetricAsString('ferry_worker_identifier_conflicts_total');
    assert.match(
      counted,
      new RegExp(
        `ferry_worker_identifier_conflicts_total\\{supplier="${OURS}",code="meter_point_on_another_account"\\} 1`,
      ),
    );
  });
});

describe('migration 0013: reservations for the processes that exist', () => {
  it('reserves what live processes bring, the account first, and nothing for cancelled ones or dry runs', async () => {
    const { db, cleanup } = await createTestDb({ migrateTo: 12 });
    try {
      const insert = sql(
        '',
        `INSERT INTO import_processes (import_supplier, external_account_number, status, payload, is_dry_run, latest_event, account_id)
         VALUES ('OLD', $1, $2, $3, $4, '{}', $5) RETURNING id`,
      );
      await db.query(sql('', "INSERT INTO import_suppliers (code, document_root) VALUES ('OLD', 'old')"));
      const shared = accountFor('OLD', 1).supply_addresses[0].meter_points[1].identifier;
      const withShared = (k: number) => {
        const a = accountFor('OLD', k);
        a.supply_addresses[0].meter_points[1].identifier = shared;
        return a;
      };
      // Created first, without an account: loses the shared MPRN to the imported one below.
      await db.query(insert, ['EXT-ERRORED', 'ERRORED', withShared(2), false, null]);
      const account = (
        await db.query<{ id: string }>(
          sql(
            '',
            "INSERT INTO accounts (number, import_supplier, external_account_number) VALUES ('A-00000001', 'OLD', 'EXT-DONE') RETURNING id",
          ),
        )
      ).rows[0].id;
      await db.query(insert, [
        'EXT-DONE',
        'PROCESSED',
        { ...accountFor('OLD', 1), debt: { cais_reference: 'C-1' } },
        false,
        account,
      ]);
      await db.query(insert, ['EXT-CANCELLED', 'CANCELLED', accountFor('OLD', 3), false, null]);
      await db.query(insert, ['EXT-DRY', 'DRY_RUN_SUCCEEDED', accountFor('OLD', 4), true, null]);
      await migrate(db);
      const { rows } = await db.query<{ external_account_number: string; kind: string; attr: string }>(
        sql(
          '',
          `SELECT p.external_account_number, r.kind, r.attr FROM identifier_reservations r
             JOIN import_processes p ON p.id = r.import_process_id ORDER BY 1, 3`,
        ),
      );
      assert.deepEqual(
        rows.map((r) => `${r.external_account_number} ${r.kind} ${r.attr}`),
        [
          'EXT-DONE cais_reference debt.cais_reference',
          'EXT-DONE reference references.0.value',
          'EXT-DONE meter_point supply_addresses.0.meter_points.0.identifier',
          `EXT-DONE meter_point ${MPRN_ATTR}`,
          'EXT-ERRORED reference references.0.value',
          'EXT-ERRORED meter_point supply_addresses.0.meter_points.0.identifier',
        ],
      );
    } finally {
      await cleanup();
    }
  });
});

describe('refusals at scheduling', () => {
  it('counts them per supplier and code, on /metrics and the supplier’s dashboard page', async () => {
    const metrics = new Registry();
    const t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' }, { metrics });
    try {
      const { headers } = await tokenFor(t.app, ['REFUSED']);
      const post = (url: string, payload: unknown) =>
        t.app.inject({ method: 'POST', url, headers, payload: payload as object });
      const holder = accountFor('REFUSED', 1);
      assert.equal((await post(CREATE, holder)).statusCode, 201);
      const clash = (k: number) => {
        const a = accountFor('REFUSED', k);
        a.supply_addresses[0].meter_points[1].identifier =
          holder.supply_addresses[0].meter_points[1].identifier;
        return a;
      };
      assert.equal((await post(CREATE, clash(2))).statusCode, 400);
      assert.equal((await post(STAGE, clash(3))).statusCode, 400);
      const bulk = await t.app.inject({
        method: 'POST',
        url: BULK,
        headers: { ...headers, 'content-type': 'application/x-ndjson' },
        payload: [clash(4), accountFor('REFUSED', 5)].map((a) => JSON.stringify(a)).join('\n'),
      });
      assert.deepEqual(
        bulk.json().results.map((r: Obj) => r.status),
        [400, 201],
      );
      await admin(t.app, 'PATCH', '/import-suppliers/REFUSED/', { status: 'Paused' });
      assert.equal((await post(CREATE, accountFor('REFUSED', 6))).statusCode, 400);
      const expected = {
        'ferry_schedule_refusals_total{supplier="REFUSED",code="meter_point_on_another_account"}': 3,
        // The pause's refusal is about the supplier, not the data: counted apart (decision 0081).
        'ferry_supplier_state_refusals_total{supplier="REFUSED",code="import_supplier_paused"}': 1,
      };
      // Counting is off the request's path: wait for it (bounded).
      let text = '';
      for (let i = 0; i < 50; i++) {
        text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
        if (Object.entries(expected).every(([k, v]) => text.includes(`${k} ${v}\n`))) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      for (const [k, v] of Object.entries(expected))
        assert.ok(text.includes(`${k} ${v}\n`), `${k} ${v} in\n${text}`);
      const s = await dashboardSession(t.app);
      const page = (await s.get('/dashboard/suppliers/REFUSED/')).body;
      assert.match(
        page,
        /<tr data-refusal="meter_point_on_another_account"><th scope="row"><code>meter_point_on_another_account<\/code><\/th><td class="num">3</,
      );
    } finally {
      await t.close();
    }
  });
});
