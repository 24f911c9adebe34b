import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Debian's Chromium, installed by scripts/install-chromium.sh (run by `npm test` and CI). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why browser tests cannot run here, or null when they can (for `it(..., { skip })`). */
export function browserUnavailable(): string | null {
  if (existsSync(CHROMIUM_PATH)) return null;
  if (process.env.CI) throw new Error(`${CHROMIUM_PATH} is missing: CI must install Chromium first`);
  return `no Chromium at ${CHROMIUM_PATH} (run scripts/install-chromium.sh)`;
}

export interface HeadlessBrowser {
  browser: Browser;
  /**
   * A fresh page, with the URLs it loaded and those that failed, each as `url reason`
   * (`csp` when the page's content security policy refused it).
   */
  newPage(): Promise<{ page: Page; loaded: string[]; failed: string[] }>;
  close(): Promise<void>;
}

/**
 * Headless Chromium (Playwright gives it a throw-away profile). Background networking is off: the machine's
 * network is closed and Chromium would otherwise try to reach its own services at start.
 */
export async function launchBrowser(): Promise<HeadlessBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    async newPage() {
      const page = await browser.newPage();
      const loaded: string[] = [];
      const failed: string[] = [];
      page.on('requestfinished', (request) => loaded.push(request.url()));
      page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`));
      return { page, loaded, failed };
    },
    async close() {
      await browser.close();
    },
  };
}

/**
 * Serious and critical axe-core findings on the page as it is now (axe injected into every page
 * by an init script); every finding is written to `file`.
 */
export async function accessibilityProblems(page: Page, file: string) {
  // A string, run in the page (axe is its global there); the test's own TypeScript has no DOM.
  const results: { id: string; impact: string; help: string; targets: string[] }[] = await page.evaluate(`
    axe.run(document, { resultTypes: ['violations'] }).then((r) =>
      r.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((node) => node.target.join(' ')),
      })),
    )`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return results.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * A dashboard tab: 1280×900, axe injected into every page (an init script is injected by the
 * browser itself, so the page's CSP need not allow it), dialogs accepted, console errors kept.
 */
export async function openDashboardPage(browser: HeadlessBrowser) {
  const context = await browser.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript({ path: AXE_SOURCE });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('dialog', (dialog) => dialog.accept());
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  return { page, consoleErrors };
}
