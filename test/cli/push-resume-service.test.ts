/**
 * A re-run of `ferry push accounts` believes no report from memory (docs/decisions/0080): what the
 * report calls final is confirmed with the service in bulk before it is skipped, so a wave rolled
 * back since is sent again and ends PROCESSED; the report is bound to the service it was written
 * against, so the same report against another service (another database) is refused in one line,
 * and a report with no binding (an older ferry's) is confirmed there and sent again, never final.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startWorker } from '../../src/account-import/queue/worker.ts';
import { bindingPath } from '../../src/cli/push/push-report-binding.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { push, readNdjson } from '../helpers/push-run.ts';
import { admin, createTestApp, tokenFor } from '../helpers/test-app.ts';

const SUPPLIER = 'RESUMED';
const WAVE = 'w2';
const ACCOUNTS = 30;
const CREATE = '/v2/data-import/accounts/';
const BULK = '/v2/data-import/accounts/bulk/';
const STATUSES = '/v2/data-import/accounts/statuses/';

const processStates = sql(
  '',
  `SELECT status, count(*)::int AS n FROM import_processes WHERE import_supplier = $1 GROUP BY 1 ORDER BY 1`,
);

/** A service on a loopback port with a worker, counting the accounts scheduled and the status requests. */
async function countedService() {
  const t = await createTestApp({ RATE_LIMIT_PER_SECOND: '100000' });
  const counts = { scheduled: 0, statusRequests: 0, singleStatusRequests: 0 };
  t.app.addHook('preHandler', async (request) => {
    const path = request.url.split('?')[0];
    if (request.method === 'POST' && path === CREATE) counts.scheduled++;
    if (request.method === 'POST' && path === BULK)
      counts.scheduled += (request.body as { lines: unknown[] }).lines.length;
    if (request.method === 'POST' && path === STATUSES) counts.statusRequests++;
    if (request.method === 'GET' && path.startsWith(`${CREATE}${SUPPLIER}/`)) counts.singleStatusRequests++;
  });
  const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const worker = startWorker(t.config, {
    db: t.db,
    logger: { info() {}, warn() {}, error() {} },
    idlePollMs: 20,
  });
  const { apiKey } = await tokenFor(t.app, [SUPPLIER]);
  const states = async () =>
    Object.fromEntries(
      (await t.db.query<{ status: string; n: number }>(processStates, [SUPPLIER])).rows.map((r) => [
        r.status,
        r.n,
      ]),
    );
  return {
    t,
    baseUrl,
    apiKey,
    counts,
    states,
    async close() {
      await worker.stop();
      await t.close();
    },
  };
}

describe('ferry push accounts resumed after the service changed', () => {
  let staging: Awaited<ReturnType<typeof countedService>>;
  let production: Awaited<ReturnType<typeof countedService>>;
  let dir: string;
  let file: string;
  let report: string;

  before(async () => {
    staging = await countedService();
    production = await countedService();
    dir = mkdtempSync(join(tmpdir(), 'ferry-push-resume-'));
    file = join(dir, 'wave2.ndjson');
    report = join(dir, 'wave2.report.ndjson');
    const lines = Array.from({ length: ACCOUNTS }, (_, i) =>
      JSON.stringify(accountFor(SUPPLIER, 50_000 + i)),
    );
    writeFileSync(file, `${lines.join('\n')}\n`);
  });
  after(async () => {
    await staging?.close();
    await production?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const argsFor = (s: typeof staging) => [
    file,
    '--url',
    s.baseUrl,
    '--api-key',
    s.apiKey,
    '--report',
    report,
    '--wave',
    WAVE,
  ];
  const assertAllProcessed = () => {
    const lines = readNdjson(report);
    assert.equal(lines.length, ACCOUNTS, 'one line per account');
    for (const l of lines) assert.equal(l.status, 'PROCESSED', JSON.stringify(l));
  };

  it('sends a rolled-back wave again on a re-run of the same command, every account ending PROCESSED', async () => {
    const first = await push(argsFor(staging));
    assert.equal(first.code, 0, first.err);
    assertAllProcessed();
    assert.equal(staging.counts.scheduled, ACCOUNTS);
    assert.ok(existsSync(bindingPath(report)), 'the report is bound to the service');

    // Unchanged, the same command sends nothing: the service confirms every account, in bulk.
    staging.counts.statusRequests = 0;
    staging.counts.singleStatusRequests = 0;
    const reportBefore = readFileSync(report, 'utf8');
    const again = await push(argsFor(staging));
    assert.equal(again.code, 0, again.err);
    assert.equal(readFileSync(report, 'utf8'), reportBefore, 'every line confirmed as it was');
    assert.doesNotMatch(again.err, /the report called final/, 'nothing reported anew or sent again');
    assert.equal(staging.counts.scheduled, ACCOUNTS, 'nothing sent');
    assert.equal(staging.counts.statusRequests, 1, 'confirmed in one statuses request');
    assert.equal(staging.counts.singleStatusRequests, 0, 'not one request per account');

    await admin(staging.t.app, 'POST', `/waves/${SUPPLIER}/${WAVE}/rollback/`, {}, 200);
    assert.deepEqual(await staging.states(), { CANCELLED: ACCOUNTS });

    const resumed = await push(argsFor(staging));
    assert.equal(resumed.code, 0, resumed.err);
    assert.equal(staging.counts.scheduled, 2 * ACCOUNTS, 'every account sent again');
    assert.match(
      resumed.err,
      new RegExp(`${ACCOUNTS} accounts the report called final: rolled back; sent again`),
    );
    assert.match(resumed.out, new RegExp(`${ACCOUNTS} lines final \\(PROCESSED ${ACCOUNTS}\\)`));
    assertAllProcessed();
    assert.deepEqual(await staging.states(), { PROCESSED: ACCOUNTS });
  });

  it('refuses the same report against another service in one line, sending nothing', async () => {
    const other = await push(argsFor(production));
    assert.equal(other.code, 2, other.err);
    assert.match(other.err, /was written against another service .*use another --report/);
    assert.equal(other.err.trim().split('\n').length, 1, `one line: ${other.err}`);
    assert.doesNotMatch(other.out, /final/);
    assert.equal(production.counts.scheduled, 0);
    assert.deepEqual(await production.states(), {});
    assertAllProcessed();
  });

  it('sends again, never "final", what an unbound report holds and the other service does not', async () => {
    // A report an older ferry wrote (no binding beside it), pointed at the other service.
    rmSync(bindingPath(report));
    const unbound = await push(argsFor(production));
    assert.equal(unbound.code, 0, unbound.err);
    assert.match(
      unbound.err,
      new RegExp(`${ACCOUNTS} accounts the report called final: .*no such process; sent again`),
    );
    assert.equal(production.counts.scheduled, ACCOUNTS);
    assertAllProcessed();
    assert.deepEqual(await production.states(), { PROCESSED: ACCOUNTS });
    // Now bound to the other service: the first one's is refused.
    const back = await push(argsFor(staging));
    assert.equal(back.code, 2);
    assert.match(back.err, /was written against another service/);
  });
});
