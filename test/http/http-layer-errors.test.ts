import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { stageAccount } from '../helpers/imported-accounts.ts';
import { adminHeaders, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

/** Our error format: {detail, code} (and errors only on validation failures). */
/** The keys the payment-instruction endpoint adds to every error (the real deployment's; docs/product.md). */
const PAYMENT_INSTRUCTION_KEYS = ['error_detail', 'import_supplier', 'external_account_number', 'reference'];

function assertOurFormat(body: string, code: string) {
  const parsed: Obj = JSON.parse(body);
  assert.equal(parsed.code, code, body);
  assert.equal(typeof parsed.detail, 'string', body);
  assert.deepEqual(
    Object.keys(parsed).filter((k) => k !== 'errors' && !PAYMENT_INSTRUCTION_KEYS.includes(k)),
    ['detail', 'code'],
    body,
  );
}

/** Writes `request` on a fresh connection and returns everything the server answers. */
function rawRequest(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => {
      answer += d.toString('latin1');
    });
    socket.on('error', (err) => (answer ? resolve(answer) : reject(err)));
    socket.on('close', () => resolve(answer));
    socket.write(request);
  });
}

const splitAnswer = (answer: string) => {
  const at = answer.indexOf('\r\n\r\n');
  return { head: answer.slice(0, at), status: Number(answer.split(' ')[1]), body: answer.slice(at + 4) };
};

