import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importProcessStatusReader } from '../../src/account-import/status/status.queries.ts';
import { stageProcess } from '../helpers/processes.ts';
import { adminHeaders, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

const NUL = '%00';

/**
 * docs/product.md, Errors: strings never contain NUL; in a path parameter → 404 `not_found`, before any
 * query reads it. And "a failure of one request never fails another batched with it": status
 * polls share one statement, which a NUL would make PostgreSQL reject for all of them.
 */
describe('path parameters with NUL, and batched status polls', () => {
  let t: TestApp;
  let token: Record<string, string>;
  const externals = Array.from({ length: 12 }, (_, i) => `NUL-${i + 1}`);

  before(async () => {
    t = await createTestApp();
    ({ headers: token } = await tokenFor(t.app, ['ACME']));
    for (const external of externals) await stageProcess(t.db, 'ACME', external);
  });
  after(() => t.close());

  it('every route with a path parameter answers 404 not_found for a NUL in any of them', async () => {
    await t.app.ready();
    const paths = (t.app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths;
    let checked = 0;
    for (const [path, operations] of Object.entries(paths)) {
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const method of Object.keys(operations)) {
        for (const param of params) {
          const url = path.replace(/\{(\w+)\}/g, (_, name) => (name === param ? `AC${NUL}ME` : 'ACME'));
          const res = await t.app.inject({
            method: method.toUpperCase() as 'GET',
            url,
            headers: path.startsWith('/admin/') ? adminHeaders : token,
            ...(method === 'get' || method === 'delete' ? {} : { payload: {} }),
          });
          assert.equal(res.statusCode, 404, `${method.toUpperCase()} ${url}: ${res.body}`);
          assert.equal(res.json().code, 'not_found', url);
          assert.ok(!res.body.includes('\u0000'), 'the NUL is not echoed');
          checked++;
        }
      }
    }
    assert.ok(checked >= 14, `checked ${checked} route parameters`);
  });

  it('a poll with %00 in its external_account_number answers 404; concurrent valid polls answer 200', async () => {
    const polls = [
      ...externals.map((e) => `/v2/data-import/accounts/ACME/${e}/`),
      `/v2/data-import/accounts/ACME/NUL-1${NUL}/`,
      ...externals.map((e) => `/v1/data-import/account-transfer-status/ACME/${e}/`),
      `/v1/data-import/account-transfer-status/ACME/${NUL}NUL-2/`,
    ];
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        polls.map((url) => t.app.inject({ method: 'GET', url, headers: token })),
      );
      answers.forEach((res, i) => {
        const expected = polls[i].includes(NUL) ? 404 : 200;
        assert.equal(res.statusCode, expected, `${polls[i]}: ${res.body}`);
      });
    }
  });

  it('the status batch isolates a look-up the database rejects: the others still get their rows', async () => {
    // Below the HTTP guard: the batcher itself retries a failed batch one item at a time.
    const read = importProcessStatusReader(t.db);
    const keys = [...externals.slice(0, 5), 'NUL\u0000X', ...externals.slice(5)];
    const out = await Promise.allSettled(keys.map((k) => read('ACME', k)));
    out.forEach((o, i) => {
      if (keys[i].includes('\u0000')) assert.equal(o.status, 'rejected', 'PostgreSQL refuses NUL in text');
      else {
        assert.equal(o.status, 'fulfilled', `${keys[i]}: ${o.status === 'rejected' ? o.reason : ''}`);
        assert.equal(o.value?.status, 'PENDING');
      }
    });
  });
});
