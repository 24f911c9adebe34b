import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { scheduleImportProcess } from '../../src/account-import/scheduling/scheduling.queries.ts';
import { admin, adminHeaders, createTestApp, type TestApp } from '../helpers/test-app.ts';

describe('admin API: import suppliers', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('creates a supplier with defaults', async () => {
    const s = await admin(t.app, 'POST', '/import-suppliers/', { code: 'ALPHA' });
    assert.equal(s.code, 'ALPHA');
    assert.equal(s.status, 'Ongoing');
    assert.equal(s.document_root, 'alpha');
    assert.deepEqual(s.config, { send_welcome_emails: false, dry_run_only: false });
    assert.match(String(s.created_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('creates a supplier with status, document root and config', async () => {
    const s = await admin(t.app, 'POST', '/import-suppliers/', {
      code: 'BETA',
      status: 'Paused',
      document_root: '/imports/beta/',
      config: { send_welcome_emails: true },
    });
    assert.equal(s.status, 'Paused');
    assert.equal(s.document_root, 'imports/beta');
    assert.deepEqual(s.config, { send_welcome_emails: true, dry_run_only: false });
  });

  it('refuses a taken code with already_exists', async () => {
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'GAMMA' });
    const res = await admin(t.app, 'POST', '/import-suppliers/', { code: 'GAMMA' }, 400);
    assert.equal(res.code, 'already_exists');
  });

  it('rejects bad bodies with attr paths', async () => {
    const res = await admin<{ code: string; errors: { attr: string; code: string }[] }>(
      t.app,
      'POST',
      '/import-suppliers/',
      {
        code: 'has space',
        status: 'Sleeping',
        config: { send_welcome_emails: 'yes', colour: 'red' },
        extra: 1,
      },
      400,
    );
    const got = res.errors.map((e) => `${e.attr}:${e.code}`).sort();
    assert.deepEqual(got, [
      'code:invalid',
      'config.colour:unknown_field',
      'config.send_welcome_emails:invalid',
      'extra:unknown_field',
      'status:invalid_choice',
    ]);
    const traversal = await admin<{ errors: { attr: string; code: string }[] }>(
      t.app,
      'POST',
      '/import-suppliers/',
      { code: 'DELTA', document_root: 'a/../../etc' },
      400,
    );
    assert.deepEqual(
      traversal.errors.map((e) => [e.attr, e.code]),
      [['document_root', 'invalid_document_path']],
    );
  });

  it('takes pause_when_errored on create and patch, and null switches it off', async () => {
    const setting = { window: 200, share: 0.2 };
    const s = await admin<{ config: Record<string, unknown>; automatic_pause: unknown }>(
      t.app,
      'POST',
      '/import-suppliers/',
      { code: 'PAUSY', config: { pause_when_errored: setting } },
    );
    assert.deepEqual(s.config, {
      send_welcome_emails: false,
      dry_run_only: false,
      pause_when_errored: setting,
    });
    assert.equal(s.automatic_pause, null);
    const edges = { window: 10_000, share: 1 };
    const patched = await admin<{ config: Record<string, unknown> }>(
      t.app,
      'PATCH',
      '/import-suppliers/PAUSY/',
      {
        config: { pause_when_errored: edges },
      },
    );
    assert.deepEqual(patched.config.pause_when_errored, edges);
    const off = await admin<{ config: Record<string, unknown> }>(t.app, 'PATCH', '/import-suppliers/PAUSY/', {
      config: { pause_when_errored: null },
    });
    assert.equal(off.config.pause_when_errored, null);
  });

  it('refuses a pause_when_errored out of range with a code at its field', async () => {
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'PAUSX' });
    const refused = async (pause: unknown) => {
      const res = await admin<{ code: string; errors: { attr: string; code: string }[] }>(
        t.app,
        'PATCH',
        '/import-suppliers/PAUSX/',
        { config: { pause_when_errored: pause } },
        400,
      );
      assert.equal(res.code, 'validation_error');
      return res.errors.map((e) => `${e.attr}:${e.code}`).sort();
    };
    const at = 'config.pause_when_errored';
    assert.deepEqual(await refused({ window: 9, share: 0.2 }), [`${at}.window:min_value`]);
    assert.deepEqual(await refused({ window: 10_001, share: 0.2 }), [`${at}.window:max_value`]);
    assert.deepEqual(await refused({ window: 20.5, share: 0.2 }), [`${at}.window:invalid`]);
    assert.deepEqual(await refused({ window: 200, share: 0 }), [`${at}.share:min_value`]);
    assert.deepEqual(await refused({ window: 200, share: 1.5 }), [`${at}.share:max_value`]);
    assert.deepEqual(await refused({ window: 200, share: '0.2' }), [`${at}.share:invalid`]);
    assert.deepEqual(await refused({ window: 200 }), [`${at}.share:required`]);
    assert.deepEqual(await refused({ window: 200, share: 0.2, after: 3 }), [`${at}.after:unknown_field`]);
    assert.deepEqual(await refused(true), [`${at}:invalid`]);
    const unchanged = await admin<{ config: Record<string, unknown> }>(
      t.app,
      'GET',
      '/import-suppliers/PAUSX/',
    );
    assert.equal(unchanged.config.pause_when_errored, undefined);
  });

  it('lists suppliers and shows one, with process counts per status', async () => {
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'COUNTED' });
    for (const n of ['1', '2', '3']) {
      await scheduleImportProcess(t.db, {
        supplier: 'COUNTED',
        externalAccountNumber: n,
        payload: {},
        isDryRun: false,
        scheduleWindowStart: new Date(),
        scheduleWindowEnd: new Date(Date.now() + 86400e3),
        explicitWindow: true,
      });
    }
    const list = await admin<Record<string, unknown>[]>(t.app, 'GET', '/import-suppliers/');
    const codes = list.map((s) => s.code);
    assert.deepEqual(codes, [...codes].sort());
    const counted = list.find((s) => s.code === 'COUNTED')!;
    assert.equal((counted.import_processes as Record<string, number>).PENDING, 3);
    const one = await admin(t.app, 'GET', '/import-suppliers/COUNTED/');
    assert.deepEqual(one.import_processes, {
      STAGED: 0,
      PENDING: 3,
      IN_PROGRESS: 0,
      PROCESSED: 0,
      CANCELLED: 0,
      DRY_RUN_SUCCEEDED: 0,
      ERRORED: 0,
      DRY_RUN_ERRORED: 0,
    });
    const missing = await admin(t.app, 'GET', '/import-suppliers/NOPE/', undefined, 404);
    assert.equal(missing.code, 'not_found');
  });

  it('patches status, document root and config, merging config keys', async () => {
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'EPS', config: { send_welcome_emails: true } });
    const s = await admin(t.app, 'PATCH', '/import-suppliers/EPS/', {
      status: 'Complete',
      document_root: 'eps',
      config: { dry_run_only: true },
    });
    assert.equal(s.status, 'Complete');
    assert.equal(s.document_root, 'eps');
    assert.deepEqual(s.config, { send_welcome_emails: true, dry_run_only: true });
    const missing = await admin(t.app, 'PATCH', '/import-suppliers/NOPE/', { status: 'Paused' }, 404);
    assert.equal(missing.code, 'not_found');
  });

  it('requires the operator key', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/admin/v1/import-suppliers/' });
    assert.equal(none.statusCode, 401);
    assert.equal(none.json().code, 'not_authenticated');
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/admin/v1/import-suppliers/',
      headers: { authorization: 'Bearer wrong' },
    });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().code, 'authentication_failed');
    const ok = await t.app.inject({
      method: 'GET',
      url: '/admin/v1/import-suppliers/',
      headers: adminHeaders,
    });
    assert.equal(ok.statusCode, 200);
  });
});

