import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { findImportProcessStatus } from '../../src/account-import/status/status.queries.ts';
import { accountFor, exampleAccount } from '../helpers/account-fixtures.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

describe('validate and create accounts (V2)', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let n = 100;
  before(async () => {
    t = await createTestApp();
    ({ headers } = await tokenFor(t.app, ['*'], ['TENTACLE_ENERGY', 'ACME', 'PAUSED', 'DONE']));
    await admin(t.app, 'PATCH', '/import-suppliers/PAUSED/', { status: 'Paused' });
    await admin(t.app, 'PATCH', '/import-suppliers/DONE/', { status: 'Complete' });
  });
  after(() => t.close());

  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers, payload: payload as never });
  const validate = (payload: unknown) => post('/v2/data-import/accounts/validate/', payload);
  const create = (payload: unknown) => post('/v2/data-import/accounts/', payload);

  it('validates the reference example account, bare and wrapped', async () => {
    const bare = await validate(exampleAccount());
    assert.equal(bare.statusCode, 200, bare.body);
    assert.deepEqual(bare.json(), {});
    const wrapped = await validate({ payload: exampleAccount() });
    assert.equal(wrapped.statusCode, 200, wrapped.body);
  });

  it('creates the reference example account verbatim (bare and wrapped, as real clients send it)', async () => {
    const res = await create({ payload: exampleAccount(), task_params: { is_dry_run: false } });
    assert.equal(res.statusCode, 201, res.body);
    await runWorkerUntilIdle(t.config, t.db);
    const status = await findImportProcessStatus(
      t.db,
      'TENTACLE_ENERGY',
      exampleAccount().external_account_number,
    );
    assert.equal(status?.status, 'PROCESSED', JSON.stringify(status?.latest_error));
  });

  it("validates the README's example account", async () => {
    const res = await validate(JSON.parse(readFileSync('examples/account.json', 'utf8')));
    assert.equal(res.statusCode, 200, res.body);
  });

  it('reports every error with attr paths relative to the account payload', async () => {
    const a = exampleAccount();
    a.customers[0].landline = 'not a phone';
    a.billing_postcode = 'NOPE';
    a.surprise = 1;
    for (const body of [a, { payload: a }]) {
      const res = await validate(body);
      assert.equal(res.statusCode, 400);
      const out = res.json();
      assert.equal(out.code, 'account_failed_validation');
      assert.equal(typeof out.detail, 'string');
      const got = Object.fromEntries(out.errors.map((e: { attr: string; code: string }) => [e.attr, e.code]));
      assert.equal(got['customers.0.landline'], 'invalid_phone_number');
      assert.equal(got.billing_postcode, 'invalid_postcode');
      assert.equal(got.surprise, 'unknown_field');
    }
  });

  it('reports an unknown supplier as import_supplier_not_found', async () => {
    const res = await validate({ ...exampleAccount(), import_supplier: 'NOBODY' });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(
      res
        .json()
        .errors.filter((e: { attr: string }) => e.attr === 'import_supplier')
        .map((e: { code: string }) => e.code),
      ['import_supplier_not_found'],
    );
  });

  it('schedules a valid account (201 {}), and a worker creates it', async () => {
    const a = accountFor('ACME', ++n);
    const res = await create({ payload: a, task_params: { is_dry_run: false } });
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json(), {});
    const polled = await t.app.inject({
      method: 'GET',
      url: `/v2/data-import/accounts/ACME/${a.external_account_number}/`,
      headers,
    });
    assert.equal(polled.json().status, 'PENDING');
    await runWorkerUntilIdle(t.config, t.db);
    const done = (
      await t.app.inject({
        method: 'GET',
        url: `/v2/data-import/accounts/ACME/${a.external_account_number}/`,
        headers,
      })
    ).json();
    assert.equal(done.status, 'PROCESSED');
    assert.match(done.service_identifier, /^A-[0-9A-F]{8}$/);
    const again = await create(a);
    assert.equal(again.statusCode, 400);
    assert.deepEqual(again.json(), {
      detail: 'This account has already been imported.',
      code: 'account_import_process_already_imported',
      non_field_errors: {
        detail: 'This account has already been imported.',
        code: 'account_import_process_already_imported',
      },
      account_id: done.service_identifier,
    });
  });

  it('answers an invalid account with import_process_failed_validation and stages nothing', async () => {
    const a = accountFor('ACME', ++n);
    a.customers[0].email = 'nope';
    const res = await create(a);
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assert.equal(body.code, 'import_process_failed_validation');
    assert.equal(body.domain, 'import_process');
    assert.deepEqual(
      body.errors.map((e: { attr: string }) => e.attr),
      ['customers.0.email'],
    );
    assert.equal(await findImportProcessStatus(t.db, 'ACME', a.external_account_number), null);
  });

  it('requires external_account_number to schedule, though validation alone does not', async () => {
    const a = accountFor('ACME', ++n);
    delete a.external_account_number;
    assert.equal((await validate(a)).statusCode, 200);
    const res = await create(a);
    assert.equal(res.statusCode, 400);
    assert.deepEqual(
      res.json().errors.map((e: { attr: string; code: string }) => [e.attr, e.code]),
      [['external_account_number', 'required']],
    );
  });

  it('refuses creation for Paused and Complete suppliers, but still validates for them', async () => {
    for (const [code, error] of [
      ['PAUSED', 'import_supplier_paused'],
      ['DONE', 'import_supplier_complete'],
    ]) {
      const a = accountFor(code, ++n);
      assert.equal((await validate(a)).statusCode, 200);
      const res = await create(a);
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().code, error);
      assert.equal(res.json().domain, 'import_process');
    }
  });

  it('honours task_params: a dry run ends DRY_RUN_SUCCEEDED, a future window waits', async () => {
    const dry = accountFor('ACME', ++n);
    assert.equal((await create({ payload: dry, task_params: { is_dry_run: true } })).statusCode, 201);
    const later = accountFor('ACME', ++n);
    const start = new Date(Date.now() + 3600e3).toISOString().replace(/\.\d+Z$/, 'Z');
    const res = await create({ payload: later, task_params: { schedule_window_start: start } });
    assert.equal(res.statusCode, 201, res.body);
    await runWorkerUntilIdle(t.config, t.db);
    assert.equal(
      (await findImportProcessStatus(t.db, 'ACME', dry.external_account_number))!.status,
      'DRY_RUN_SUCCEEDED',
    );
    assert.equal(
      (await findImportProcessStatus(t.db, 'ACME', later.external_account_number))!.status,
      'PENDING',
    );
  });

  it('re-scheduling a waiting process without a window makes it due at once, as docs/product.md says', async () => {
    const a = accountFor('ACME', ++n);
    const start = new Date(Date.now() + 3600e3).toISOString().replace(/\.\d+Z$/, 'Z');
    assert.equal(
      (await create({ payload: a, task_params: { schedule_window_start: start } })).statusCode,
      201,
    );
    assert.equal((await create(a)).statusCode, 201);
    await runWorkerUntilIdle(t.config, t.db);
    assert.equal(
      (await findImportProcessStatus(t.db, 'ACME', a.external_account_number))!.status,
      'PROCESSED',
    );
  });

  it('refuses a blank external_account_number and a blank import_supplier with blank', async () => {
    const a = accountFor('ACME', ++n);
    a.external_account_number = '';
    for (const res of [await validate(a), await create(a)]) {
      assert.equal(res.statusCode, 400);
      assert.deepEqual(
        res.json().errors.map((e: { attr: string; code: string }) => [e.attr, e.code]),
        [['external_account_number', 'blank']],
      );
    }
    const b = accountFor('ACME', ++n);
    b.import_supplier = '';
    assert.ok(
      (await validate(b))
        .json()
        .errors.some(
          (e: { attr: string; code: string }) => e.attr === 'import_supplier' && e.code === 'blank',
        ),
    );
  });

  it('rejects task_params errors with attrs under task_params', async () => {
    const past = new Date(Date.now() - 86400e3).toISOString().replace(/\.\d+Z$/, 'Z');
    const res = await validate({
      payload: accountFor('ACME', ++n),
      task_params: { schedule_window_start: past },
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(
      res.json().errors.map((e: { attr: string; code: string }) => [e.attr, e.code]),
      [['task_params.schedule_window_start', 'schedule_window_start_in_past']],
    );
  });

  it('creates exactly one process from 50 concurrent identical requests', async () => {
    const a = accountFor('ACME', ++n);
    const results = await Promise.all(Array.from({ length: 50 }, () => create(a)));
    assert.ok(
      results.every((r) => r.statusCode === 201),
      results.map((r) => r.statusCode).join(','),
    );
    const p = await admin<{ events: unknown[] }>(
      t.app,
      'GET',
      `/import-processes/ACME/${a.external_account_number}/`,
    );
    assert.equal(p.events.length, 1);
  });
});
