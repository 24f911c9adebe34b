/**
 * Refusals for the supplier's state (decision 0081): a push waiting out a pause repeats its
 * requests, each refused `import_supplier_paused`; those are counted apart from the refusals of
 * the accounts' data, in their own metric family and a line of their own on the supplier's
 * dashboard page, never in the data-quality table.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { accountFor } from '../helpers/account-fixtures.ts';
import { dashboardSession } from '../helpers/dashboard.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

const SUPPLIER = 'WAITED';
const CREATE = '/v2/data-import/accounts/';
const BULK = '/v2/data-import/accounts/bulk/';

describe('refusals for a paused supplier', () => {
  let t: TestApp;
  const metrics = new Registry();

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' }, { metrics });
  });
  after(() => t?.close());

  it('are counted apart from data-quality refusals, on /metrics and the supplier page', async () => {
    const { headers } = await tokenFor(t.app, [SUPPLIER]);
    const post = (payload: unknown) =>
      t.app.inject({ method: 'POST', url: CREATE, headers, payload: payload as object });
    const invalid = accountFor(SUPPLIER, 1);
    invalid.customers[0].landline = 'not a phone';
    assert.equal((await post(invalid)).statusCode, 400);
    await admin(t.app, 'PATCH', `/import-suppliers/${SUPPLIER}/`, { status: 'Paused' }, 200);
    // The same two accounts tried three times over, as a waiting push does: six refusals.
    for (let attempt = 0; attempt < 3; attempt++) {
      assert.equal((await post(accountFor(SUPPLIER, 2))).statusCode, 400);
      const bulk = await t.app.inject({
        method: 'POST',
        url: BULK,
        headers: { ...headers, 'content-type': 'application/x-ndjson' },
        payload: `${JSON.stringify(accountFor(SUPPLIER, 3))}\n`,
      });
      assert.equal(bulk.json().results[0].body.code, 'import_supplier_paused');
    }

    const stateLine = `ferry_supplier_state_refusals_total{supplier="${SUPPLIER}",code="import_supplier_paused"} 6\n`;
    const dataLine = `ferry_schedule_refusals_total{supplier="${SUPPLIER}",code="invalid_phone_number"} 1\n`;
    // Counting is off the request's path: wait for it (bounded).
    let text = '';
    for (let i = 0; i < 50 && !text.includes(stateLine); i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 100));
      text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    }
    assert.ok(text.includes(stateLine), text);
    const dataRefusals = text
      .split('\n')
      .filter((l) => l.startsWith(`ferry_schedule_refusals_total{supplier="${SUPPLIER}"`));
    assert.deepEqual(dataRefusals, [dataLine.trim()], 'only the data-quality refusal');

    const page = (await (await dashboardSession(t.app)).get(`/dashboard/suppliers/${SUPPLIER}/`)).body;
    assert.match(page, /<tr data-refusal="invalid_phone_number">/);
    assert.doesNotMatch(page, /data-refusal="import_supplier_paused"/, 'not in the data-quality table');
    assert.match(
      page,
      /<p data-supplier-state-refusals="import_supplier_paused">While the supplier was paused: <strong>6<\/strong> scheduling requests refused/,
    );
  });
});