describe('answers of the HTTP layer', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let port: number;
  const MARKER = 'NEVER-ECHOED-MARKER';

  before(async () => {
    t = await createTestApp();
    ({ headers } = await tokenFor(t.app, ['*'], ['ACME']));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  after(() => t.close());

  /** Every POST and PATCH route of the REST and admin APIs, from the OpenAPI document. */
  async function bodyRoutes(): Promise<{ method: 'POST' | 'PATCH'; url: string }[]> {
    const doc: Obj = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const routes: { method: 'POST' | 'PATCH'; url: string }[] = [];
    for (const [path, item] of Object.entries(doc.paths as Obj)) {
      const url = path.replace(/\{[^}]+\}/g, 'x');
      if (url === '/v1/graphql/') continue; // GraphQL's own error shape: checked below
      if (item.post) routes.push({ method: 'POST', url });
      if (item.patch) routes.push({ method: 'PATCH', url });
    }
    return routes;
  }

  it('answers 415 unsupported_media_type to a body that is not JSON, on every POST and PATCH route, before validation', async () => {
    const routes = await bodyRoutes();
    assert.ok(routes.length >= 11, `found ${routes.length} routes`);
    assert.ok(routes.some((r) => r.url === '/v2/data-import/accounts/validate/'));
    const suppliersBefore = (await t.db.query(sql('', 'SELECT code FROM import_suppliers'))).rowCount;
    // A body that would be valid JSON for most routes, so nothing but the type is wrong.
    const payload = JSON.stringify({ code: 'SNEAKY', name: 'k', import_suppliers: ['*'] });
    for (const { method, url } of routes) {
      const auth = url.startsWith('/admin/') ? adminHeaders : headers;
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', '']) {
        const res = await t.app.inject({
          method,
          url,
          headers: { ...auth, 'content-type': contentType },
          payload,
        });
        assert.equal(res.statusCode, 415, `${method} ${url} ${contentType}: ${res.body}`);
        assertOurFormat(res.body, 'unsupported_media_type');
      }
      // No Content-Type at all, with or without a body, on a route that takes one.
      for (const body of [payload, undefined]) {
        const res = await t.app.inject({ method, url, headers: auth, payload: body });
        if (body === undefined && /\/(cancel|retry|test)\/$/.test(url)) continue; // no body taken
        assert.equal(res.statusCode, 415, `${method} ${url} without Content-Type: ${res.body}`);
      }
    }
    const suppliersAfter = (await t.db.query(sql('', 'SELECT code FROM import_suppliers'))).rowCount;
    assert.equal(suppliersAfter, suppliersBefore, 'nothing was created');
    // GraphQL answers in its own error shape, with the same status.
    const gql = await t.app.inject({
      method: 'POST',
      url: '/v1/graphql/',
      headers: { 'content-type': 'text/plain' },
      payload: '{"query":"{ ok }"}',
    });
    assert.equal(gql.statusCode, 415);
    assert.equal(gql.json().data, null);
    assert.equal(gql.json().errors.length, 1);
  });

  it('still takes JSON with a charset, and a bodiless POST where the route takes no body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/import-suppliers/',
      headers: { ...adminHeaders, 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify({ code: 'CHARSET' }),
    });
    assert.equal(res.statusCode, 201, res.body);
    const cancel = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/import-processes/CHARSET/nope/cancel/',
      headers: adminHeaders,
    });
    assert.equal(cancel.statusCode, 404, cancel.body);
  });

  it('manages an account whose external_account_number has 128 characters, through every path', async () => {
    const external = `E${'x'.repeat(127)}`;
    const account = accountFor('ACME', 77);
    account.external_account_number = external;
    await stageAccount(t, headers, account);
    for (const url of [
      `/v2/data-import/accounts/ACME/${external}/`,
      `/v1/data-import/account-transfer-status/ACME/${external}/`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers });
      assert.notEqual(res.statusCode, 414, url);
      assert.ok(res.statusCode === 200 || res.statusCode === 404, `${url}: ${res.statusCode} ${res.body}`);
    }
    const adminView = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/import-processes/ACME/${external}/`,
      headers: adminHeaders,
    });
    assert.equal(adminView.statusCode, 200, adminView.body);
  });

  it('takes path parameters of 255 characters and answers 414 in our format past that, without the URL', async () => {
    const at255 = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/import-suppliers/${'x'.repeat(255)}/`,
      headers: adminHeaders,
    });
    assert.equal(at255.statusCode, 404);
    assertOurFormat(at255.body, 'not_found');
    const long = `${MARKER}${'x'.repeat(256)}`;
    for (const url of [
      `/admin/v1/import-suppliers/${long}/`,
      `/v2/data-import/accounts/ACME/${long}/`,
      `/v1/data-import/account-transfer-status/${long}/x/`,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: url.startsWith('/admin') ? adminHeaders : headers,
      });
      assert.equal(res.statusCode, 414, url);
      assertOurFormat(res.body, 'uri_too_long');
      assert.ok(!res.body.includes(MARKER), res.body);
    }
  });

  it('answers a malformed URL or bad percent-encoding with 400 invalid_url, without the URL', async () => {
    for (const url of [
      `/admin/v1/import-suppliers/${MARKER}%zz/`,
      `/v2/data-import/accounts/ACME/${MARKER}%E0%A4%A/`,
      `/v1/data-import/account-transfer-status/${MARKER}%/x/`,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: url.startsWith('/admin') ? adminHeaders : headers,
      });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assertOurFormat(res.body, 'invalid_url');
      assert.ok(!res.body.includes(MARKER), res.body);
    }
  });

  it('answers an unknown route with 404 not_found, without the URL', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/no/such/${MARKER}/route?q=${MARKER}` });
    assert.equal(res.statusCode, 404);
    assertOurFormat(res.body, 'not_found');
    assert.ok(!res.body.includes(MARKER), res.body);
  });

  it('routes first, then reads the body: an unknown route is 404 not_found whatever its body, content type and credentials', async () => {
    const bodies: [string, string][] = [
      ['application/x-ndjson', '{"external_account_number":"A"}\n{"external_account_number":"B"}\n'],
      ['application/json', '{"not": "closed"'],
      ['application/json', '{"fine": true}'],
      ['text/csv', 'a,b\n1,2\n'],
      ['application/xml', '<a/>'],
    ];
    const routes: [string, string][] = [
      ['PUT', '/v9/whatever/'],
      ['POST', `/v2/data-import/no-such-thing/${MARKER}/`],
      ['POST', '/admin/v1/no-such-thing/'],
      // A known path with a method it does not take is no route either.
      ['PUT', '/v2/data-import/accounts/validate/'],
      ['DELETE', '/v2/data-import/accounts/bulk/'],
    ];
    for (const [method, url] of routes) {
      for (const [contentType, payload] of bodies) {
        for (const auth of [{}, headers, adminHeaders]) {
          const res = await t.app.inject({
            method: method as 'PUT',
            url,
            headers: { ...auth, 'content-type': contentType },
            payload,
          });
          assert.equal(res.statusCode, 404, `${method} ${url} ${contentType}: ${res.body}`);
          assertOurFormat(res.body, 'not_found');
          assert.ok(!res.body.includes(MARKER), res.body);
        }
      }
    }
    // A known route still refuses NDJSON it does not take with 415, before validating anything.
    const known = await t.app.inject({
      method: 'POST',
      url: '/v2/data-import/accounts/validate/',
      headers: { ...headers, 'content-type': 'application/x-ndjson' },
      payload: '{}\n',
    });
    assert.equal(known.statusCode, 415, known.body);
    assertOurFormat(known.body, 'unsupported_media_type');
  });

  describe('over a real socket', () => {
    it('answers oversized headers with 431 in our format', async () => {
      const answer = await rawRequest(
        port,
        `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${MARKER}${'a'.repeat(20_000)}\r\n\r\n`,
      );
      const { status, head, body } = splitAnswer(answer);
      assert.equal(status, 431, answer.slice(0, 300));
      assert.match(head, /content-type: application\/json/i);
      assertOurFormat(body, 'request_header_fields_too_large');
      assert.ok(!body.includes(MARKER));
    });

    it('answers a URL longer than the header limit with 431 in our format, without the URL', async () => {
      const answer = await rawRequest(
        port,
        `GET /v1/${MARKER}${'u'.repeat(20_000)}/ HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      const { status, body } = splitAnswer(answer);
      assert.equal(status, 431);
      assertOurFormat(body, 'request_header_fields_too_large');
      assert.ok(!body.includes(MARKER));
    });

    it('answers bytes that are not HTTP with 400 bad_request in our format', async () => {
      const answer = await rawRequest(port, `NOT HTTP AT ALL ${MARKER}\r\n\r\n`);
      const { status, body } = splitAnswer(answer);
      assert.equal(status, 400, answer);
      assertOurFormat(body, 'bad_request');
      assert.ok(!body.includes(MARKER));
    });

    it('answers a long path parameter and bad percent-encoding in our format', async () => {
      const tooLong = splitAnswer(
        await rawRequest(
          port,
          `GET /admin/v1/import-suppliers/${MARKER}${'x'.repeat(300)}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        ),
      );
      assert.equal(tooLong.status, 414);
      assertOurFormat(tooLong.body, 'uri_too_long');
      const badUrl = splitAnswer(
        await rawRequest(
          port,
          `GET /admin/v1/import-suppliers/${MARKER}%zz/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
        ),
      );
      assert.equal(badUrl.status, 400);
      assertOurFormat(badUrl.body, 'invalid_url');
      assert.ok(!`${tooLong.body}${badUrl.body}`.includes(MARKER));
    });
  });
});
