import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { InFlightCounter } from '../../src/account-import/staging/staging.routes.ts';
import { findImportProcessStatus } from '../../src/account-import/status/status.queries.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

const SUPPLIER = 'STAGING_ENERGY';
const VALIDATE = '/v1/data-import/validate-account/';
const STAGE = '/v1/data-import/account-import-process/create-or-update/';
const PROCESS = '/v1/data-import/account-import-process/process/';

describe('the V1 validate-account, create-or-update and process endpoints', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let n = 0;
  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers, payload: payload as never });
  const next = () => accountFor(SUPPLIER, ++n);
  const statusOf = async (external: string) =>
    (await findImportProcessStatus(t.db, SUPPLIER, external))?.status;
  const accounts = async () =>
    (
      await t.db.query<{ n: number }>(
        sql('', 'SELECT count(*)::int AS n FROM accounts WHERE import_supplier = $1'),
        [SUPPLIER],
      )
    ).rows[0].n;
  const processBody = (external: string, extra: Obj = {}) => ({
    import_supplier_code: SUPPLIER,
    external_account_number: external,
    ...extra,
  });

  before(async () => {
    t = await createTestApp();
    ({ headers } = await tokenFor(t.app, [SUPPLIER, 'OTHER_ENERGY']));
  });
  after(() => t.close());

  it('validate-account answers 200 with the validated account, normalised', async () => {
    const account = next();
    account.billing_postcode = 'w1f9de';
    const res = await post(VALIDATE, account);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().billing_postcode, 'W1F 9DE');
    assert.equal(res.json().external_account_number, account.external_account_number);
  });

  it('validate-account reports every error, and refuses the V2 wrapper', async () => {
    const account = next();
    account.customers[0].email = 'not-an-address';
    const res = await post(VALIDATE, account);
    assert.equal(res.statusCode, 400);
    assert.deepEqual(
      res.json().errors.map((e: Obj) => `${e.attr}: ${e.code}`),
      ['customers.0.email: invalid_email'],
    );
    const wrapped = await post(VALIDATE, { payload: next() });
    assert.equal(wrapped.statusCode, 400);
    assert.deepEqual(
      wrapped.json().errors.map((e: Obj) => `${e.attr}: ${e.code}`),
      ['payload: unknown_field'],
    );
  });

  it('stages data (201, then 200 on update) that no worker takes, listed as pending', async () => {
    const account = next();
    const first = await post(STAGE, account);
    assert.equal(first.statusCode, 201, first.body);
    assert.deepEqual(first.json(), {
      external_account_number: account.external_account_number,
      import_supplier_code: SUPPLIER,
    });
    account.billing_name = 'Changed Name';
    const second = await post(STAGE, account);
    assert.equal(second.statusCode, 200, second.body);
    await runWorkerUntilIdle(t.config, t.db);
    assert.equal(await statusOf(account.external_account_number), 'STAGED');
    const pending = await t.app.inject({
      method: 'GET',
      url: `/v1/data-import/pending-account-import-processes/${SUPPLIER}/`,
      headers,
    });
    assert.ok(pending.json().some((p: Obj) => p.external_account_number === account.external_account_number));
    const process = await admin<Obj>(
      t.app,
      'GET',
      `/import-processes/${SUPPLIER}/${account.external_account_number}/`,
    );
    assert.equal(process.payload.billing_name, 'Changed Name');
  });

  it('process: a dry run answers 400 and keeps nothing; then the account is created once', async () => {
    const account = next();
    assert.equal((await post(STAGE, account)).statusCode, 201);
    const before = await accounts();
    const dry = await post(PROCESS, processBody(account.external_account_number, { dry_run: true }));
    assert.equal(dry.statusCode, 400, dry.body);
    assert.equal(dry.json().code, 'dry_run_succeeded');
    assert.equal(await accounts(), before);
    assert.equal(await statusOf(account.external_account_number), 'STAGED');

    const res = await post(PROCESS, processBody(account.external_account_number));
    assert.equal(res.statusCode, 201, res.body);
    const body = res.json();
    assert.match(body.service_account_number, /^A-[0-9A-F]{8}$/);
    assert.equal(body.account_number, body.service_account_number);
    assert.equal(await accounts(), before + 1);
    assert.equal(await statusOf(account.external_account_number), 'PROCESSED');

    const again = await post(PROCESS, processBody(account.external_account_number));
    assert.equal(again.statusCode, 400);
    assert.equal(again.json().code, 'account_import_process_already_imported');
    assert.equal(again.json().service_account_number, body.service_account_number);
    const validateAgain = await post(VALIDATE, account);
    assert.equal(validateAgain.statusCode, 400);
    assert.deepEqual(validateAgain.json().non_field_errors, ['This account has already been imported.']);
    assert.equal((await post(STAGE, account)).json().code, 'account_import_process_already_imported');
  });

  it('process: unknown data, unknown supplier, another supplier and bad fields are 4xx', async () => {
    const missing = await post(PROCESS, processBody('NO-SUCH-ACCOUNT'));
    assert.equal(missing.statusCode, 400);
    assert.deepEqual(
      missing.json().errors.map((e: Obj) => `${e.attr}: ${e.code}`),
      ['external_account_number: import_process_does_not_exist'],
    );
    const foreign = await post(PROCESS, { ...processBody('X'), import_supplier_code: 'NOT_MINE' });
    assert.equal(foreign.statusCode, 403);
    const extra = await post(PROCESS, { ...processBody('X'), colour: 'red' });
    assert.equal(extra.statusCode, 400);
    const team = await post(PROCESS, processBody('X', { operations_team_name: 'no spaces allowed' }));
    assert.equal(team.statusCode, 400);
    assert.equal(team.json().errors[0].code, 'operations_team_name_does_not_exist');
  });

  it('process: a creation that fails on stored data ends ERRORED with its code', async () => {
    const first = next();
    const second = next();
    second.supply_addresses[0].meter_points[0].identifier =
      first.supply_addresses[0].meter_points[0].identifier;
    assert.equal((await post(STAGE, first)).statusCode, 201);
    // Staging refuses the second while the first holds the meter point (decision 0064); the
    // process endpoint's own check stays behind that, for data staged around the reservations.
    assert.equal((await post(STAGE, second)).statusCode, 400);
    await t.db.query(sql('', 'DELETE FROM identifier_reservations'));
    assert.equal((await post(STAGE, second)).statusCode, 201);
    assert.equal((await post(PROCESS, processBody(first.external_account_number))).statusCode, 201);
    const res = await post(PROCESS, processBody(second.external_account_number));
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'meter_point_on_another_account');
    assert.equal(await statusOf(second.external_account_number), 'ERRORED');
  });

  it('V2 create takes over staged data: the process becomes PENDING and a worker creates it', async () => {
    const account = next();
    assert.equal((await post(STAGE, account)).statusCode, 201);
    assert.equal((await post('/v2/data-import/accounts/', account)).statusCode, 201);
    await runWorkerUntilIdle(t.config, t.db);
    assert.equal(await statusOf(account.external_account_number), 'PROCESSED');
  });

  it('answers 429 with Retry-After when the supplier is at its in-flight limit, and creates nothing', async () => {
    const limited = await createTestApp({ PROCESS_IN_FLIGHT_PER_SUPPLIER: '0' });
    try {
      const { headers: h } = await tokenFor(limited.app, [SUPPLIER]);
      const account = next();
      const staged = await limited.app.inject({ method: 'POST', url: STAGE, headers: h, payload: account });
      assert.equal(staged.statusCode, 201, staged.body);
      const res = await limited.app.inject({
        method: 'POST',
        url: PROCESS,
        headers: h,
        payload: processBody(account.external_account_number),
      });
      assert.equal(res.statusCode, 429);
      assert.equal(res.json().code, 'throttled');
      assert.equal(res.headers['retry-after'], '1');
    } finally {
      await limited.close();
    }
  });
});

describe('InFlightCounter', () => {
  it('refuses past the limit per key, and a release frees a place', () => {
    const counter = new InFlightCounter(2);
    assert.equal(counter.take('A'), true);
    assert.equal(counter.take('A'), true);
    assert.equal(counter.take('A'), false);
    assert.equal(counter.take('B'), true);
    counter.release('A');
    assert.equal(counter.take('A'), true);
  });
});
