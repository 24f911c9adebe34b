import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/infra/db/db.ts';
import { openPgDb } from '../../src/infra/db/pg-db.ts';
import {
  admin,
  adminHeaders,
  buildTestAppOn,
  createTestApp,
  type TestApp,
  tokenFor,
} from '../helpers/test-app.ts';

describe('error format', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '5' });
    ({ headers } = await tokenFor(t.app, ['ERR']));
  });
  after(() => t.close());

  const post = (payload: string, contentType = 'application/json') =>
    t.app.inject({
      method: 'POST',
      url: '/admin/v1/import-suppliers/',
      headers: { ...adminHeaders, 'content-type': contentType },
      payload,
    });

  it('answers malformed JSON with 400 parse_error', async () => {
    for (const body of ['{"code": ', '{code: 1}', '']) {
      const res = await post(body);
      assert.equal(res.statusCode, 400, body);
      assert.equal(res.json().code, 'parse_error');
    }
  });

  it('answers __proto__ and constructor.prototype payloads with a clean 400 and changes nothing', async () => {
    for (const body of [
      '{"code":"P1","__proto__":{"admin":true}}',
      '{"code":"P2","constructor":{"prototype":{"x":1}}}',
    ]) {
      const res = await post(body);
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().code, 'parse_error');
    }
    assert.equal(({} as Record<string, unknown>).admin, undefined);
    assert.equal((await admin(t.app, 'GET', '/import-suppliers/P1/', undefined, 404)).code, 'not_found');
  });

  it('answers a wrong content type with 415 unsupported_media_type', async () => {
    const res = await post('code=X', 'application/x-www-form-urlencoded');
    assert.equal(res.statusCode, 415);
    assert.equal(res.json().code, 'unsupported_media_type');
  });

  it('answers an unknown route with 404 not_found', async () => {
    for (const url of ['/nope', '/v1/data-import/notes/', '/admin/v1/whatever/']) {
      const res = await t.app.inject({ method: 'GET', url, headers: adminHeaders });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().code, 'not_found');
    }
  });

  it('answers a body over 5 MiB with 413 payload_too_large', async () => {
    const res = await post(JSON.stringify({ code: 'BIG', document_root: 'x'.repeat(5 * 1024 * 1024) }));
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().code, 'payload_too_large');
  });

  it('answers over-rate requests with 429 throttled and Retry-After', async () => {
    const codes: number[] = [];
    let throttled: Awaited<ReturnType<typeof t.app.inject>> | null = null;
    for (let i = 0; i < 12; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/v1/data-import/pending-account-import-processes/ERR/',
        headers,
      });
      codes.push(res.statusCode);
      if (res.statusCode === 429) throttled = res;
    }
    assert.ok(
      codes.slice(0, 5).every((c) => c === 200),
      codes.join(','),
    );
    assert.ok(throttled, codes.join(','));
    assert.equal(throttled.json().code, 'throttled');
    assert.match(String(throttled.headers['retry-after']), /^\d+$/);
  });

  it('reports validation errors all at once with attr paths', async () => {
    const res = await admin<{ detail: string; code: string; errors: unknown[] }>(
      t.app,
      'POST',
      '/import-suppliers/',
      { status: 1, config: { dry_run_only: null } },
      400,
    );
    assert.equal(typeof res.detail, 'string');
    assert.equal(res.code, 'validation_error');
    const byAttr = Object.fromEntries(
      (res.errors as { attr: string; code: string }[]).map((e) => [e.attr, e.code]),
    );
    assert.deepEqual(byAttr, { code: 'required', status: 'invalid', 'config.dry_run_only': 'null' });
    assert.equal(res.errors.length, 3);
  });

  it('answers an empty list min_length and a non-list not_a_list, as the account payload does', async () => {
    for (const [import_suppliers, code] of [
      [[], 'min_length'],
      ['ERR', 'not_a_list'],
    ] as const) {
      const res = await admin<{ code: string; errors: { attr: string; code: string }[] }>(
        t.app,
        'POST',
        '/api-keys/',
        { name: 'k', import_suppliers },
        400,
      );
      assert.equal(res.code, 'validation_error');
      assert.deepEqual(
        res.errors.map((e) => `${e.attr}: ${e.code}`),
        [`import_suppliers: ${code}`],
      );
    }
  });
});

describe('error format: failures behind the routes', () => {
  let t: TestApp;
  let switchable: Db;
  let unreachable: Db;
  let useUnreachable = false;
  let app: FastifyInstance;
  before(async () => {
    t = await createTestApp();
    // A real pg pool aimed at a port where nothing listens: connections are refused.
    unreachable = await openPgDb({ connectionString: 'postgres://ferry@127.0.0.1:9/none' });
    const pick = () => (useUnreachable ? unreachable : t.db);
    switchable = {
      kind: t.db.kind,
      query: (s, p) => pick().query(s, p),
      exec: (s) => pick().exec(s),
      listen: (c, h) => t.db.listen(c, h),
      transaction: (fn) => pick().transaction(fn),
      close: async () => {},
    };
    ({ app } = await buildTestAppOn(switchable));
    app.get('/boom', async () => {
      throw new Error('syntax error at or near "SELECT" in SELECT * FROM secrets');
    });
  });
  after(async () => {
    await app.close();
    await unreachable.close();
    await t.close();
  });

  it('answers 503 service_unavailable while the database is unreachable, then recovers', async () => {
    useUnreachable = true;
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/admin/v1/import-suppliers/',
        headers: adminHeaders,
      });
      assert.equal(res.statusCode, 503);
      assert.equal(res.json().code, 'service_unavailable');
      assert.ok(res.headers['retry-after']);
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 503);
    } finally {
      useUnreachable = false;
    }
    const ok = await app.inject({ method: 'GET', url: '/admin/v1/import-suppliers/', headers: adminHeaders });
    assert.equal(ok.statusCode, 200);
  });

  it('answers an unexpected error with a bare 500: no stack trace, no SQL', async () => {
    const res = await app.inject({ method: 'GET', url: '/boom' });
    assert.equal(res.statusCode, 500);
    assert.deepEqual(res.json(), { detail: 'A server error occurred.', code: 'server_error' });
    assert.ok(!/SELECT|at .*\.ts/.test(res.body));
  });
});
