import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pauseWhenErrored } from '../../src/account-import/queue/automatic-pause.ts';
import { scheduleImportProcess } from '../../src/account-import/scheduling/scheduling.queries.ts';
import { sql } from '../../src/infra/db/db.ts';
import { dashboardSession } from '../helpers/dashboard.ts';
import { stageProcess } from '../helpers/processes.ts';
import { admin, createTestApp, type TestApp } from '../helpers/test-app.ts';
import { seedWelcomeOutbox } from '../helpers/welcome-outbox.ts';

const XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>';

describe('dashboard pages and actions', () => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof dashboardSession>>;
  before(async () => {
    t = await createTestApp();
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'PG' });
    await stageProcess(t.db, 'PG', 'OK-1', 'PROCESSED');
    await stageProcess(t.db, 'PG', 'WAIT-1', 'PENDING');
    for (const n of [1, 2, 3]) await stageProcess(t.db, 'PG', `BAD-${n}`, 'ERRORED');
    await stageProcess(t.db, 'PG', 'DRY-BAD', 'DRY_RUN_ERRORED');
    s = await dashboardSession(t.app);
  });
  after(() => t.close());

  it('lists suppliers with their counts per state and a pause button', async () => {
    const res = await s.get('/dashboard/');
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<a href="\/dashboard\/suppliers\/PG\/">PG<\/a>/);
    assert.match(res.body, /<button type="submit">Pause<\/button>/);
  });

  it("shows a supplier's progress, and the same as JSON for the page's live updates", async () => {
    const page = await s.get('/dashboard/suppliers/PG/');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /data-count="ERRORED">3</);
    assert.match(page.body, /data-count="PROCESSED">1</);
    assert.match(page.body, /src="\/dashboard\/assets\/uPlot.iife.min.js"/);
    const json = await s.get('/dashboard/suppliers/PG/progress.json');
    assert.equal(json.statusCode, 200);
    const snap = json.json();
    assert.equal(snap.counts.ERRORED, 3);
    assert.equal(snap.remaining, 1);
    assert.equal(snap.per_minute.length, 60);
    assert.equal(snap.created_in_chart, 1);
    assert.match(snap.eta, /^about|under a minute/);
  });

  it('lists error codes by frequency, each opening its processes', async () => {
    const page = (await s.get('/dashboard/suppliers/PG/')).body;
    const errors = page.slice(page.indexOf('id="errors"'));
    const first = errors.indexOf('meter_point_on_another_account</a></th><td>ERRORED</td><td class="num">3<');
    const second = errors.indexOf(
      'meter_point_on_another_account</a></th><td>DRY_RUN_ERRORED</td><td class="num">1<',
    );
    assert.ok(first > 0 && second > first, 'ERRORED (3) before DRY_RUN_ERRORED (1)');
    const link =
      '/dashboard/suppliers/PG/processes/?status=ERRORED&amp;error_code=meter_point_on_another_account';
    assert.ok(errors.includes(`href="${link}"`));
    const list = await s.get(link.replaceAll('&amp;', '&'));
    assert.equal(list.statusCode, 200);
    for (const n of [1, 2, 3])
      assert.match(list.body, new RegExp(`href="/dashboard/processes/PG/BAD-${n}/"`));
    assert.doesNotMatch(list.body, /OK-1|DRY-BAD/);
  });

  it('shows a process with its payload and timeline, every supplier value escaped', async () => {
    await scheduleImportProcess(t.db, {
      supplier: 'PG',
      externalAccountNumber: 'X<1>',
      payload: { import_supplier: 'PG', external_account_number: 'X<1>', note: XSS, [XSS]: [1, null, true] },
      isDryRun: false,
      scheduleWindowStart: new Date(),
      scheduleWindowEnd: new Date(Date.now() + 86400e3),
      explicitWindow: false,
    });
    const res = await s.get('/dashboard/processes/PG/X%3C1%3E/');
    assert.equal(res.statusCode, 200);
    assert.doesNotMatch(res.body, /<script>alert|<img src=x/);
    assert.ok(
      res.body.includes(
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;',
      ),
    );
    assert.match(res.body, /<h1>Process X&lt;1&gt;/);
    assert.match(res.body, /<strong>CREATED<\/strong>/);
    assert.match(res.body, /<details open><summary>\{4\}<\/summary>/);
    // A PENDING process can be cancelled, not retried.
    assert.match(res.body, /action="\/dashboard\/processes\/PG\/X%3C1%3E\/cancel"/);
    assert.doesNotMatch(res.body, /X%3C1%3E\/retry"/);
  });

  it("shows the identifiers a process brings and who holds each, linking to the supplier's own holder", async () => {
    const schedule = (external: string, payload: Record<string, unknown>) =>
      scheduleImportProcess(t.db, {
        supplier: 'PG',
        externalAccountNumber: external,
        payload: { import_supplier: 'PG', external_account_number: external, ...payload },
        isDryRun: false,
        scheduleWindowStart: new Date(),
        scheduleWindowEnd: new Date(Date.now() + 86400e3),
        explicitWindow: false,
      });
    const meterPoints = (...identifiers: string[]) => ({
      supply_addresses: [{ meter_points: identifiers.map((identifier) => ({ identifier })) }],
    });
    assert.equal((await schedule('HOLDER-1', meterPoints('1200000000001'))).kind, 'created');
    const refused = await schedule('WANTS-1', meterPoints('1200000000001', '1200000000002'));
    assert.equal(refused.kind, 'conflict');
    // The holder's own page: it holds its identifier.
    const holder = (await s.get('/dashboard/processes/PG/HOLDER-1/')).body;
    assert.match(holder, /<tr data-held="self"><td>Meter point<\/td><td><code>1200000000001<\/code>/);
    // A process staged around the API (no reservations) sees who holds what it brings.
    await t.db.query(
      sql(
        '',
        `INSERT INTO import_processes (import_supplier, external_account_number, status, payload, latest_event)
         VALUES ('PG', 'WANTS-1', 'ERRORED', $1, '{}')`,
      ),
      [meterPoints('1200000000001', '1200000000002')],
    );
    const wants = (await s.get('/dashboard/processes/PG/WANTS-1/')).body;
    assert.match(
      wants,
      /data-held="same_supplier">.*<a href="\/dashboard\/processes\/PG\/HOLDER-1\/">HOLDER-1<\/a>/,
    );
    assert.match(wants, /data-held="free"><td>Meter point<\/td><td><code>1200000000002</);
  });

  it('retries and cancels one process; a move the state table refuses is a 400 page', async () => {
    const retried = await s.post('/dashboard/processes/PG/BAD-1/retry');
    assert.equal(retried.statusCode, 303);
    assert.equal(retried.headers.location, '/dashboard/processes/PG/BAD-1/?notice=retried');
    const shown = await s.get(String(retried.headers.location));
    assert.match(shown.body, /PENDING again/);
    assert.match(shown.body, /data-field="status">PENDING</);
    const again = await s.post('/dashboard/processes/PG/BAD-1/retry');
    assert.equal(again.statusCode, 400);
    assert.match(again.body, /A process in state PENDING cannot be retried/);
    assert.equal((await s.post('/dashboard/processes/PG/BAD-1/cancel')).statusCode, 303);
    assert.equal((await s.post('/dashboard/processes/PG/NOPE/cancel')).statusCode, 404);
  });

  it('retries every ERRORED process with an error code at once', async () => {
    const res = await s.post('/dashboard/suppliers/PG/bulk', {
      action: 'retry',
      status: 'ERRORED',
      error_code: 'meter_point_on_another_account',
    });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/dashboard/suppliers/PG/?notice=bulk-retry&changed=2&skipped=0');
    assert.match((await s.get(String(res.headers.location))).body, /2 process\(es\) sent back to PENDING/);
    const bad = await s.post('/dashboard/suppliers/PG/bulk', { action: 'delete', status: 'ERRORED' });
    assert.equal(bad.statusCode, 400);
  });

  it('pauses and resumes a supplier', async () => {
    const paused = await s.post('/dashboard/suppliers/PG/status', { status: 'Paused' });
    assert.equal(paused.statusCode, 303);
    assert.equal((await admin<{ status: string }>(t.app, 'GET', '/import-suppliers/PG/')).status, 'Paused');
    assert.match((await s.get('/dashboard/suppliers/PG/')).body, /<button type="submit">Resume<\/button>/);
    await s.post('/dashboard/suppliers/PG/status', { status: 'Ongoing' });
    assert.equal((await admin<{ status: string }>(t.app, 'GET', '/import-suppliers/PG/')).status, 'Ongoing');
    assert.equal((await s.post('/dashboard/suppliers/PG/status', { status: 'Complete' })).statusCode, 400);
  });

  it('shows why the worker paused a supplier automatically, until it is resumed', async () => {
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'AUTO' });
    for (const n of [1, 2, 3, 4, 5, 6]) await stageProcess(t.db, 'AUTO', `BAD-${n}`, 'ERRORED');
    for (const n of [1, 2, 3, 4]) await stageProcess(t.db, 'AUTO', `OK-${n}`, 'PROCESSED');
    const check = await pauseWhenErrored(t.db, 'AUTO', { window: 10, share: 0.5 }, { logger: { warn() {} } });
    assert.ok(check.pause, 'the worker check paused the supplier');
    const page = (await s.get('/dashboard/suppliers/AUTO/')).body;
    const banner = /<div class="error" role="alert" data-banner="automatic-pause">([\s\S]*?)<\/div>/.exec(
      page,
    )?.[1];
    assert.ok(banner, 'the banner is on the page');
    assert.match(
      banner,
      /Paused automatically at <time datetime="[0-9T:-]+Z">[0-9T:-]+Z<\/time>: 6 of the last 10 finished accounts ERRORED/,
    );
    assert.ok(
      banner.includes(
        '<a href="/dashboard/suppliers/AUTO/processes/?status=ERRORED&amp;error_code=meter_point_on_another_account"><code>meter_point_on_another_account</code></a>: 6',
      ),
    );
    await s.post('/dashboard/suppliers/AUTO/status', { status: 'Ongoing' });
    assert.doesNotMatch((await s.get('/dashboard/suppliers/AUTO/')).body, /data-banner="automatic-pause"/);
  });

  it('creates an API key shown once, and revokes it', async () => {
    const created = await s.post('/dashboard/api-keys/', { name: 'Key <for> PG', import_suppliers: 'PG, *' });
    assert.equal(created.statusCode, 201);
    const key = /data-field="new-key">(ferry_[0-9a-f]{16}_[A-Za-z0-9_-]{43})</.exec(created.body)?.[1];
    assert.ok(key, 'the key is on the answer');
    assert.match(created.body, /Key &lt;for&gt; PG/);
    const list = await s.get('/dashboard/api-keys/');
    assert.ok(!list.body.includes(key), 'never shown again');
    const id = key.split('_')[1];
    const revoked = await s.post(`/dashboard/api-keys/${id}/revoke`);
    assert.equal(revoked.statusCode, 303);
    const keys = await admin<{ id: string; revoked_at: string | null }[]>(t.app, 'GET', '/api-keys/');
    assert.notEqual(keys.find((k) => k.id === id)?.revoked_at, null);
    assert.equal((await s.post(`/dashboard/api-keys/${id}x/revoke`)).statusCode, 404);
    const bad = await s.post('/dashboard/api-keys/', { name: 'x', import_suppliers: 'P G!' });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /import_suppliers/);
    const unknown = await s.post('/dashboard/api-keys/', { name: 'typo', import_suppliers: 'PG, NOPE' });
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.body, /import_suppliers\.1/);
    assert.match(unknown.body, /No import supplier has the code &quot;NOPE&quot;/);
  });

  it('shows failed welcome e-mails on the overview', async () => {
    await seedWelcomeOutbox(t.db, t.config, { supplier: 'MAIL', count: 1 });
    await t.db.query(
      sql('', "UPDATE email_outbox SET status = 'FAILED', last_error = $1, failed_at = now()"),
      [`550 mailbox unknown ${XSS}`],
    );
    const res = await s.get('/dashboard/');
    assert.match(res.body, /failed 1/);
    assert.match(res.body, /550 mailbox unknown &lt;script&gt;/);
  });
});
