/**
 * /dashboard/webhooks/ through inject: each endpoint with its state, a banner when it is disabled,
 * its deliveries and their attempts; the test-event and enable/disable forms, each behind the
 * session's CSRF token; nothing of the secret; receiver text escaped.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from '../../src/infra/db/db.ts';
import { dashboardSession } from '../helpers/dashboard.ts';
import { admin, createTestApp, type TestApp } from '../helpers/test-app.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

const XSS = '<script>alert("x")</script>';

describe('the webhooks page of the dashboard', () => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof dashboardSession>>;
  let ep: Obj;

  before(async () => {
    t = await createTestApp();
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'DASH' });
    ep = await admin<Obj>(t.app, 'POST', '/webhook-endpoints/', {
      url: 'https://hooks.example.com/dash',
      import_suppliers: ['DASH'],
    });
    s = await dashboardSession(t.app);
  });
  after(() => t.close());

  const section = async () => {
    const body = (await s.get('/dashboard/webhooks/')).body;
    const at = body.indexOf(`data-endpoint="${ep.id}"`);
    assert.ok(at > 0, 'the endpoint has a section');
    return body.slice(at, body.indexOf('</section>', at));
  };

  it('is linked from the navigation and lists the endpoint, without its secret', async () => {
    const home = await s.get('/dashboard/');
    assert.match(home.body, /<a href="\/dashboard\/webhooks\/">Webhooks<\/a>/);
    const page = await s.get('/dashboard/webhooks/');
    assert.equal(page.statusCode, 200);
    assert.ok(!page.body.includes(ep.secret));
    const mine = await section();
    assert.match(mine, /<h2 id="endpoint-[^"]+">https:\/\/hooks.example.com\/dash<\/h2>/);
    assert.match(mine, /data-field="state">enabled</);
    assert.match(mine, /<button type="submit">Send test event<\/button>/);
    assert.match(mine, /No deliveries yet/);
  });

  it('queues a test event from its form, which then shows with its attempts', async () => {
    const res = await s.post(`/dashboard/webhooks/${ep.id}/test`);
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/dashboard/webhooks/?done=test-queued');
    await t.db.query(
      sql(
        '',
        `INSERT INTO webhook_delivery_attempts (delivery_id, attempted_at, status_code, duration_ms, error)
         SELECT id, now(), 500, 31, $2 FROM webhook_deliveries WHERE endpoint_id = $1`,
      ),
      [ep.id, `HTTP 500: ${XSS}`],
    );
    const page = (await s.get('/dashboard/webhooks/?done=test-queued')).body;
    assert.match(page, /role="status">A test event \(EVENT_WEBHOOK_TEST\) is queued/);
    const mine = await section();
    assert.match(mine, /<td>EVENT_WEBHOOK_TEST<\/td><td>pending/);
    assert.match(mine, / 500 · 31 ms · HTTP 500: &lt;script&gt;/);
    assert.ok(!page.includes(XSS), 'receiver text is escaped');
    assert.match(mine, /data-field="pending">1</);
  });

  it('refuses a form without the session’s token', async () => {
    const res = await s.post(`/dashboard/webhooks/${ep.id}/test`, { _csrf: null });
    assert.equal(res.statusCode, 403);
    const wrong = await s.post(`/dashboard/webhooks/${ep.id}/enabled`, { _csrf: 'nope', enabled: 'false' });
    assert.equal(wrong.statusCode, 403);
    assert.equal((await admin<Obj>(t.app, 'GET', `/webhook-endpoints/${ep.id}/`)).enabled, true);
  });

  it('shows a banner for a disabled endpoint, and enables it again', async () => {
    await t.db.query(
      sql(
        '',
        `UPDATE webhook_endpoints SET enabled = false, failing_since = now() - interval '25 hours', disabled_at = now(),
                disabled_reason = 'every delivery failed since 2026-01-01T00:00:00Z' WHERE id = $1`,
      ),
      [ep.id],
    );
    let mine = await section();
    assert.match(
      mine,
      /role="alert" data-field="banner">Disabled since [^:]+:\d\d:\d\dZ: every delivery failed since 2026-01-01T00:00:00Z\./,
    );
    assert.match(mine, /<button type="submit">Enable<\/button>/);
    const res = await s.post(`/dashboard/webhooks/${ep.id}/enabled`, { enabled: 'true' });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/dashboard/webhooks/?done=enabled');
    mine = await section();
    assert.ok(!mine.includes('data-field="banner"'));
    assert.match(mine, /data-field="state">enabled</);
    const now = await admin<Obj>(t.app, 'GET', `/webhook-endpoints/${ep.id}/`);
    assert.deepEqual([now.enabled, now.failing_since], [true, null]);
    const off = await s.post(`/dashboard/webhooks/${ep.id}/enabled`, { enabled: 'false' });
    assert.equal(off.headers.location, '/dashboard/webhooks/?done=disabled');
    assert.match(await section(), /Disabled since .*: disabled by the operator\./);
  });

  it('answers 404 for an endpoint that does not exist', async () => {
    const res = await s.post('/dashboard/webhooks/00000000-0000-4000-8000-000000000000/test');
    assert.equal(res.statusCode, 404);
  });
});
