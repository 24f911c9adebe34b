import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { browserUnavailable, type HeadlessBrowser, launchBrowser } from '../helpers/browser.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

const skip = browserUnavailable() ?? false;

describe('the API reference at /docs, in headless Chromium', { skip }, () => {
  let t: TestApp;
  let browser: HeadlessBrowser;
  let base: string;

  before(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders the operations and the account payload fields, loading nothing from elsewhere', async () => {
    const { page, loaded, failed } = await browser.newPage();
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(`${base}/docs`);
    await page.getByText('Ferry data-import API').first().waitFor({ timeout: 30_000 });
    const text = await page.locator('body').innerText();
    assert.match(text, /Validate account data/);
    // The account endpoints' request body is the account payload: its fields are listed.
    for (const field of ['import_supplier', 'external_account_number', 'billing_address', 'customers']) {
      assert.ok(text.includes(field), `the page shows the account payload field ${field}`);
    }
    assert.deepEqual(
      loaded.filter((url) => !url.startsWith(base) && !url.startsWith('blob:')),
      [],
      'every resource came from Ferry itself',
    );
    // Nothing refused by the content security policy either (Redoc's attribution logo was, once).
    assert.deepEqual(failed, [], 'nothing failed');
    assert.deepEqual(consoleErrors, []);
    // No link or source in the rendered page points outside the service.
    const addresses: string[] = await page.evaluate(
      `[...document.querySelectorAll('[href], [src]')].map((e) => e.getAttribute('href') ?? e.getAttribute('src'))`,
    );
    assert.deepEqual(
      addresses.filter((address) => /^(https?:)?\/\//.test(address) && !address.startsWith(base)),
      [],
    );
  });

  it('finds an operation through the search box', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${base}/docs`);
    const search = page.getByPlaceholder('Search...');
    await search.waitFor({ timeout: 30_000 });
    await search.fill('transfer status');
    const results = page.locator('[data-role="search:results"]');
    await results.waitFor({ timeout: 10_000 });
    assert.match(await results.innerText(), /Transfer status of an account/);
  });

  it('finds the error codes through the search box, each in its section of the reference', async () => {
    const { page } = await browser.newPage();
    await page.goto(`${base}/docs`);
    const search = page.getByPlaceholder('Search...');
    await search.waitFor({ timeout: 30_000 });
    for (const [query, section] of [
      ['meter_point', 'Top-level codes'],
      ['meter_point_on_another_account', 'Top-level codes'],
      ['invalid_phone_number', 'Item codes: Field formats'],
    ]) {
      // Cleared first, so that no result of the previous query is read for this one.
      await search.fill('');
      await page.locator('[data-role="search:results"]').waitFor({ state: 'detached', timeout: 10_000 });
      await search.fill(query);
      const results = page.locator('[data-role="search:results"]', { hasText: section });
      await results.waitFor({ timeout: 10_000 });
      assert.ok((await results.innerText()).includes(section), `searching ${query} finds ${section}`);
    }
    // The section opens on its table, the code in it.
    await page
      .locator('[data-role="search:results"] li', { hasText: 'Item codes: Field formats' })
      .first()
      .click();
    await page.getByRole('cell', { name: 'invalid_phone_number', exact: true }).waitFor({ timeout: 10_000 });
  });
});
