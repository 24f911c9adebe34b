import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { IMPORT_PROCESS_STATUSES } from '../../src/vocabulary/import-process-states.ts';
import { stageProcess } from '../helpers/processes.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

const DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe('status endpoints', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  const accounts: Record<string, string | null> = {};
  before(async () => {
    t = await createTestApp();
    ({ headers } = await tokenFor(t.app, ['ST', 'EMPTY']));
    for (const s of IMPORT_PROCESS_STATUSES) accounts[s] = await stageProcess(t.db, 'ST', `ext-${s}`, s);
  });
  after(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers });

  describe('V2 account import status', () => {
    for (const status of IMPORT_PROCESS_STATUSES) {
      it(`reports a ${status} process`, async () => {
        const res = await get(`/v2/data-import/accounts/ST/ext-${status}/`);
        assert.equal(res.statusCode, 200);
        const body = res.json();
        assert.deepEqual(Object.keys(body).sort(), [
          'created_at',
          'latest_error',
          'latest_event',
          'modified_at',
          'service_identifier',
          'status',
        ]);
        assert.equal(body.status, status);
        assert.match(body.created_at, DATETIME);
        assert.match(body.modified_at, DATETIME);
        assert.match(body.latest_event.occurred_at, DATETIME);
        assert.match(body.latest_event.event, /^EVENT_ACCOUNT_IMPORT_PROCESS_/);
        if (status === 'PROCESSED') assert.match(body.service_identifier, /^A-[0-9A-F]{8}$/);
        else assert.equal(body.service_identifier, null);
        if (status === 'ERRORED' || status === 'DRY_RUN_ERRORED') {
          assert.deepEqual(body.latest_error, {
            code: 'meter_point_on_another_account',
            detail: 'The meter point is already on an account.',
            domain: 'account_import',
          });
          assert.deepEqual(body.latest_event.data, body.latest_error);
        } else assert.equal(body.latest_error, null);
      });
    }

    it('answers concurrent polls of different processes, found or not, each with its own (they share a query)', async () => {
      const asked = [...IMPORT_PROCESS_STATUSES, 'missing-1', ...IMPORT_PROCESS_STATUSES, 'missing-2'];
      const answers = await Promise.all(
        asked.map((s) =>
          get(
            s.startsWith('missing')
              ? `/v2/data-import/accounts/ST/${s}/`
              : `/v2/data-import/accounts/ST/ext-${s}/`,
          ),
        ),
      );
      answers.forEach((res, i) => {
        if (asked[i].startsWith('missing')) assert.equal(res.statusCode, 404);
        else {
          assert.equal(res.statusCode, 200);
          assert.equal(res.json().status, asked[i]);
        }
      });
    });

    it('answers 404 not_found for an unknown process', async () => {
      const res = await get('/v2/data-import/accounts/ST/nope/');
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().code, 'not_found');
    });
  });

  describe('V2 statuses in a batch', () => {
    const statuses = (body: unknown, h = headers) =>
      t.app.inject({
        method: 'POST',
        url: '/v2/data-import/accounts/statuses/',
        headers: h,
        payload: body as never,
      });

    it('answers each identifier, in order, exactly as the status endpoint answers it alone', async () => {
      const asked = [...IMPORT_PROCESS_STATUSES.map((s) => `ext-${s}`), 'nope', 'ext-PENDING'];
      const res = await statuses({ import_supplier: 'ST', external_identifiers: asked });
      assert.equal(res.statusCode, 200, res.body);
      const { results } = res.json();
      assert.equal(results.length, asked.length);
      for (const [i, ext] of asked.entries()) {
        const alone = await get(`/v2/data-import/accounts/ST/${ext}/`);
        assert.deepEqual(results[i], {
          external_identifier: ext,
          status: alone.statusCode,
          body: alone.json(),
        });
      }
      assert.equal(results[asked.indexOf('nope')].status, 404);
    });

    it('refuses another tenant, more than 1,000 identifiers and unknown fields, and knows no other supplier', async () => {
      const other = await tokenFor(t.app, ['EMPTY']);
      const denied = await statuses(
        { import_supplier: 'ST', external_identifiers: ['ext-PENDING'] },
        other.headers,
      );
      assert.equal(denied.statusCode, 403);
      assert.equal(denied.json().code, 'permission_denied');
      const many = await statuses({ import_supplier: 'ST', external_identifiers: Array(1_001).fill('x') });
      assert.equal(many.statusCode, 400);
      assert.equal(many.json().errors[0].attr, 'external_identifiers');
      const extra = await statuses({ import_supplier: 'ST', external_identifiers: ['x'], more: 1 });
      assert.equal(extra.statusCode, 400);
      const elsewhere = await statuses({ import_supplier: 'EMPTY', external_identifiers: ['ext-PENDING'] });
      assert.equal(elsewhere.json().results[0].status, 404, "another supplier's identifiers are not found");
    });
  });

  describe('V1 account-transfer-status', () => {
    const expected: Record<string, string> = {
      PENDING: 'UNKNOWN',
      IN_PROGRESS: 'IN_PROGRESS',
      PROCESSED: 'COMPLETED',
      CANCELLED: 'UNKNOWN',
      DRY_RUN_SUCCEEDED: 'UNKNOWN',
      ERRORED: 'UNKNOWN',
      DRY_RUN_ERRORED: 'UNKNOWN',
    };
    for (const [v2, v1] of Object.entries(expected)) {
      it(`maps V2 ${v2} to V1 ${v1}`, async () => {
        const res = await get(`/v1/data-import/account-transfer-status/ST/ext-${v2}/`);
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.json(), { status: v1, service_account_number: accounts[v2] ?? '' });
      });
    }
    it('answers 404 when no process exists', async () => {
      const res = await get('/v1/data-import/account-transfer-status/ST/nope/');
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().code, 'not_found');
    });
  });

  describe('lists', () => {
    const externals = (body: { external_account_number: string }[]) =>
      body.map((r) => r.external_account_number).sort();

    it('all: every process except cancelled ones without an account', async () => {
      const res = await get('/v1/data-import/all-account-import-processes/ST/');
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /application\/json/);
      const body = res.json();
      assert.deepEqual(
        externals(body),
        IMPORT_PROCESS_STATUSES.filter((s) => s !== 'CANCELLED')
          .map((s) => `ext-${s}`)
          .sort(),
      );
      for (const r of body) {
        assert.deepEqual(Object.keys(r).sort(), [
          'account_created_at',
          'external_account_number',
          'service_account_number',
        ]);
        if (r.external_account_number === 'ext-PROCESSED') {
          assert.equal(r.service_account_number, accounts.PROCESSED);
          assert.match(r.account_created_at, DATETIME);
        } else {
          assert.equal(r.service_account_number, null);
          assert.equal(r.account_created_at, null);
        }
      }
    });

    it('pending: processes without an account, cancelled ones excluded, numbers always null', async () => {
      const body = (await get('/v1/data-import/pending-account-import-processes/ST/')).json();
      assert.deepEqual(
        externals(body),
        IMPORT_PROCESS_STATUSES.filter((s) => s !== 'CANCELLED' && s !== 'PROCESSED')
          .map((s) => `ext-${s}`)
          .sort(),
      );
      assert.ok(
        body.every(
          (r: Record<string, unknown>) => r.service_account_number === null && r.account_created_at === null,
        ),
      );
    });

    it('imported: only processes with an account, same record shape', async () => {
      const body = (await get('/v1/data-import/imported-account-import-processes/ST/')).json();
      assert.equal(body.length, 1);
      assert.equal(body[0].external_account_number, 'ext-PROCESSED');
      assert.equal(body[0].service_account_number, accounts.PROCESSED);
      assert.match(body[0].account_created_at, DATETIME);
    });

    it('a known supplier with nothing answers [] and an unknown one 404', async () => {
      for (const list of ['all', 'pending', 'imported']) {
        const empty = await get(`/v1/data-import/${list}-account-import-processes/EMPTY/`);
        assert.equal(empty.statusCode, 200);
        assert.deepEqual(empty.json(), []);
      }
      const { headers: all } = await tokenFor(t.app, ['*'], []);
      const unknown = await t.app.inject({
        method: 'GET',
        url: '/v1/data-import/all-account-import-processes/UNKNOWN/',
        headers: all,
      });
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.json().code, 'not_found');
    });
  });

  describe('admin: import processes', () => {
    it('shows the stored payload and the full event history', async () => {
      const p = await admin(t.app, 'GET', '/import-processes/ST/ext-ERRORED/');
      assert.equal(p.status, 'ERRORED');
      assert.deepEqual(p.payload, { import_supplier: 'ST', external_account_number: 'ext-ERRORED' });
      const events = (p.events as { event: string }[]).map((e) => e.event);
      assert.deepEqual(events, [
        'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED',
        'EVENT_ACCOUNT_IMPORT_PROCESS_ERRORED',
      ]);
      assert.equal(
        (await admin(t.app, 'GET', '/import-processes/ST/nope/', undefined, 404)).code,
        'not_found',
      );
    });

    it('cancels STAGED, PENDING, ERRORED and DRY_RUN_* processes and refuses the others', async () => {
      for (const s of IMPORT_PROCESS_STATUSES) await stageProcess(t.db, 'ST', `cancel-${s}`, s);
      for (const s of IMPORT_PROCESS_STATUSES) {
        const allowed = ['STAGED', 'PENDING', 'ERRORED', 'DRY_RUN_SUCCEEDED', 'DRY_RUN_ERRORED'].includes(s);
        const res = await admin(
          t.app,
          'POST',
          `/import-processes/ST/cancel-${s}/cancel/`,
          undefined,
          allowed ? 200 : 400,
        );
        if (allowed) {
          assert.equal(res.status, 'CANCELLED', s);
          assert.equal(
            (res.events as { event: string }[]).at(-1)!.event,
            'EVENT_ACCOUNT_IMPORT_PROCESS_CANCELLED',
          );
        } else assert.equal(res.code, 'invalid_state_transition', s);
      }
    });

    it('retries only ERRORED processes, back to PENDING', async () => {
      for (const s of IMPORT_PROCESS_STATUSES) await stageProcess(t.db, 'ST', `retry-${s}`, s);
      for (const s of IMPORT_PROCESS_STATUSES) {
        const res = await admin(
          t.app,
          'POST',
          `/import-processes/ST/retry-${s}/retry/`,
          undefined,
          s === 'ERRORED' ? 200 : 400,
        );
        if (s === 'ERRORED') {
          assert.equal(res.status, 'PENDING');
          assert.equal(res.latest_error, null);
        } else assert.equal(res.code, 'invalid_state_transition');
      }
      assert.equal(
        (await admin(t.app, 'POST', '/import-processes/ST/nope/retry/', undefined, 404)).code,
        'not_found',
      );
    });

    it('writes an operator retry as its own event, RETRIED by the operator (not a second CREATED)', async () => {
      await stageProcess(t.db, 'ST', 'retried-event', 'ERRORED');
      const res = await admin(t.app, 'POST', '/import-processes/ST/retried-event/retry/');
      const events = res.events as { event: string; data: unknown }[];
      assert.deepEqual(
        events.map((e) => e.event),
        [
          'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED',
          'EVENT_ACCOUNT_IMPORT_PROCESS_ERRORED',
          'EVENT_ACCOUNT_IMPORT_PROCESS_RETRIED',
        ],
      );
      assert.deepEqual(events.at(-1)!.data, { by: 'operator' });
      assert.deepEqual(res.latest_event, {
        ...events.at(-1)!,
        occurred_at: (res.latest_event as { occurred_at: string }).occurred_at,
      });
    });
  });
});
