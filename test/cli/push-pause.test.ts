/**
 * `ferry push accounts` around a supplier the operator pauses (through the admin API), against
 * the service with a worker: a refusal for the pause is never final, the push waits and carries on
 * once the supplier is resumed, or with --no-wait stops and a re-run sends what was refused; a
 * pause while the accounts wait for the worker is told, not shown as a growing ETA. Also the
 * supplier-facing status endpoint the push reads, and its tenancy.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { readNdjson, serviceForPush, startPush } from '../helpers/push-run.ts';
import { admin, type TestApp, tokenFor } from '../helpers/test-app.ts';

/** How long each test keeps its supplier paused (the push's backoff is capped at 1 s here). */
const PAUSED_MS = 5_000;

const push = (args: string[]) =>
  startPush(args, { FERRY_PUSH_PROGRESS_MS: '200', FERRY_PUSH_PAUSE_MAX_MS: '1000' });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, condition: () => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern, 'g'))?.length ?? 0;

describe('ferry push and a paused supplier', () => {
  let t: TestApp;
  let baseUrl: string;
  let dir: string;
  let service: Awaited<ReturnType<typeof serviceForPush>> | undefined;
  let next = 20_000;

  before(async () => {
    service = await serviceForPush('ferry-push-pause-');
    ({ t, baseUrl, dir } = service);
  });
  after(() => service?.close());

  const setStatus = (supplier: string, status: string) =>
    admin(t.app, 'PATCH', `/import-suppliers/${supplier}/`, { status }, 200);

  /** A supplier, its key, and a book of `n` valid accounts (each line wrapped with `taskParams`). */
  async function bookFor(supplier: string, n: number, taskParams?: Record<string, unknown>) {
    const { apiKey } = await tokenFor(t.app, [supplier]);
    const file = join(dir, `${supplier}.ndjson`);
    const lines = Array.from({ length: n }, () => {
      const a = accountFor(supplier, next++);
      return JSON.stringify(taskParams ? { payload: a, task_params: taskParams } : a);
    });
    writeFileSync(file, `${lines.join('\n')}\n`);
    const report = join(dir, `${supplier}.report.ndjson`);
    return { apiKey, file, report, args: [file, '--url', baseUrl, '--api-key', apiKey, '--report', report] };
  }

  function assertAllProcessed(report: string, n: number) {
    const lines = readNdjson(report);
    assert.equal(lines.length, n, 'one line per account');
    assert.equal(new Set(lines.map((l) => l.external_account_number)).size, n);
    for (const l of lines) assert.equal(l.status, 'PROCESSED', JSON.stringify(l));
  }

  it('waits while the supplier is paused and completes in the same run once it is resumed', async () => {
    const supplier = 'PAUSED_AT_START';
    const { args, report } = await bookFor(supplier, 30);
    await setStatus(supplier, 'Paused');
    const run = push(args);
    await until('the pause to be told', () => /is paused; waiting/.test(run.err()));
    // The operator resumes the supplier 20 s later.
    await sleep(20_000);
    assert.deepEqual(readNdjson(report), [], 'nothing refused for the pause is reported');
    assert.match(run.err(), /supplier PAUSED_AT_START paused; waiting/, 'the progress says so');
    await setStatus(supplier, 'Ongoing');
    assert.equal(await run.done, 0, run.err());
    assertAllProcessed(report, 30);
    assert.equal(count(run.err(), /is paused; waiting/), 1, `told once: ${run.err()}`);
    assert.match(run.err(), /supplier PAUSED_AT_START is no longer paused/);
  });

  it('stops with exit 2 under --no-wait, and a re-run once resumed sends what was refused', async () => {
    const supplier = 'PAUSED_NO_WAIT';
    const { args, report } = await bookFor(supplier, 12);
    await setStatus(supplier, 'Paused');
    const stopped = push([...args, '--no-wait']);
    assert.equal(await stopped.done, 2);
    assert.match(stopped.err(), /supplier PAUSED_NO_WAIT is paused: .*--no-wait/);
    assert.match(stopped.err(), /re-run the same command to resume/);
    assert.deepEqual(readNdjson(report), []);
    await setStatus(supplier, 'Ongoing');
    const resumed = push(args);
    assert.equal(await resumed.done, 0, resumed.err());
    assertAllProcessed(report, 12);
  });

  it('tells a pause while its accounts wait for the worker, and completes once resumed', async () => {
    // Due in an hour: all of them scheduled and waiting before the supplier is paused.
    const due = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const supplier = 'PAUSED_WHILE_WAITING';
    const { args, report } = await bookFor(supplier, 20, { schedule_window_start: due });
    const run = push(args);
    await until('every account scheduled', () => /SCHEDULED 20\)/.test(run.err()));
    await setStatus(supplier, 'Paused');
    await t.db.query(
      sql('', 'UPDATE import_processes SET schedule_window_start = now() WHERE import_supplier = $1'),
      [supplier],
    );
    await until('the pause to be told', () => /is paused; waiting/.test(run.err()));
    await sleep(PAUSED_MS);
    const progress = run
      .err()
      .split('\n')
      .filter((l) => l.startsWith('ferry push accounts:'))
      .at(-1);
    assert.match(progress ?? '', /paused; waiting for it to be resumed$/, 'no ETA while paused');
    assert.deepEqual(readNdjson(report), []);
    await setStatus(supplier, 'Ongoing');
    assert.equal(await run.done, 0, run.err());
    assertAllProcessed(report, 20);
    assert.equal(count(run.err(), /is paused; waiting/), 1, run.err());
  });

  it("answers a supplier its own status, and no other supplier's", async () => {
    const { headers } = await tokenFor(t.app, ['STATUS_MINE']);
    await tokenFor(t.app, ['STATUS_THEIRS']);
    await setStatus('STATUS_MINE', 'Paused');
    const get = (code: string, h = headers) =>
      t.app.inject({ method: 'GET', url: `/v2/data-import/suppliers/${code}/`, headers: h });
    const mine = await get('STATUS_MINE');
    assert.equal(mine.statusCode, 200);
    const { service_id, ...status } = mine.json();
    assert.deepEqual(status, { code: 'STATUS_MINE', status: 'Paused' });
    assert.match(service_id, /^[0-9a-f-]{36}$/, 'the service identifier a push binds its report to');
    const theirs = await get('STATUS_THEIRS');
    assert.equal(theirs.statusCode, 403);
    assert.equal(theirs.json().code, 'permission_denied');
    // A key for every supplier: an unknown code is 404; no token, 401.
    const { headers: all } = await tokenFor(t.app, ['*'], []);
    assert.equal((await get('STATUS_NOBODY', all)).statusCode, 404);
    assert.equal((await get('STATUS_MINE', {} as typeof headers)).statusCode, 401);
  });
});
