import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startMailSenderFromConfig } from '../../src/accounts/welcome-emails/start-mail-sender.ts';
import { resolveOperatorKey } from '../../src/auth/operator-key.ts';
import { loggerOptions } from '../../src/infra/logging.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../helpers/smtp-test-server.ts';
import { admin, createTestApp, OPERATOR_KEY, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

type Line = Record<string, unknown> & { msg: string };

const SMTP_PASSWORD = 'smtp-pass-Zq81xx';

describe('logs: one line per request and per domain event, never a secret', () => {
  let t: TestApp;
  let smtp: SmtpTestServer;
  const lines: Line[] = [];
  const since = (n: number) => lines.slice(n);
  const byMsg = (ls: Line[], msg: string) => ls.filter((l) => l.msg === msg);

  before(async () => {
    smtp = await startSmtpTestServer();
    const url = new URL(smtp.url);
    url.username = 'ferry';
    url.password = SMTP_PASSWORD;
    // The service's own logger options (redaction included), into this test's memory.
    const stream = { write: (s: string) => void lines.push(JSON.parse(s)) };
    t = await createTestApp({ SMTP_URL: url.toString() }, { logger: { ...loggerOptions('info'), stream } });
  });
  after(async () => {
    await t.close();
    await smtp.close();
  });

  it('logs no line for health probes and /metrics', async () => {
    const n = lines.length;
    for (const url of ['/healthz', '/readyz', '/metrics', '/healthz?deep=1']) {
      assert.equal((await t.app.inject({ method: 'GET', url })).statusCode, 200);
    }
    assert.deepEqual(since(n), []);
  });

  it('logs each request once, answered, with its request id, route, status and time', async () => {
    const n = lines.length;
    const ok = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    const missing = await t.app.inject({ method: 'GET', url: '/no-such-page' });
    const logged = since(n);
    assert.equal(logged.length, 2, JSON.stringify(logged));
    const [first, second] = logged;
    assert.deepEqual(
      { ...first, time: 0, pid: 0, hostname: '', ms: 0 },
      {
        level: 30,
        time: 0,
        pid: 0,
        hostname: '',
        reqId: ok.headers['x-request-id'],
        method: 'GET',
        url: '/openapi.json',
        route: '/openapi.json',
        status: 200,
        ms: 0,
        msg: 'request',
      },
    );
    assert.equal(typeof first.ms, 'number');
    assert.equal(second.reqId, missing.headers['x-request-id']);
    assert.equal(second.status, 404);
    assert.equal(second.route, null);
  });

  it('logs every domain event once (processes, suppliers, keys), and no secret anywhere', async () => {
    const n = lines.length;
    let requests = 0;
    const inject: typeof t.app.inject = ((opts: never) => {
      requests++;
      return t.app.inject(opts);
    }) as never;
    const app = { inject } as typeof t.app;
    const supplier = await admin(app, 'POST', '/import-suppliers/', {
      code: 'LOGS',
      config: { send_welcome_emails: true },
    });
    assert.equal(supplier.code, 'LOGS');
    const { apiKey, token, keyId, headers } = await tokenFor(app, ['LOGS'], []);
    const create = async (payload: unknown, taskParams = {}) => {
      const res = await inject({
        method: 'POST',
        url: '/v2/data-import/accounts/',
        headers,
        payload: { payload, task_params: taskParams } as never,
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.headers['x-request-id'];
    };
    const a1 = accountFor('LOGS', 1);
    const createdBy = await create(a1);
    await create(accountFor('LOGS', 2));
    const clash = accountFor('LOGS', 3);
    clash.supply_addresses[0].meter_points[0].identifier = a1.supply_addresses[0].meter_points[0].identifier;
    // Scheduling refuses a held meter point (decision 0064): staged as if a1 had never reserved,
    // so that the worker's own check fails it and logs the error.
    await t.db.exec('DELETE FROM identifier_reservations');
    await create(clash);
    const later = accountFor('LOGS', 4);
    await create(later, { schedule_window_start: new Date(Date.now() + 86400e3).toISOString() });
    await admin(app, 'POST', `/import-processes/LOGS/${later.external_account_number}/cancel/`);
    await runWorkerUntilIdle(t.config, t.db, { logger: t.app.log });
    // The welcome e-mails go out over SMTP_URL, whose password must stay out of the logs.
    const sender = startMailSenderFromConfig(t.config, { db: t.db, logger: t.app.log })!;
    for (let i = 0; i < 200 && byMsg(since(n), 'e-mail sent').length < 2; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    await sender.stop();
    await admin(app, 'PATCH', '/import-suppliers/LOGS/', { status: 'Paused' });
    await admin(app, 'DELETE', `/api-keys/${keyId}/`);

    const logged = since(n);
    const events = logged.filter((l) => l.msg !== 'request' && !l.msg.includes('started'));
    const summary = events.map((l) => `${l.msg}${l.errorCode ? ` ${l.errorCode}` : ''}`).sort();
    assert.deepEqual(summary, [
      'API key created',
      'API key revoked',
      'e-mail sent',
      'e-mail sent',
      'import process cancelled',
      'import process created',
      'import process created',
      'import process created',
      'import process created',
      'import process errored meter_point_on_another_account',
      'import process processed',
      'import process processed',
      'import supplier changed',
      'import supplier created',
    ]);
    // One line per request, and the events of a request carry its id.
    assert.equal(byMsg(logged, 'request').length, requests);
    assert.equal(logged.filter((l) => /incoming request|request completed/.test(l.msg)).length, 0);
    const created = byMsg(logged, 'import process created').find(
      (l) => l.externalAccountNumber === a1.external_account_number,
    )!;
    assert.deepEqual(
      {
        reqId: created.reqId,
        event: created.event,
        status: created.status,
        importSupplier: created.importSupplier,
      },
      {
        reqId: createdBy,
        event: 'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED',
        status: 'PENDING',
        importSupplier: 'LOGS',
      },
    );
    for (const l of byMsg(logged, 'import process processed')) {
      assert.equal(l.event, 'EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED');
      assert.ok(l.importProcessId && l.workerId);
    }

    const text = JSON.stringify(lines);
    for (const [name, secret] of Object.entries({ apiKey, token, OPERATOR_KEY, SMTP_PASSWORD })) {
      assert.ok(!text.includes(secret), `the ${name} is in the logs`);
    }
  });

  it('writes a generated operator key to its file, owner-only, and tells only where it is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ferry-operator-key-'));
    try {
      const told: unknown[][] = [];
      const key = resolveOperatorKey(null, dir, (...args: unknown[]) => void told.push(args));
      const file = join(dir, 'operator-api-key');
      assert.deepEqual(told, [[file]]);
      assert.equal(readFileSync(file, 'utf8'), `${key}\n`);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      // The next start reads it and tells nothing.
      assert.equal(
        resolveOperatorKey(null, dir, () => assert.fail('told again')),
        key,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
