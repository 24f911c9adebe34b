import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { loadConfig } from '../../src/config.ts';
import { serveMetrics } from '../../src/http/metrics.ts';
import { adminHeaders, createTestApp, type TestApp } from '../helpers/test-app.ts';

const TOKEN = 'scrape-only-token-0123456789';

/** Decision 0062: /metrics never takes the operator key; open unless METRICS_TOKEN is set. */
describe('/metrics access', () => {
  let open: TestApp;
  let guarded: TestApp;
  before(async () => {
    open = await createTestApp();
    guarded = await createTestApp({ METRICS_TOKEN: TOKEN });
  });
  after(async () => {
    await open.close();
    await guarded.close();
  });

  const scrape = (t: TestApp, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: '/metrics', headers });

  it('answers a scraper with no credential when METRICS_TOKEN is not set', async () => {
    const res = await scrape(open);
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /ferry_import_queue_lag_seconds/);
  });

  it('asks for the metrics token when METRICS_TOKEN is set, and refuses the operator key', async () => {
    const missing = await scrape(guarded);
    assert.equal(missing.statusCode, 401);
    assert.equal(missing.json().code, 'not_authenticated');
    const operatorKey = await scrape(guarded, adminHeaders);
    assert.equal(operatorKey.statusCode, 401);
    assert.equal(operatorKey.json().code, 'authentication_failed');
    assert.equal((await scrape(guarded, { authorization: `Bearer ${TOKEN}x` })).statusCode, 401);
    const ok = await scrape(guarded, { authorization: `Bearer ${TOKEN}` });
    assert.equal(ok.statusCode, 200);
    assert.match(ok.body, /ferry_import_queue_lag_seconds/);
  });

  it("guards a worker's own /metrics (METRICS_PORT) the same way", async () => {
    const server = await serveMetrics(new Registry(), { port: 0, host: '127.0.0.1', token: TOKEN });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
      assert.equal((await fetch(url)).status, 401);
      assert.equal((await fetch(url, { headers: adminHeaders })).status, 401);
      assert.equal((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 200);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a METRICS_TOKEN shorter than 16 characters at start', () => {
    assert.throws(() => loadConfig({ METRICS_TOKEN: 'short' }), /METRICS_TOKEN: must be at least 16/);
  });
});
