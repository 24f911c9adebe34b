/**
 * `ferry webhook add|list|enable|disable|test|deliveries|remove` as the real binary against the
 * admin API on a loopback socket: the secret shown once by `add` and never again, a refused URL
 * answered with the service's detail (exit 1), bad usage with exit 2.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startWebhookSender } from '../../src/events/webhooks/webhook-sender.ts';
import { startReceiver } from '../events/webhooks-helpers.ts';
import { admin, listeningTestApp, type TestApp } from '../helpers/test-app.ts';

const SUPPLIERS = ['HOOKED', 'HOOKED_TOO'];

describe('ferry webhook', () => {
  let t: TestApp;
  let env: Record<string, string>;
  before(async () => {
    ({ t, env } = await listeningTestApp());
    for (const code of SUPPLIERS) await admin(t.app, 'POST', '/import-suppliers/', { code });
  });
  after(() => t.close());

  /** `ferry webhook …`, run to its end. */
  function ferry(args: string[]) {
    const child = spawn(process.execPath, ['bin/ferry.js', 'webhook', ...args], {
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      child.on('close', (code) => resolve({ code, stdout, stderr })),
    );
  }

  it('add shows the secret once; list, enable/disable, test, deliveries and remove never show it', async () => {
    const url = 'https://hooks.example/ferry';
    const added = await ferry([
      'add',
      url,
      '--suppliers',
      SUPPLIERS.join(','),
      '--types',
      'EVENT_NOTE_ADDED',
    ]);
    assert.equal(added.code, 0, added.stderr);
    const id = /Created webhook endpoint (\S+) for https:\/\/hooks\.example\/ferry\./.exec(added.stdout)?.[1];
    assert.ok(id, added.stdout);
    const secret = /it will not be shown again\):\n\n {2}(\S+)\n/.exec(added.stdout)?.[1];
    assert.ok(secret && secret.length >= 32, added.stdout);

    const json = await ferry(['add', 'http://127.0.0.1:9/hook', '--suppliers', '*', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const created = JSON.parse(json.stdout);
    assert.deepEqual(created.import_suppliers, ['*']);
    assert.equal(created.types, null);
    assert.equal(created.enabled, true);
    assert.equal(typeof created.secret, 'string');

    const listed = await ferry(['list']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^ID\s+URL\s+IMPORT_SUPPLIERS\s+TYPES\s+ENABLED/);
    assert.match(
      listed.stdout,
      new RegExp(`${id}\\s+${url}\\s+\\["HOOKED","HOOKED_TOO"\\]\\s+\\["EVENT_NOTE_ADDED"\\]\\s+true`),
    );
    assert.match(
      listed.stdout,
      new RegExp(`${created.id}\\s+http://127\\.0\\.0\\.1:9/hook\\s+\\["\\*"\\]\\s+all\\s+true`),
    );
    const listedJson = await ferry(['list', '--json']);
    const endpoints = JSON.parse(listedJson.stdout) as { id: string; secret?: string }[];
    assert.deepEqual(
      endpoints.map((e) => e.id),
      [id, created.id],
    );
    for (const text of [listed.stdout, listedJson.stdout]) {
      assert.ok(!text.includes(secret) && !text.includes(created.secret), 'the list shows no secret');
      assert.ok(!text.includes('"secret"'));
    }

    assert.match(
      (await ferry(['disable', id])).stdout,
      new RegExp(`Webhook endpoint ${id} is now disabled\\.`),
    );
    assert.equal(JSON.parse((await ferry(['list', '--json'])).stdout)[0].enabled, false);
    assert.match((await ferry(['list'])).stdout, new RegExp(`${id} .* false .* disabled by the operator`));
    assert.match((await ferry(['enable', id])).stdout, /is now enabled\./);

    const tested = await ferry(['test', id]);
    assert.equal(tested.code, 0, tested.stderr);
    const testEvent = new RegExp(`Queued test event (test_\\S+) for webhook endpoint ${id}`).exec(
      tested.stdout,
    )?.[1];
    assert.ok(testEvent, tested.stdout);
    const deliveries = await ferry(['deliveries', id]);
    assert.equal(deliveries.code, 0, deliveries.stderr);
    assert.match(
      deliveries.stdout,
      /^EVENT_ID\s+TYPE\s+STATE\s+ATTEMPT\s+AT\s+STATUS_CODE\s+DURATION_MS\s+ERROR/,
    );
    assert.match(deliveries.stdout, new RegExp(`${testEvent}\\s+EVENT_WEBHOOK_TEST\\s+pending`));
    const deliveriesJson = JSON.parse((await ferry(['deliveries', id, '--json'])).stdout);
    assert.equal(deliveriesJson.length, 1);
    assert.equal(deliveriesJson[0].event_id, testEvent);
    assert.deepEqual(deliveriesJson[0].attempts, []);
    assert.ok(!JSON.stringify(deliveriesJson).includes(secret));

    const removed = await ferry(['remove', id]);
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, new RegExp(`Removed webhook endpoint ${id}\\.`));
    assert.deepEqual(
      JSON.parse((await ferry(['list', '--json'])).stdout).map((e: { id: string }) => e.id),
      [created.id],
    );
    const again = await ferry(['remove', id]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^ferry: 404 not_found/);
  });

  it('deliveries shows the attempts: status, error and duration, the latest five in the table', async () => {
    // The receiver fails six attempts; a sender retrying after 40 to 200 ms delivers the seventh.
    let answered = 0;
    const receiver = await startReceiver(() => (answered++ < 6 ? 503 : 200));
    const logger = { info() {}, warn() {}, error() {} };
    const sender = startWebhookSender({
      db: t.db,
      logger,
      leaseSeconds: 5,
      concurrency: 2,
      idlePollMs: 20,
      retry: { baseMs: 40, maxMs: 200 },
    });
    try {
      const added = await ferry(['add', `${receiver.url}/hook`, '--suppliers', 'HOOKED', '--json']);
      const { id } = JSON.parse(added.stdout);
      const { event_id } = JSON.parse((await ferry(['test', id, '--json'])).stdout);
      const deadline = Date.now() + 30_000;
      let deliveries: { event_id: string; state: string; attempts: { status_code: number | null }[] }[] = [];
      while (deliveries[0]?.state !== 'delivered') {
        if (Date.now() > deadline) throw new Error(`not delivered: ${JSON.stringify(deliveries)}`);
        await new Promise((r) => setTimeout(r, 100));
        deliveries = JSON.parse((await ferry(['deliveries', id, '--json'])).stdout);
      }
      assert.equal(deliveries[0].event_id, event_id);
      assert.deepEqual(
        deliveries[0].attempts.map((a) => a.status_code),
        [503, 503, 503, 503, 503, 503, 200],
      );
      const human = await ferry(['deliveries', id]);
      assert.equal(human.code, 0, human.stderr);
      const rows = human.stdout.trimEnd().split('\n').slice(2);
      assert.equal(rows.length, 6, human.stdout);
      assert.match(
        rows[0],
        new RegExp(
          `^${event_id}\\s+EVENT_WEBHOOK_TEST\\s+delivered\\s+\\.\\.\\.\\s+2 earlier attempts \\(--json shows them\\)$`,
        ),
      );
      assert.match(rows[1], /^\s+3\s+\S+Z\s+503\s+\d+\s+HTTP 503/);
      assert.match(rows[5], /^\s+7\s+\S+Z\s+200\s+\d+$/);
      await ferry(['remove', id]);
    } finally {
      await sender.stop();
      await receiver.close();
    }
  });

  it('exits 1 with the service’s detail for a URL it refuses', async () => {
    const refused = await ferry(['add', 'ftp://files.example/hook', '--suppliers', 'HOOKED']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^ferry: 400 validation_error: .*\n {2}url: .*http:\/\/ or https:\/\//);
    const unknown = await ferry(['add', 'https://hooks.example/x', '--suppliers', 'NOPE']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /import_suppliers\.0: No import supplier has the code "NOPE"/);
    assert.deepEqual(JSON.parse((await ferry(['list', '--json'])).stdout).length, 1);
  });

  it('exits 2 on bad usage, and names the commands', async () => {
    const noSuppliers = await ferry(['add', 'https://hooks.example/x']);
    assert.equal(noSuppliers.code, 2);
    assert.match(noSuppliers.stderr, /missing --suppliers/);
    assert.equal((await ferry(['remove'])).code, 2);
    const typo = await ferry(['lsit']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /Did you mean "ferry webhook list"\?/);
    const help = await ferry(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: ferry webhook add <url> --suppliers/);
    assert.match(help.stdout, /Usage: ferry webhook deliveries <id>/);
  });
});
