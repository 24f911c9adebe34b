import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dashboardSession, form, sessionCookie } from '../helpers/dashboard.ts';
import { admin, createTestApp, OPERATOR_KEY, type TestApp } from '../helpers/test-app.ts';

const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

describe('dashboard sign-in, session and CSRF', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'AUTH' });
  });
  after(() => t.close());

  it('sends a visitor without a session to the sign-in form', async () => {
    for (const url of ['/dashboard/', '/dashboard/suppliers/AUTH/', '/dashboard/api-keys/']) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 303, url);
      assert.equal(res.headers.location, '/dashboard/sign-in');
    }
    const page = await t.app.inject({ method: 'GET', url: '/dashboard/sign-in' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /<input id="key" name="key" type="password"/);
    assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
    assert.equal(page.headers['cache-control'], 'no-store');
  });

  it('refuses a wrong operator key with 401 and no cookie', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/dashboard/sign-in',
      headers: formHeaders,
      payload: form({ key: 'not-the-key' }),
    });
    assert.equal(res.statusCode, 401);
    assert.match(res.body, /The operator key is not valid/);
    assert.equal(res.headers['set-cookie'], undefined);
  });

  it('answers a malformed sign-in form with 400, not 500', async () => {
    for (const payload of [form({}), form({ key: 'x', extra: 'y' }), `key=${'k'.repeat(2000)}`]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/dashboard/sign-in',
        headers: formHeaders,
        payload,
      });
      assert.equal(res.statusCode, 400, payload.slice(0, 40));
      assert.match(res.body, /<!doctype html>/);
    }
  });

  it('signs in with the operator key: an HttpOnly, SameSite=Strict cookie for /dashboard', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/dashboard/sign-in',
      headers: formHeaders,
      payload: form({ key: OPERATOR_KEY }),
    });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/dashboard/');
    const set = String(res.headers['set-cookie']);
    assert.match(set, /^ferry_dashboard=[A-Za-z0-9_-]{43};/);
    assert.match(set, /HttpOnly/);
    assert.match(set, /SameSite=Strict/);
    assert.match(set, /Path=\/dashboard/);
    const cookie = sessionCookie(res.headers['set-cookie']);
    const home = await t.app.inject({ method: 'GET', url: '/dashboard/', headers: { cookie } });
    assert.equal(home.statusCode, 200);
    assert.match(home.body, /AUTH/);
    // Signed in already: the sign-in form sends the operator on.
    const again = await t.app.inject({ method: 'GET', url: '/dashboard/sign-in', headers: { cookie } });
    assert.equal(again.statusCode, 303);
  });

  it('refuses a made-up or tampered session cookie', async () => {
    const s = await dashboardSession(t.app);
    for (const cookie of ['ferry_dashboard=made-up', `${s.cookie}x`, `ferry_dashboard=${'a'.repeat(500)}`]) {
      const res = await t.app.inject({ method: 'GET', url: '/dashboard/', headers: { cookie } });
      assert.equal(res.statusCode, 303, cookie.slice(0, 40));
    }
  });

  it('refuses a form post without the session’s CSRF token (403) and changes nothing', async () => {
    const s = await dashboardSession(t.app);
    // Another session's token is as foreign as a forged one.
    const other = (await dashboardSession(t.app)).csrf;
    for (const token of [null, '', 'forged', other]) {
      const res = await s.post('/dashboard/suppliers/AUTH/status', { status: 'Paused', _csrf: token });
      assert.equal(res.statusCode, 403, String(token));
      assert.match(res.body, /token/);
    }
    const supplier = await admin<{ status: string }>(t.app, 'GET', '/import-suppliers/AUTH/');
    assert.equal(supplier.status, 'Ongoing');
  });

  it('refuses a post without a session with 401, whatever its body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/dashboard/suppliers/AUTH/status',
      headers: formHeaders,
      payload: form({ status: 'Paused', _csrf: 'x' }),
    });
    assert.equal(res.statusCode, 401);
    const json = await t.app.inject({ method: 'GET', url: '/dashboard/suppliers/AUTH/progress.json' });
    assert.equal(json.statusCode, 401);
    assert.equal(json.json().code, 'not_authenticated');
  });

  it('signs out: the session ends and its cookie no longer opens a page', async () => {
    const s = await dashboardSession(t.app);
    const out = await s.post('/dashboard/sign-out');
    assert.equal(out.statusCode, 303);
    assert.equal(out.headers.location, '/dashboard/sign-in');
    assert.match(String(out.headers['set-cookie']), /ferry_dashboard=;.*Max-Age=0/);
    assert.equal((await s.get('/dashboard/')).statusCode, 303);
  });

  it('throttles sign-in guesses per address, like the admin API', async () => {
    const guess = () =>
      t.app.inject({
        method: 'POST',
        url: '/dashboard/sign-in',
        headers: formHeaders,
        payload: form({ key: 'guess' }),
        remoteAddress: '10.9.9.9',
      });
    for (let i = 0; i < 10; i++) await guess();
    const res = await guess();
    assert.equal(res.statusCode, 429);
    assert.ok(Number(res.headers['retry-after']) >= 1);
    // The same address is refused by the admin API too: one throttle for the operator key.
    const adminRes = await t.app.inject({
      method: 'GET',
      url: '/admin/v1/import-suppliers/',
      headers: { authorization: `Bearer ${OPERATOR_KEY}` },
      remoteAddress: '10.9.9.9',
    });
    assert.equal(adminRes.statusCode, 429);
  });

  it('answers unknown pages and bad query parameters with 4xx HTML pages', async () => {
    const s = await dashboardSession(t.app);
    const missing = await s.get('/dashboard/nothing-here');
    assert.equal(missing.statusCode, 404);
    assert.match(missing.body, /No dashboard page has this address/);
    const badQuery = await s.get('/dashboard/?notice=%3Cscript%3E');
    assert.equal(badQuery.statusCode, 400);
    assert.doesNotMatch(badQuery.body, /<script>/);
    const noSupplier = await s.get('/dashboard/suppliers/NOPE/');
    assert.equal(noSupplier.statusCode, 404);
    const badCursor = await s.get('/dashboard/suppliers/AUTH/processes/?cursor=abc');
    assert.equal(badCursor.statusCode, 400);
  });
});
