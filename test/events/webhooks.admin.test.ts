/**
 * The operator's webhook endpoints under /admin/v1/webhook-endpoints/ (decision 0072): validation
 * (http and https only, known suppliers and types), the secret shown once and never again (not
 * in an answer, not in a log line), enable and disable, delete with its deliveries, the
 * deliveries list with attempts, the test event, 404 for an unknown id.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from '../../src/infra/db/db.ts';
import { loggerOptions } from '../../src/infra/logging.ts';
import { admin, adminHeaders, createTestApp, type TestApp } from '../helpers/test-app.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

const BASE = '/admin/v1/webhook-endpoints/';

describe('webhook endpoints (admin API)', () => {
  let t: TestApp;
  const logLines: string[] = [];

  before(async () => {
    const stream = { write: (s: string) => void logLines.push(s) };
    t = await createTestApp({}, { logger: { ...loggerOptions('info'), stream } });
    for (const code of ['ACME', 'BETA']) await admin(t.app, 'POST', '/import-suppliers/', { code });
  });
  after(() => t.close());

  const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: adminHeaders, payload: payload as never });
    return { status: res.statusCode, body: (res.body ? res.json() : null) as Obj, text: res.body };
  };
  const itemsOf = (body: Obj) => (body.errors as Obj[]).map((e) => `${e.attr} ${e.code}`).sort();

  it('registers an endpoint and answers its secret once; no later answer or log line holds it', async () => {
    const created = await call('POST', BASE, {
      url: 'https://hooks.example.com/ferry',
      import_suppliers: ['ACME', 'BETA'],
      types: ['EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED'],
    });
    assert.equal(created.status, 201, created.text);
    const e = created.body;
    assert.deepEqual(Object.keys(e).sort(), [
      'created_at',
      'enabled',
      'id',
      'import_suppliers',
      'secret',
      'types',
      'url',
    ]);
    assert.match(e.id, /^[0-9a-f-]{36}$/);
    assert.match(e.secret, /^[0-9a-f]{64}$/);
    assert.deepEqual(
      [e.url, e.import_suppliers, e.types, e.enabled],
      ['https://hooks.example.com/ferry', ['ACME', 'BETA'], ['EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED'], true],
    );
    const second = await call('POST', BASE, { url: 'http://127.0.0.1:9/x', import_suppliers: ['*'] });
    assert.notEqual(second.body.secret, e.secret, 'a secret of its own');
    assert.equal(second.body.types, null);

    const answers = [
      await call('GET', BASE),
      await call('GET', `${BASE}${e.id}/`),
      await call('PATCH', `${BASE}${e.id}/`, { enabled: true }),
      await call('GET', `${BASE}${e.id}/deliveries/`),
      await call('POST', `${BASE}${e.id}/test/`),
    ];
    for (const a of answers) assert.ok(!a.text.includes(e.secret), a.text);
    const listed = answers[0].body.find((x: Obj) => x.id === e.id);
    assert.deepEqual(
      { ...listed, created_at: 'x' },
      {
        id: e.id,
        url: 'https://hooks.example.com/ferry',
        import_suppliers: ['ACME', 'BETA'],
        types: ['EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED'],
        enabled: true,
        created_at: 'x',
        failing_since: null,
        disabled_at: null,
        disabled_reason: null,
        pending: 0,
        failed: 0,
      },
    );
    assert.ok(!('secret' in answers[1].body));
    assert.ok(logLines.some((l) => l.includes('webhook_endpoint_created')));
    assert.ok(!logLines.join('').includes(e.secret), 'no log line holds the secret');
    assert.ok(!logLines.join('').includes(second.body.secret));
  });

  it('refuses any URL but http and https, unknown suppliers and unknown types, every problem at once', async () => {
    for (const url of [
      'ftp://files.example.com/in',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'not a url',
      '/relative',
    ]) {
      const res = await call('POST', BASE, { url, import_suppliers: ['ACME'] });
      assert.equal(res.status, 400, url);
      assert.equal(res.body.code, 'validation_error');
      assert.deepEqual(itemsOf(res.body), ['url invalid_webhook_url'], url);
    }
    const all = await call('POST', BASE, {
      url: 'gopher://x',
      import_suppliers: ['ACME', 'NOBODY'],
      types: ['EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED', 'EVENT_NOPE'],
    });
    assert.equal(all.status, 400);
    assert.deepEqual(itemsOf(all.body), [
      'import_suppliers.1 import_supplier_not_found',
      'types.1 unknown_event_type',
      'url invalid_webhook_url',
    ]);
    const star = await call('POST', BASE, { url: 'https://x.example/', import_suppliers: ['*', 'ACME'] });
    assert.deepEqual(itemsOf(star.body), ['import_suppliers invalid']);
    // The schema's own refusals: missing fields, an empty list, a field it does not know.
    const shape = await call('POST', BASE, { import_suppliers: [], secret: 'mine' });
    assert.equal(shape.status, 400);
    assert.equal(shape.body.code, 'validation_error');
    const count = async () =>
      (await t.db.query<{ n: number }>(sql('', 'SELECT count(*)::int AS n FROM webhook_endpoints'))).rows[0]
        .n;
    const before = await count();
    await call('POST', BASE, { url: 'ftp://x', import_suppliers: ['ACME'] });
    assert.equal(await count(), before, 'nothing stored');
  });

  it('disables and enables an endpoint; enabling clears its failing state', async () => {
    const e = await admin<Obj>(t.app, 'POST', '/webhook-endpoints/', {
      url: 'https://a.example/hook',
      import_suppliers: ['ACME'],
    });
    const off = await call('PATCH', `${BASE}${e.id}/`, { enabled: false });
    assert.equal(off.status, 200);
    assert.deepEqual([off.body.enabled, off.body.disabled_reason], [false, 'disabled by the operator']);
    assert.ok(off.body.disabled_at);
    // As if the sender had found it failing for a day.
    await t.db.query(
      sql('', "UPDATE webhook_endpoints SET failing_since = now() - interval '30 hours' WHERE id = $1"),
      [e.id],
    );
    const on = await call('PATCH', `${BASE}${e.id}/`, { enabled: true });
    assert.deepEqual(
      [on.body.enabled, on.body.failing_since, on.body.disabled_at, on.body.disabled_reason],
      [true, null, null, null],
    );
    assert.equal((await call('PATCH', `${BASE}${e.id}/`, { enabled: 'yes' })).status, 400);
    assert.equal((await call('PATCH', `${BASE}${e.id}/`, {})).status, 400);
  });

  it('lists an endpoint’s deliveries newest first with their attempts, and deletes it with them', async () => {
    const e = await admin<Obj>(t.app, 'POST', '/webhook-endpoints/', {
      url: 'https://b.example/hook',
      import_suppliers: ['BETA'],
    });
    const first = await call('POST', `${BASE}${e.id}/test/`);
    const second = await call('POST', `${BASE}${e.id}/test/`);
    assert.equal(first.status, 202);
    // The first test event was tried twice, as the sender records attempts.
    await t.db.query(
      sql(
        '',
        `INSERT INTO webhook_delivery_attempts (delivery_id, attempted_at, status_code, duration_ms, error)
         SELECT id, now() - interval '1 minute', NULL, 10000, 'no answer within 10 s' FROM webhook_deliveries WHERE feed_event_id = $1
         UNION ALL
         SELECT id, now(), 503, 12, 'HTTP 503: busy' FROM webhook_deliveries WHERE feed_event_id = $1`,
      ),
      [first.body.event_id],
    );
    const list = await call('GET', `${BASE}${e.id}/deliveries/`);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((d: Obj) => [d.event_id, d.type, d.state]),
      [
        [second.body.event_id, 'EVENT_WEBHOOK_TEST', 'pending'],
        [first.body.event_id, 'EVENT_WEBHOOK_TEST', 'pending'],
      ],
    );
    assert.deepEqual(
      list.body[1].attempts.map((a: Obj) => [a.status_code, a.error, a.duration_ms]),
      [
        [null, 'no answer within 10 s', 10000],
        [503, 'HTTP 503: busy', 12],
      ],
    );
    assert.equal((await call('GET', `${BASE}${e.id}/deliveries/?limit=1`)).body.length, 1);
    assert.equal((await call('GET', `${BASE}${e.id}/deliveries/?limit=0`)).status, 400);
    assert.equal((await call('GET', `${BASE}${e.id}/`)).body.pending, 2);

    const deleted = await call('DELETE', `${BASE}${e.id}/`);
    assert.equal(deleted.status, 204);
    assert.equal((await call('GET', `${BASE}${e.id}/`)).status, 404);
    const left = await t.db.query<{ d: number; a: number }>(
      sql(
        '',
        `SELECT (SELECT count(*)::int FROM webhook_deliveries WHERE endpoint_id = $1) AS d,
                (SELECT count(*)::int FROM webhook_delivery_attempts a
                  WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.id = a.delivery_id)) AS a`,
      ),
      [e.id],
    );
    assert.deepEqual(left.rows[0], { d: 0, a: 0 });
  });

  it('answers 404 for an id no endpoint has, well-formed or not', async () => {
    for (const id of [randomUUID(), 'nope']) {
      for (const [method, url, payload] of [
        ['GET', `${BASE}${id}/`],
        ['PATCH', `${BASE}${id}/`, { enabled: false }],
        ['DELETE', `${BASE}${id}/`],
        ['GET', `${BASE}${id}/deliveries/`],
        ['POST', `${BASE}${id}/test/`],
      ] as const) {
        const res = await call(method, url, payload);
        assert.equal(res.status, 404, `${method} ${url}`);
        assert.equal(res.body.code, 'not_found');
      }
    }
  });

  it('needs the operator key', async () => {
    const res = await t.app.inject({ method: 'GET', url: BASE });
    assert.equal(res.statusCode, 401);
    const wrong = await t.app.inject({
      method: 'GET',
      url: BASE,
      headers: { authorization: 'Bearer wrong-key-0123456789' },
    });
    assert.equal(wrong.statusCode, 401);
  });
});
