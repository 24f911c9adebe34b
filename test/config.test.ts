import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../src/config.ts';
import { webhookSettings } from '../src/events/webhooks/start-webhooks.ts';

describe('configuration', () => {
  it('applies the documented defaults when nothing is set', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.equal(c.host, '127.0.0.1');
    assert.match(c.dataDir, /\/data$/);
    assert.equal(c.databaseUrl, null);
    assert.equal(c.operatorApiKey, null);
    assert.equal(c.documentStoreUrl, `file://${c.dataDir}/documents`);
    assert.equal(c.serviceTimezone, 'Europe/London');
    assert.equal(c.gocardless.apiUrl, 'https://api.gocardless.com');
    assert.equal(c.stripe.apiUrl, 'https://api.stripe.com');
    assert.ok(c.workerConcurrency >= 1);
    assert.equal(c.requestTimeoutMs, 30_000);
    assert.equal(c.cacheMaxAgeMs, 30_000);
    assert.equal(c.listenHeartbeatMs, 5_000);
    assert.equal(c.smtpUrl, null);
    assert.equal(c.mailFrom, 'Ferry <no-reply@localhost>');
  });

  it('reads every variable it documents', () => {
    const c = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/tmp/ferry-x',
      DATABASE_URL: 'postgres://u@127.0.0.1:5432/db',
      OPERATOR_API_KEY: 'a-long-operator-key-123',
      DOCUMENT_STORE_URL: 's3://bucket/prefix',
      S3_ENDPOINT: 'http://127.0.0.1:4569',
      S3_REGION: 'eu-west-1',
      SERVICE_TIMEZONE: 'UTC',
      GOCARDLESS_API_URL: 'http://127.0.0.1:1',
      GOCARDLESS_ACCESS_TOKEN: 'gc',
      STRIPE_API_URL: 'http://127.0.0.1:2',
      STRIPE_API_KEY: 'sk',
      WORKER_CONCURRENCY: '4',
      REQUEST_TIMEOUT_MS: '5000',
      CACHE_MAX_AGE_MS: '1000',
      LISTEN_HEARTBEAT_MS: '2000',
      SMTP_URL: 'smtps://user:pass@mail.example:465',
      MAIL_FROM: 'Welcome <welcome@supplier.example>',
    });
    assert.equal(c.port, 9000);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.dataDir, '/tmp/ferry-x');
    assert.equal(c.databaseUrl, 'postgres://u@127.0.0.1:5432/db');
    assert.equal(c.documentStoreUrl, 's3://bucket/prefix');
    assert.deepEqual(c.s3, { endpoint: 'http://127.0.0.1:4569', region: 'eu-west-1' });
    assert.equal(c.serviceTimezone, 'UTC');
    assert.deepEqual(c.gocardless, { apiUrl: 'http://127.0.0.1:1', accessToken: 'gc' });
    assert.deepEqual(c.stripe, { apiUrl: 'http://127.0.0.1:2', apiKey: 'sk' });
    assert.equal(c.workerConcurrency, 4);
    assert.equal(c.requestTimeoutMs, 5000);
    assert.equal(c.cacheMaxAgeMs, 1000);
    assert.equal(c.listenHeartbeatMs, 2000);
    assert.equal(c.smtpUrl, 'smtps://user:pass@mail.example:465');
    assert.equal(c.mailFrom, 'Welcome <welcome@supplier.example>');
  });

  const bad: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['DOCUMENT_STORE_URL', { DOCUMENT_STORE_URL: 'ftp://x/y' }],
    ['SERVICE_TIMEZONE', { SERVICE_TIMEZONE: 'Mars/Olympus' }],
    ['WORKER_CONCURRENCY', { WORKER_CONCURRENCY: '0' }],
    ['WORKER_CONCURRENCY', { WORKER_CONCURRENCY: '2.5' }],
    ['OPERATOR_API_KEY', { OPERATOR_API_KEY: 'short' }],
    ['GOCARDLESS_API_URL', { GOCARDLESS_API_URL: 'nope' }],
    ['STRIPE_API_URL', { STRIPE_API_URL: 'file:///x' }],
    ['S3_ENDPOINT', { S3_ENDPOINT: 's3://x' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['REQUEST_TIMEOUT_MS', { REQUEST_TIMEOUT_MS: '10' }],
    // Cached key and supplier state is re-read after at most 30 s (docs/product.md).
    ['CACHE_MAX_AGE_MS', { CACHE_MAX_AGE_MS: '60000' }],
    ['CACHE_MAX_AGE_MS', { CACHE_MAX_AGE_MS: '-1' }],
    ['LISTEN_HEARTBEAT_MS', { LISTEN_HEARTBEAT_MS: '0' }],
    ['LISTEN_HEARTBEAT_MS', { LISTEN_HEARTBEAT_MS: '60000' }],
    ['SMTP_URL', { SMTP_URL: 'http://mail.example' }],
    ['MAIL_FROM', { MAIL_FROM: 'Ferry <not an address>' }],
    ['MAIL_FROM', { MAIL_FROM: 'nobody' }],
  ];
  for (const [variable, env] of bad) {
    it(`rejects a bad ${variable} (${Object.values(env)[0]}) naming the variable`, () => {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) =>
          err instanceof ConfigError && err.variable === variable && err.message.startsWith(variable),
      );
    });
  }

  it('stops the process with a one-line message naming the variable', () => {
    const res = spawnSync(process.execPath, ['bin/ferry.js', 'serve'], {
      env: { ...process.env, PORT: 'abc', DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(res.status, 1);
    const lines = res.stderr.trim().split('\n');
    assert.equal(lines.length, 1);
    assert.match(lines[0], /^ferry: configuration error: PORT: must be a whole number/);
  });

  it('applies the webhook defaults and rejects a bad webhook setting, naming it', () => {
    assert.deepEqual(webhookSettings({}), { leaseSeconds: 30, pollMs: 250, concurrency: 256 });
    assert.equal(webhookSettings({ WEBHOOK_CONCURRENCY: '8' }).concurrency, 8);
    for (const value of ['0', '1025', '2.5', 'many']) {
      assert.throws(
        () => webhookSettings({ WEBHOOK_CONCURRENCY: value }),
        (err: unknown) => err instanceof ConfigError && err.variable === 'WEBHOOK_CONCURRENCY',
      );
    }
  });
});