describe('admin API: API keys', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    for (const code of ['A', 'B']) await admin(t.app, 'POST', '/import-suppliers/', { code });
  });
  after(() => t.close());

  it('issues a key shown once, lists keys without it, and revokes', async () => {
    const k = await admin<Record<string, unknown>>(t.app, 'POST', '/api-keys/', {
      name: 'supplier A',
      import_suppliers: ['A', 'B', 'A'],
    });
    assert.match(String(k.key), /^ferry_[0-9a-f]{16}_[\w-]{43}$/);
    assert.deepEqual(k.import_suppliers, ['A', 'B']);
    const list = await admin<Record<string, unknown>[]>(t.app, 'GET', '/api-keys/');
    assert.equal(list.length, 1);
    assert.equal(list[0].id, k.id);
    assert.ok(!('key' in list[0]));
    assert.ok(!JSON.stringify(list).includes(String(k.key)));
    assert.equal(list[0].revoked_at, null);
    await admin(t.app, 'DELETE', `/api-keys/${k.id}/`);
    const after = await admin<Record<string, unknown>[]>(t.app, 'GET', '/api-keys/');
    assert.match(String(after[0].revoked_at), /Z$/);
    const missing = await admin(t.app, 'DELETE', '/api-keys/nope/', undefined, 404);
    assert.equal(missing.code, 'not_found');
  });

  it('accepts ["*"] and rejects empty or malformed scopes', async () => {
    const all = await admin(t.app, 'POST', '/api-keys/', { name: 'all', import_suppliers: ['*'] });
    assert.deepEqual(all.import_suppliers, ['*']);
    const empty = await admin<{ errors: { attr: string; code: string }[] }>(
      t.app,
      'POST',
      '/api-keys/',
      { name: 'x', import_suppliers: [] },
      400,
    );
    assert.deepEqual(
      empty.errors.map((e) => e.attr),
      ['import_suppliers'],
    );
    const bad = await admin<{ errors: { attr: string; code: string }[] }>(
      t.app,
      'POST',
      '/api-keys/',
      { import_suppliers: ['a b'] },
      400,
    );
    assert.deepEqual(bad.errors.map((e) => `${e.attr}:${e.code}`).sort(), [
      'import_suppliers.0:invalid',
      'name:required',
    ]);
  });

  it('refuses a supplier code that names no import supplier, and issues no key', async () => {
    const before = await admin<unknown[]>(t.app, 'GET', '/api-keys/');
    const refused = await admin<{ code: string; errors: { attr: string; code: string; detail: string }[] }>(
      t.app,
      'POST',
      '/api-keys/',
      { name: 'typo', import_suppliers: ['A', 'NOPE', '*', 'b'] },
      400,
    );
    assert.equal(refused.code, 'validation_error');
    assert.deepEqual(
      refused.errors.map((e) => `${e.attr}:${e.code}`),
      ['import_suppliers.1:import_supplier_not_found', 'import_suppliers.3:import_supplier_not_found'],
    );
    assert.match(refused.errors[0].detail, /"NOPE"/);
    assert.equal((await admin<unknown[]>(t.app, 'GET', '/api-keys/')).length, before.length);
  });
});
