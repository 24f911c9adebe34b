import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startWorker, type WorkerHandle } from '../../src/account-import/queue/worker.ts';
import { scheduleImportProcess } from '../../src/account-import/scheduling/scheduling.queries.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import {
  accessibilityProblems as axeProblems,
  browserUnavailable,
  type HeadlessBrowser,
  launchBrowser,
  openDashboardPage,
} from '../helpers/browser.ts';
import { admin, createTestApp, OPERATOR_KEY, type TestApp } from '../helpers/test-app.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

const skip = browserUnavailable() ?? false;
/** Screenshots of every run (gitignored); docs/screenshots/dashboard/ keeps one set from a real run. */
const ARTEFACTS = 'test-artefacts/dashboard';
const SUPPLIER = 'LIVE';
const DAY = 86400e3;
const silent = { info() {}, warn() {}, error: (o: unknown) => console.error('worker', o) };

describe('the operator dashboard, in headless Chromium', { skip }, () => {
  let t: TestApp;
  let browser: HeadlessBrowser;
  let worker: WorkerHandle;
  let base: string;
  let page: Page;
  let n = 0;
  const loadedElsewhere: string[] = [];
  let consoleErrors: string[];

  async function stage(payload = accountFor(SUPPLIER, ++n), start = new Date()) {
    await scheduleImportProcess(t.db, {
      supplier: SUPPLIER,
      externalAccountNumber: String(payload.external_account_number),
      payload,
      isDryRun: false,
      scheduleWindowStart: start,
      scheduleWindowEnd: new Date(start.getTime() + 4 * DAY),
      explicitWindow: start.getTime() > Date.now(),
    });
    return payload;
  }

  const accessibilityProblems = (name: string) => axeProblems(page, join(ARTEFACTS, `axe-${name}.json`));

  const shot = (name: string) => page.screenshot({ path: join(ARTEFACTS, `${name}.png`), fullPage: true });
  const count = async (status: string) =>
    Number(await page.locator(`[data-count="${status}"]`).textContent());

  before(async () => {
    mkdirSync(ARTEFACTS, { recursive: true });
    t = await createTestApp({ WORKER_CONCURRENCY: '5' });
    await admin(t.app, 'POST', '/import-suppliers/', { code: SUPPLIER });
    // An hour of history for the chart: accounts created, then spread over the last 40 minutes.
    const first = await stage();
    for (let i = 0; i < 80; i++) await stage();
    await runWorkerUntilIdle(t.config, t.db);
    await t.db.query(
      sql(
        '',
        `UPDATE accounts SET created_at = date_trunc('minute', now()) - ((id * 7) % 40 + 1) * interval '1 minute'
          WHERE import_supplier = $1`,
      ),
      [SUPPLIER],
    );
    // Three accounts whose meter point is already on the first one: the worker fails them (ERRORED).
    for (let i = 0; i < 3; i++) {
      const clash = accountFor(SUPPLIER, ++n);
      clash.supply_addresses[0].meter_points[0].identifier =
        first.supply_addresses[0].meter_points[0].identifier;
      // Scheduling refuses a held meter point (decision 0064): staged as if none were reserved,
      // so that only the worker's own check fails them.
      await t.db.exec('DELETE FROM identifier_reservations');
      await stage(clash);
    }
    await runWorkerUntilIdle(t.config, t.db);
    // Work scheduled for tomorrow: waiting, so the page has something to estimate.
    for (let i = 0; i < 120; i++) await stage(accountFor(SUPPLIER, ++n), new Date(Date.now() + DAY));

    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    worker = startWorker(t.config, { db: t.db, logger: silent, idlePollMs: 50 });
    browser = await launchBrowser();
    ({ page, consoleErrors } = await openDashboardPage(browser));
    page.on('requestfinished', (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith('data:')) loadedElsewhere.push(r.url());
    });
  });
  after(async () => {
    await browser?.close();
    await worker?.stop();
    await t?.close();
  });

  it('signs in with the operator key', async () => {
    await page.goto(`${base}/dashboard/`);
    assert.equal(new URL(page.url()).pathname, '/dashboard/sign-in');
    assert.deepEqual(await accessibilityProblems('sign-in'), []);
    await page.getByLabel('Operator key').fill('wrong key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('The operator key is not valid.').waitFor();
    // The browser logs the refused sign-in's 401 as an error: that one is expected.
    consoleErrors.length = 0;
    await page.getByLabel('Operator key').fill(OPERATOR_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Suppliers', level: 1 }).waitFor();
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'ferry_dashboard');
    assert.ok(session?.httpOnly);
    assert.equal(session?.sameSite, 'Strict');
    assert.deepEqual(await accessibilityProblems('overview'), []);
    await shot('overview');
  });

  it('shows progress moving while the worker creates accounts, without a reload', async () => {
    await page.getByRole('link', { name: SUPPLIER, exact: true }).click();
    await page.getByRole('heading', { name: `Supplier ${SUPPLIER}` }).waitFor();
    await page.locator('.chart canvas').waitFor();
    await page.evaluate('window.marker = 1');
    const processed = await count('PROCESSED');
    for (let i = 0; i < 30; i++) await stage();
    // The page's script redraws the count from progress.json as the worker goes.
    await page
      .locator('[data-count="PROCESSED"]', { hasText: new RegExp(`^${processed + 30}$`) })
      .waitFor({ timeout: 60_000 });
    assert.equal(await page.evaluate('window.marker'), 1, 'the same page: no reload');
    assert.equal(await count('ERRORED'), 3);
    assert.match(String(await page.locator('[data-field="eta"]').textContent()), /^about|under a minute/);
    assert.ok(Number(await page.locator('[data-field="created_in_chart"]').textContent()) >= processed + 30);
    assert.deepEqual(await accessibilityProblems('supplier'), []);
    await shot('supplier-progress');
    await page
      .locator('section[aria-labelledby="errors"]')
      .screenshot({ path: join(ARTEFACTS, 'error-list.png') });
  });

  it('opens the processes of an error code, then a process with its payload and timeline', async () => {
    await page.getByRole('link', { name: 'meter_point_on_another_account' }).click();
    await page.getByRole('heading', { name: `Processes of ${SUPPLIER}` }).waitFor();
    const rows = page.locator('tbody tr');
    assert.equal(await rows.count(), 3);
    await rows.first().getByRole('link').click();
    await page.getByRole('heading', { name: 'Event timeline' }).waitFor();
    assert.equal(await page.locator('[data-field="status"]').textContent(), 'ERRORED');
    const timeline = await page.locator('ol.timeline').innerText();
    assert.match(timeline, /CREATED[\s\S]*STARTED[\s\S]*ERRORED/);
    assert.match(await page.locator('.tree').innerText(), /external_account_number/);
    assert.deepEqual(await accessibilityProblems('process'), []);
    await shot('process-timeline');
  });

  it('retries the process: it goes back to the queue and its timeline says so', async () => {
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('The process is PENDING again').waitFor();
    // The worker takes it again and fails it again (the meter point is still taken).
    const events = await page.locator('ol.timeline li').count();
    assert.ok(events >= 4, `a fourth event after the retry (${events})`);
    assert.match(await page.locator('ol.timeline').innerText(), /ERRORED[\s\S]*RETRIED/);
  });

  it('pauses the supplier', async () => {
    await page.goto(`${base}/dashboard/suppliers/${SUPPLIER}/`);
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByText('The supplier is paused').waitFor();
    assert.equal(await page.locator('[data-field="status"]').first().textContent(), 'Paused');
    const s = await admin<{ status: string }>(t.app, 'GET', `/import-suppliers/${SUPPLIER}/`);
    assert.equal(s.status, 'Paused');
    await page.locator('[data-field="eta"]', { hasText: 'paused' }).waitFor();
    await page.getByRole('button', { name: 'Resume' }).waitFor();
  });

  it('keeps Resume within the window and its container at 1366×768, on the supplier page and the overview', async () => {
    // Where the Resume button is cut off: the window or a scrolling ancestor whose box it leaves.
    const cutOffBy = () =>
      page.evaluate(`(() => {
        const button = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Resume');
        const r = button.getBoundingClientRect();
        const by = [];
        if (r.left < 0 || r.right > innerWidth || r.top < 0 || r.bottom > innerHeight) by.push('window');
        for (let p = button.parentElement; p; p = p.parentElement) {
          if (getComputedStyle(p).overflowX === 'visible') continue;
          const box = p.getBoundingClientRect();
          if (r.left < box.left || r.right > box.right) by.push(p.tagName.toLowerCase() + '.' + p.className);
        }
        return by;
      })()`);
    await page.setViewportSize({ width: 1366, height: 768 });
    try {
      await page.goto(`${base}/dashboard/suppliers/${SUPPLIER}/`);
      await page.getByRole('button', { name: 'Resume' }).waitFor();
      assert.deepEqual(await cutOffBy(), [], 'the supplier page');
      await shot('supplier-1366');
      await page.goto(`${base}/dashboard/`);
      await page.getByRole('button', { name: 'Resume' }).waitFor();
      assert.deepEqual(await cutOffBy(), [], 'the overview');
      await shot('overview-1366');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('creates an API key shown once, and revokes it', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('Supplier LIVE upload');
    await page.getByLabel('Suppliers (codes separated by commas, or *)').fill(SUPPLIER);
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.locator('[data-field="new-key"]').textContent();
    assert.match(String(key), /^ferry_[0-9a-f]{16}_/);
    assert.deepEqual(await accessibilityProblems('api-keys'), []);
    await shot('api-keys');
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('The API key is revoked').waitFor();
    assert.equal(await page.locator('[data-field="new-key"]').count(), 0, 'the key is not shown again');
  });

  it('loaded nothing from elsewhere and logged no errors', () => {
    assert.deepEqual(loadedElsewhere, []);
    assert.deepEqual(consoleErrors, []);
  });
});
