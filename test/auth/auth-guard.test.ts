import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

interface Route {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
}

/**
 * Every data-import route, read from the OpenAPI document (routes marked with the token
 * scheme), so a route added later is covered without editing this test.
 */
describe('authentication and supplier scoping on every data-import route', () => {
  let t: TestApp;
  let routes: Route[];
  let mine: Record<string, string>;
  before(async () => {
    t = await createTestApp();
    ({ headers: mine } = await tokenFor(t.app, ['MINE']));
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'OTHER' });
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    routes = [];
    for (const [path, ops] of Object.entries<Record<string, { security?: Record<string, unknown>[] }>>(
      doc.paths,
    )) {
      for (const [method, op] of Object.entries(ops)) {
        if (op.security?.some((s) => 'token' in s))
          routes.push({ method: method.toUpperCase() as Route['method'], path });
      }
    }
  });
  after(() => t.close());

  const call = (r: Route, supplier: string, headers: Record<string, string>, body?: unknown) =>
    t.app.inject({
      method: r.method,
      // A GET without the supplier in its path names it in the query (the event feed).
      url:
        r.path.replace('{import_supplier_code}', supplier).replace(/\{[a-z_]+\}/g, 'ext-1') +
        (r.method === 'GET' && r.path.endsWith('/events/') ? `?import_supplier=${supplier}` : ''),
      headers: r.method === 'PUT' ? { ...headers, 'content-type': 'application/x-ndjson' } : headers,
      // A wave's expectations (the one PUT) are NDJSON.
      ...(r.method === 'PUT' ? { payload: '{"external_account_number": "ext-1"}\n' } : {}),
      ...(r.method === 'POST'
        ? {
            payload: (body ??
              (r.path.endsWith('/process/')
                ? { import_supplier_code: supplier, external_account_number: 'ext-1' }
                : r.path.endsWith('/statuses/')
                  ? { import_supplier: supplier, external_identifiers: ['ext-1'] }
                  : { import_supplier: supplier, external_account_number: 'ext-1' })) as never,
          }
        : {}),
    });

  /** The product catalogue is the service's, not a supplier's: every token reads it. */
  const namesSupplier = (r: Route) => !r.path.endsWith('/products/');

  it('finds the data-import routes in the OpenAPI document', () => {
    // validate, bulk validate, create, bulk create, V2 status, V2 statuses, V1 status, three lists,
    // notes, transactions, statements, payment instruction, V1 validate-account, create-or-update
    // and process, the supplier's own status, and the waves: list, expectations, reconciliation
    // and its differences, the event feed, and the product catalogue
    assert.equal(routes.length, 24, routes.map((r) => `${r.method} ${r.path}`).join('\n'));
  });

  it('answers 401 not_authenticated without an Authorization header', async () => {
    for (const r of routes) {
      const res = await call(r, 'MINE', {});
      assert.equal(res.statusCode, 401, `${r.method} ${r.path}`);
      assert.equal(res.json().code, 'not_authenticated', `${r.method} ${r.path}`);
    }
  });

  it('answers 401 authentication_failed for a bad token', async () => {
    for (const r of routes) {
      const res = await call(r, 'MINE', { authorization: 'Token not.a.jwt' });
      assert.equal(res.statusCode, 401, `${r.method} ${r.path}`);
      assert.equal(res.json().code, 'authentication_failed');
    }
  });

  it('answers 403 permission_denied for a supplier outside the key, whether or not it exists', async () => {
    for (const r of routes.filter(namesSupplier)) {
      for (const supplier of ['OTHER', 'GHOST']) {
        const res = await call(r, supplier, mine);
        assert.equal(res.statusCode, 403, `${r.method} ${r.path} ${supplier}`);
        assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'detail']);
        assert.equal(res.json().code, 'permission_denied');
      }
    }
  });

  it("checks the body's import_supplier, bare or wrapped in payload, before validating it", async () => {
    for (const r of routes.filter((x) => x.method === 'POST')) {
      for (const body of [
        { import_supplier: 'OTHER', junk: true },
        { payload: { import_supplier: 'OTHER' }, task_params: 5 },
      ]) {
        const res = await call(r, 'MINE', mine, body);
        assert.equal(res.statusCode, 403, `${r.method} ${r.path}`);
      }
    }
  });

  it('lets a key for all suppliers ("*") through to the route', async () => {
    const { headers } = await tokenFor(t.app, ['*'], []);
    for (const r of routes.filter((x) => x.method === 'GET')) {
      const res = await call(r, 'OTHER', headers);
      assert.ok([200, 404].includes(res.statusCode), `${r.path}: ${res.statusCode}`);
    }
  });
});
