/**
 * POST /v2/data-import/accounts/validate/bulk/: each line answered as the validate endpoint
 * answers it alone — valid, invalid, a reserved identifier, a supplier outside the key's scope, a
 * line that cannot be read — and nothing is scheduled.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

describe('bulk validate', () => {
  let t: TestApp;
  let headers: Record<string, string>;

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' });
    ({ headers } = await tokenFor(t.app, ['BULKVAL']));
    await tokenFor(t.app, ['BULKVAL_OTHER']);
  });
  after(() => t.close());

  const post = (url: string, payload: string | object, contentType = 'application/json') =>
    t.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': contentType }, payload });

  it('answers each line as the validate endpoint would, and schedules nothing', async () => {
    const held = accountFor('BULKVAL', 1);
    assert.equal((await post('/v2/data-import/accounts/', held)).statusCode, 201);
    const conflicting = accountFor('BULKVAL', 2);
    conflicting.supply_addresses[0].meter_points[0].identifier =
      held.supply_addresses[0].meter_points[0].identifier;
    const invalid = { ...accountFor('BULKVAL', 3), billing_postcode: 'not a postcode' };
    const bodies: (string | Obj)[] = [
      accountFor('BULKVAL', 4),
      { payload: invalid },
      conflicting,
      accountFor('BULKVAL_OTHER', 5),
      '{"not json',
    ];
    const lines = bodies.map((b) => (typeof b === 'string' ? b : JSON.stringify(b)));
    const res = await post(
      '/v2/data-import/accounts/validate/bulk/',
      `${lines.join('\n')}\n`,
      'application/x-ndjson',
    );
    assert.equal(res.statusCode, 200, res.body);
    const results = res.json().results;
    for (const [i, body] of bodies.entries()) {
      if (typeof body === 'string') continue;
      const alone = await post('/v2/data-import/accounts/validate/', body);
      assert.equal(results[i].status, alone.statusCode, `line ${i + 1}`);
      assert.deepEqual(results[i].body, alone.json(), `line ${i + 1}`);
    }
    assert.deepEqual(
      results.map((r: Obj) => r.status),
      [200, 400, 400, 403, 400],
    );
    assert.equal(results[2].body.errors[0].code, 'meter_point_on_another_account');
    assert.equal(results[4].body.code, 'parse_error');
    const { rows } = await t.db.query<{ n: number }>(
      sql('', 'SELECT count(*)::int AS n FROM import_processes'),
    );
    assert.equal(rows[0].n, 1, 'only the account scheduled first');
  });

  it('takes a JSON array too, and refuses more than 1,000 accounts whole', async () => {
    const ok = await post('/v2/data-import/accounts/validate/bulk/', [accountFor('BULKVAL', 6)]);
    assert.deepEqual(ok.json().results, [
      { external_account_number: accountFor('BULKVAL', 6).external_account_number, status: 200, body: {} },
    ]);
    const many = await post(
      '/v2/data-import/accounts/validate/bulk/',
      `${'{}\n'.repeat(1001)}`,
      'application/x-ndjson',
    );
    assert.equal(many.statusCode, 400, many.body);
  });
});
