/**
 * The README's receiver (examples/webhook-receiver.mjs) as a supplier would run it: Ferry's
 * deliveries pass its signature check, and a body or signature that Ferry did not make does not.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startWebhooks } from '../../src/events/webhooks/start-webhooks.ts';
import { freePort } from '../helpers/ports.ts';
import { admin, createTestApp, type TestApp } from '../helpers/test-app.ts';
import { addEvent, eventually } from './webhooks-helpers.ts';

const silent = { info() {}, warn() {}, error() {} };

describe('the README webhook receiver', () => {
  let t: TestApp;
  let receiver: ChildProcess;
  let url: string;
  let printed = '';
  let secret: string;

  before(async () => {
    t = await createTestApp();
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'RECV' });
    const port = await freePort();
    url = `http://127.0.0.1:${port}/ferry`;
    const endpoint = await admin<{ secret: string }>(t.app, 'POST', '/webhook-endpoints/', {
      url,
      import_suppliers: ['RECV'],
    });
    secret = endpoint.secret;
    receiver = spawn(process.execPath, ['examples/webhook-receiver.mjs'], {
      env: { ...process.env, FERRY_WEBHOOK_SECRET: secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    receiver.stdout!.setEncoding('utf8').on('data', (s: string) => {
      printed += s;
    });
    // Listening once it answers (400: an unsigned request).
    await eventually(
      () =>
        fetch(url, { method: 'POST', body: '{}' }).then(
          (r) => r.status === 400,
          () => false,
        ),
      10_000,
      'the receiver to listen',
    );
  });
  after(async () => {
    receiver.kill();
    await t.close();
  });

  it("accepts Ferry's deliveries and prints each event once", async () => {
    const hooks = startWebhooks(
      { leaseSeconds: 5, pollMs: 20, concurrency: 4 },
      { db: t.db, logger: silent },
    );
    try {
      await addEvent(t.db, 'RECV', 'ACC-1', 'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED');
      await addEvent(t.db, 'RECV', 'ACC-1', 'EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED');
      await eventually(async () => printed.trim().split('\n').length >= 2, 15_000);
    } finally {
      await hooks.stop();
    }
    const lines = printed
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => [l.type, l.account]),
      [
        ['EVENT_ACCOUNT_IMPORT_PROCESS_CREATED', 'ACC-1'],
        ['EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED', 'ACC-1'],
      ],
    );
  });

  it('refuses a body or a signature Ferry did not make, and an old one', async () => {
    const body = JSON.stringify({ id: '1_1', type: 'EVENT_NOTE_ADDED' });
    const sign = (t: number, text: string, key = secret) =>
      `t=${t},v1=${createHmac('sha256', key).update(`${t}.${text}`).digest('hex')}`;
    const post = (signature: string, text = body) =>
      fetch(url, { method: 'POST', headers: { 'ferry-signature': signature }, body: text }).then(
        (r) => r.status,
      );
    const now = Math.floor(Date.now() / 1000);
    assert.equal(await post(sign(now, body)), 204);
    assert.equal(await post(sign(now, body), body.replace('NOTE', 'NOTES')), 400, 'body changed');
    assert.equal(await post(sign(now, body, 'another secret')), 400, 'another secret');
    assert.equal(await post(sign(now - 600, body)), 400, 'ten minutes old');
    assert.equal(await post('t=1,v1=zz'), 400, 'not hex');
    assert.equal(await post(''), 400, 'no signature');
  });
});
