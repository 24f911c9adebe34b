/**
 * The webhooks page in headless Chromium: reached from the navigation, a test event sent to a real
 * receiver on a loopback port (fan-out and sender running, as in a worker) and shown delivered
 * with its attempt, a disabled endpoint's banner, enabling it again; no serious accessibility
 * problem (axe-core) and no console error.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startWebhooks, type WebhooksHandle } from '../../src/events/webhooks/start-webhooks.ts';
import { sql } from '../../src/infra/db/db.ts';
import { type Receiver, startReceiver } from '../events/webhooks-helpers.ts';
import {
  accessibilityProblems as axeProblems,
  browserUnavailable,
  type HeadlessBrowser,
  launchBrowser,
  openDashboardPage,
} from '../helpers/browser.ts';
import { admin, createTestApp, OPERATOR_KEY, type TestApp } from '../helpers/test-app.ts';

const skip = browserUnavailable() ?? false;
const ARTEFACTS = 'test-artefacts/dashboard';

describe('the webhooks page, in headless Chromium', { skip }, () => {
  let t: TestApp;
  let browser: HeadlessBrowser;
  let receiver: Receiver;
  let webhooks: WebhooksHandle;
  let base: string;
  let page: Page;
  let consoleErrors: string[];
  let endpointId: string;

  const accessibilityProblems = (name: string) => axeProblems(page, join(ARTEFACTS, `axe-${name}.json`));
  const shot = (name: string) => page.screenshot({ path: join(ARTEFACTS, `${name}.png`), fullPage: true });

  before(async () => {
    mkdirSync(ARTEFACTS, { recursive: true });
    t = await createTestApp();
    receiver = await startReceiver();
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'BROWSE' });
    ({ id: endpointId } = await admin<{ id: string }>(t.app, 'POST', '/webhook-endpoints/', {
      url: `${receiver.url}/browser`,
      import_suppliers: ['BROWSE'],
    }));
    webhooks = startWebhooks(
      { leaseSeconds: 5, pollMs: 20, concurrency: 4 },
      { db: t.db, logger: { info() {}, warn() {} } },
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
    ({ page, consoleErrors } = await openDashboardPage(browser));
    await page.goto(`${base}/dashboard/`);
    await page.getByLabel('Operator key').fill(OPERATOR_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Suppliers', level: 1 }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await webhooks?.stop();
    await receiver?.close();
    await t?.close();
  });

  it('sends a test event from the page and shows it delivered', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByRole('heading', { name: `${receiver.url}/browser` }).waitFor();
    assert.deepEqual(await accessibilityProblems('webhooks-empty'), []);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'A test event (EVENT_WEBHOOK_TEST) is queued' })
      .waitFor();
    // The receiver has it; the page, reloaded, says so with the attempt.
    const deadline = Date.now() + 10_000;
    while (receiver.received.length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    assert.equal(JSON.parse(receiver.received[0].body).type, 'EVENT_WEBHOOK_TEST');
    await new Promise((r) => setTimeout(r, 200));
    await page.reload();
    const row = page.locator('[data-table="deliveries"] tbody tr').first();
    assert.match(await row.innerText(), /EVENT_WEBHOOK_TEST\s+delivered\s+.*200 · \d+ ms/);
    assert.deepEqual(await accessibilityProblems('webhooks'), []);
    await shot('webhooks');
  });

  it('shows a disabled endpoint’s banner, and enables it again', async () => {
    await t.db.query(
      sql(
        '',
        `UPDATE webhook_endpoints SET enabled = false, failing_since = now() - interval '25 hours', disabled_at = now(),
                disabled_reason = 'every delivery failed since 2026-01-01T00:00:00Z' WHERE id = $1`,
      ),
      [endpointId],
    );
    await page.reload();
    const banner = page
      .getByRole('alert')
      .filter({ hasText: 'every delivery failed since 2026-01-01T00:00:00Z' });
    await banner.waitFor();
    assert.deepEqual(await accessibilityProblems('webhooks-disabled'), []);
    await shot('webhooks-disabled');
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('status').filter({ hasText: 'The endpoint is enabled' }).waitFor();
    assert.equal(await banner.count(), 0);
    assert.equal((await page.locator('[data-field="state"]').innerText()).trim(), 'enabled');
    // Disabling asks first (the dialog is accepted by the helper).
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('status').filter({ hasText: 'The endpoint is disabled' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'disabled by the operator' }).waitFor();
  });

  it('logged no errors', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
