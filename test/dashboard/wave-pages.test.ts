import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waveRecord } from '../../src/account-import/waves/reconciliation.queries.ts';
import { dashboardSession } from '../helpers/dashboard.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { importWaves, uploadExpectations } from '../helpers/wave-setup.ts';

const SUPPLIER = 'WP';
const WAVE = '2024-06.a';
const OTHER = 'W-2';
const page = `/dashboard/suppliers/${SUPPLIER}/waves/${WAVE}/`;
const otherPage = `/dashboard/suppliers/${SUPPLIER}/waves/${OTHER}/`;

describe('the wave page and its actions', () => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof dashboardSession>>;
  let stored: { external_account_number: string; balance: string }[];
  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' });
    const headers = await importWaves(t, SUPPLIER, { [WAVE]: 4, [OTHER]: 3 });
    stored = await uploadExpectations(t, headers, {
      supplier: SUPPLIER,
      wave: WAVE,
      skew: 'EXT-0000002',
      missing: ['EXT-9999999'],
    });
    s = await dashboardSession(t.app);
  });
  after(() => t.close());

  it("lists the supplier's waves on its page, each linking to its wave page", async () => {
    const res = await s.get(`/dashboard/suppliers/${SUPPLIER}/`);
    assert.equal(res.statusCode, 200);
    const waves = res.body.slice(res.body.indexOf('id="waves"'));
    assert.match(
      waves,
      /<tr data-wave="2024-06.a"><th scope="row"><a href="\/dashboard\/suppliers\/WP\/waves\/2024-06.a\/">2024-06.a<\/a><\/th><td data-field="wave-status">open<\/td><td>PROCESSED 4<\/td><td class="num">5<\/td><td>—<\/td><td>—<\/td><\/tr>/,
    );
    assert.match(waves, /<tr data-wave="W-2">.*<td>PROCESSED 3<\/td><td class="num">—<\/td>/);
  });

  it('shows the progress, the reconciliation with exact money and the first differences, and the held e-mails', async () => {
    const res = await s.get(page);
    assert.equal(res.statusCode, 200);
    const body = res.body;
    assert.match(body, /<h1>Wave 2024-06.a of WP<\/h1>/);
    assert.match(body, /data-field="wave-status">differences</);
    assert.match(body, /data-count="PROCESSED">4</);
    assert.match(body, /<progress id="wave-progress" max="4" value="4">/);
    for (const [k, n] of Object.entries({ expected: 5, imported: 4, matched: 3, differing: 1, missing: 1 }))
      assert.match(body, new RegExp(`data-account-count="${k}">(<a [^>]+>)?${n}<`));
    const sum = (rows: { balance: string }[]) =>
      rows.reduce((total, r) => total + Math.round(Number(r.balance) * 100), 0);
    const storedTotal = sum(stored);
    const expectedTotal = storedTotal + 100 + 1230;
    const pounds = (pence: number) => (pence / 100).toFixed(2);
    assert.match(
      body,
      new RegExp(
        `data-measure="ledger_balance">.*<td class="num">${pounds(expectedTotal)}</td><td class="num">${pounds(storedTotal)}</td><td class="num">-13.30</td>`,
      ),
    );
    const skewed = stored.find((r) => r.external_account_number === 'EXT-0000002');
    assert.match(
      body,
      new RegExp(
        `data-difference="EXT-0000002">.*<td>differing</td><td><ul class="measures"><li><code>ledger_balance</code>: expected ${pounds(Math.round(Number(skewed?.balance) * 100) + 100)}, stored ${skewed?.balance}</li>`,
      ),
    );
    assert.match(body, /data-difference="EXT-9999999">.*<td>missing<\/td>/);
    assert.match(body, /data-field="held-emails">4</);
    assert.match(body, /action="\/dashboard\/suppliers\/WP\/waves\/2024-06.a\/approve"/);
    assert.match(body, /<button type="submit" class="danger">Approve anyway \(force\)<\/button>/);
    assert.match(body, /<a href="\/dashboard\/suppliers\/WP\/waves\/2024-06.a\/rollback">Roll back…<\/a>/);
  });

  it('refuses the actions without the session’s CSRF token, and changes nothing', async () => {
    for (const url of [`${page}approve`, `${page}rollback`]) {
      const missing = await s.post(url, { _csrf: null, force: 'true', wave_name: WAVE });
      assert.equal(missing.statusCode, 403, url);
      const wrong = await s.post(url, { _csrf: 'not-the-token', force: 'true', wave_name: WAVE });
      assert.equal(wrong.statusCode, 403, url);
    }
    const record = await waveRecord(t.db, SUPPLIER, WAVE);
    assert.equal(record?.approved_at, null);
    assert.equal(record?.rolled_back_at, null);
  });

  it('answers approval of a wave that differs with the refusal as an alert', async () => {
    const res = await s.post(`${page}approve`);
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `${page}?notice=refused-reconciliation-differences`);
    const shown = await s.get(String(res.headers.location));
    // In the operator's words, not the API's code.
    assert.match(
      shown.body,
      /<p class="error" role="alert">Not approved: this wave does not reconcile yet\. /,
    );
    assert.doesNotMatch(shown.body, /reconciliation_differences/);
    assert.equal((await waveRecord(t.db, SUPPLIER, WAVE))?.approved_at, null);
  });

  it('counts the differences per kind and measure, and filters the list by them', async () => {
    const body = (await s.get(page)).body;
    assert.match(body, /data-account-count="missing"><a href="[^"]+\?kind=missing">1<\/a>/);
    assert.match(
      body,
      /data-measure-count="ledger_balance"><a href="[^"]+\?kind=differing&amp;measure=ledger_balance">1<\/a>/,
    );
    assert.match(body, /data-measure-count="meter_points">0</);
    assert.match(body, /<dt><code>transactions_net<\/code><\/dt><dd>The sum of those transactions signed/);
    const rows = (html: string) => [...html.matchAll(/data-difference="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(rows(body), ['EXT-0000002', 'EXT-9999999']);
    assert.deepEqual(rows((await s.get(`${page}?kind=missing`)).body), ['EXT-9999999']);
    assert.deepEqual(rows((await s.get(`${page}?kind=differing&measure=ledger_balance`)).body), [
      'EXT-0000002',
    ]);
    const none = (await s.get(`${page}?measure=meter_points`)).body;
    assert.deepEqual(rows(none), []);
    assert.match(none, /No account that does not match is of this kind and measure/);
    // The form's "any" sends empty values: the whole list.
    assert.deepEqual(rows((await s.get(`${page}?kind=&measure=`)).body), ['EXT-0000002', 'EXT-9999999']);
    assert.match((await s.get(`${page}?kind=missing`)).body, /<option value="missing" selected>/);
    assert.equal((await s.get(`${page}?kind=lost`)).statusCode, 400);
    assert.equal((await s.get(`/dashboard/suppliers/${SUPPLIER}/waves/bad%20wave/`)).statusCode, 400);
  });

  it('previews a rollback, refuses a wrong name typed back, then rolls the wave back', async () => {
    const preview = await s.get(`${otherPage}rollback`);
    assert.equal(preview.statusCode, 200);
    assert.match(preview.body, /data-table="processes">.*<td class="num">3</);
    assert.match(preview.body, /data-table="accounts">.*<td class="num">3</);
    assert.match(preview.body, /<label for="wave-name">Type the wave's name \(W-2\)/);
    const wrong = await s.post(`${otherPage}rollback`, { wave_name: 'W-3' });
    assert.equal(wrong.statusCode, 303);
    assert.equal(wrong.headers.location, `${otherPage}rollback?notice=wave-name-mismatch`);
    assert.equal((await waveRecord(t.db, SUPPLIER, OTHER))?.rolled_back_at ?? null, null);
    const done = await s.post(`${otherPage}rollback`, { wave_name: OTHER });
    assert.equal(done.statusCode, 303);
    assert.equal(done.headers.location, `${otherPage}?notice=wave-rolled-back&changed=3`);
    const shown = (await s.get(String(done.headers.location))).body;
    assert.match(shown, /The wave is rolled back: 3 process\(es\) CANCELLED/);
    assert.match(shown, /data-field="wave-status">rolled_back</);
    assert.match(shown, /data-count="CANCELLED">3</);
    assert.match(shown, /data-field="rolled-back"><time datetime="[^"]+">[^<]+<\/time> by operator</);
  });

  it('approves with force: the record says so and who (the name given at sign-in), the held e-mails are released, and a rollback is refused', async () => {
    const named = await dashboardSession(t.app, { name: ' Dana Ortiz ' });
    const res = await named.post(`${page}approve`, { force: 'true' });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `${page}?notice=wave-approved&changed=4`);
    const shown = (await s.get(String(res.headers.location))).body;
    assert.match(shown, /<p class="notice" role="status">The wave is approved \(final\): 4 held welcome/);
    assert.match(
      shown,
      /data-field="approved"><time[^>]*>[^<]+<\/time> by Dana Ortiz \(forced past differences\)/,
    );
    assert.match(shown, /data-field="held-emails">0</);
    assert.doesNotMatch(shown, /Approve anyway|Roll back…/);
    const preview = await s.get(`${page}rollback`);
    assert.equal(preview.statusCode, 303);
    assert.equal(preview.headers.location, `${page}?notice=refused-wave-approved`);
    const refused = await s.post(`${page}rollback`, { wave_name: WAVE });
    assert.equal(refused.headers.location, `${page}?notice=refused-wave-approved`);
    const again = await s.post(`${page}approve`, { force: 'true' });
    assert.equal(again.headers.location, `${page}?notice=refused-wave-approved`);
  });

  it('answers 404 for a wave nobody named, and acts on none', async () => {
    assert.equal((await s.get(`/dashboard/suppliers/${SUPPLIER}/waves/nope/`)).statusCode, 404);
    assert.equal((await s.get(`/dashboard/suppliers/NOPE/waves/${WAVE}/`)).statusCode, 404);
    assert.equal((await s.post(`/dashboard/suppliers/${SUPPLIER}/waves/nope/approve`)).statusCode, 404);
    assert.equal(await waveRecord(t.db, SUPPLIER, 'nope'), null);
  });
});
