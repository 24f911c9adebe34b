import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  accessibilityProblems as axeProblems,
  browserUnavailable,
  type HeadlessBrowser,
  launchBrowser,
  openDashboardPage,
} from '../helpers/browser.ts';
import { createTestApp, OPERATOR_KEY, type TestApp } from '../helpers/test-app.ts';
import { importWaves, uploadExpectations } from '../helpers/wave-setup.ts';

const skip = browserUnavailable() ?? false;
const ARTEFACTS = 'test-artefacts/dashboard';
const SUPPLIER = 'WAVES';

describe("a wave's page, in headless Chromium", { skip }, () => {
  let t: TestApp;
  let browser: HeadlessBrowser;
  let base: string;
  let page: Page;
  let consoleErrors: string[];

  const accessibilityProblems = (name: string) => axeProblems(page, join(ARTEFACTS, `axe-${name}.json`));
  const shot = (name: string) => page.screenshot({ path: join(ARTEFACTS, `${name}.png`), fullPage: true });
  const field = async (name: string) => (await page.locator(`[data-field="${name}"]`).innerText()).trim();

  before(async () => {
    mkdirSync(ARTEFACTS, { recursive: true });
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' });
    const headers = await importWaves(t, SUPPLIER, { 'june-1': 3, 'june-2': 3 });
    await uploadExpectations(t, headers, { supplier: SUPPLIER, wave: 'june-1', skew: 'EXT-0000002' });
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
    await t?.close();
  });

  it('opens a wave with a difference from the supplier page, and approves it with force', async () => {
    await page.goto(`${base}/dashboard/suppliers/${SUPPLIER}/`);
    await page.getByRole('link', { name: 'june-1', exact: true }).click();
    await page.getByRole('heading', { name: `Wave june-1 of ${SUPPLIER}` }).waitFor();
    assert.equal(await field('wave-status'), 'differences');
    assert.equal(await field('held-emails'), '3');
    const difference = page.locator('[data-difference="EXT-0000002"]');
    assert.match(await difference.innerText(), /differing[\s\S]*ledger_balance: expected/);
    assert.deepEqual(await accessibilityProblems('wave'), []);
    await shot('wave-differences');

    // Approving as it is is refused: the page says why.
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Not approved: this wave does not reconcile yet' })
      .waitFor();

    await page.getByLabel('The differences are understood').check();
    await page.getByRole('button', { name: 'Approve anyway (force)' }).click();
    await page.getByText('The wave is approved (final): 3 held welcome e-mail(s) released.').waitFor();
    assert.equal(await field('wave-status'), 'approved');
    assert.match(await field('approved'), /by operator \(forced past differences\)$/);
    assert.equal(await field('held-emails'), '0');
    assert.equal(await page.getByRole('button', { name: 'Approve anyway (force)' }).count(), 0);
  });

  it('rolls a wave back through its preview, with the name typed back', async () => {
    await page.goto(`${base}/dashboard/suppliers/${SUPPLIER}/waves/june-2/`);
    await page.getByRole('link', { name: 'Roll back…' }).click();
    await page.getByRole('heading', { name: `Roll back wave june-2 of ${SUPPLIER}` }).waitFor();
    assert.equal(
      (await page.locator('[data-table="accounts"] td').innerText()).trim(),
      '3',
      'the preview counts the accounts',
    );
    assert.deepEqual(await accessibilityProblems('wave-rollback'), []);
    await shot('wave-rollback-preview');
    await page.getByLabel("Type the wave's name (june-2)").fill('june-1');
    await page.getByRole('button', { name: 'Roll back wave june-2' }).click();
    await page.getByRole('alert').filter({ hasText: 'nothing was rolled back' }).waitFor();

    await page.getByLabel("Type the wave's name (june-2)").fill('june-2');
    await page.getByRole('button', { name: 'Roll back wave june-2' }).click();
    await page.getByText('The wave is rolled back: 3 process(es) CANCELLED').waitFor();
    assert.equal(await field('wave-status'), 'rolled_back');
    assert.equal((await page.locator('[data-count="CANCELLED"]').innerText()).trim(), '3');
    assert.match(await field('rolled-back'), /by operator$/);
  });

  it('logged no errors', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
