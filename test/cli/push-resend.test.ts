/**
 * Re-running `ferry push accounts` with a corrected book and the same report, against the service
 * with a worker: exactly the lines changed since they were reported are sent again (counted by
 * the service, per account, in bulk and single requests alike), --retry-rejected sends again the
 * lines reported REJECTED, and the report keeps one line per account, the latest.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startWorker } from '../../src/account-import/queue/worker.ts';
import { lineDigest } from '../../src/cli/push/push-account-lines.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { push, readNdjson } from '../helpers/push-run.ts';
import { createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

const SUPPLIER = 'RESEND';
const CREATE = '/v2/data-import/accounts/';
const BULK = '/v2/data-import/accounts/bulk/';

/** The external account number of a create body, bare or wrapped. */
const externalOf = (body: unknown): string => {
  const b = body as { payload?: { external_account_number?: string }; external_account_number?: string };
  return String(b?.payload?.external_account_number ?? b?.external_account_number);
};

describe('ferry push accounts re-run with a corrected book', () => {
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  let dir: string;
  let worker: { stop(): Promise<void> };
  /** Scheduling requests the service received, per external account number. */
  const sent = new Map<string, number>();

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '100000' });
    t.app.addHook('preHandler', async (request) => {
      const path = request.url.split('?')[0];
      let bodies: unknown[] = [];
      if (request.method === 'POST' && path === CREATE) bodies = [request.body];
      // The bulk route's parser hands it each line read alone ({ok, value}).
      if (request.method === 'POST' && path === BULK)
        bodies = (request.body as { lines: { ok: boolean; value?: unknown }[] }).lines.map((l) => l.value);
      for (const body of bodies) sent.set(externalOf(body), (sent.get(externalOf(body)) ?? 0) + 1);
    });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    worker = startWorker(t.config, {
      db: t.db,
      logger: { info() {}, warn() {}, error() {} },
      idlePollMs: 20,
    });
    ({ apiKey } = await tokenFor(t.app, [SUPPLIER]));
    dir = mkdtempSync(join(tmpdir(), 'ferry-push-resend-'));
  });
  after(async () => {
    await worker?.stop();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const sentOnce = () => Object.fromEntries([...sent.entries()].sort());

  it('sends again exactly the lines corrected since they were reported, and those REJECTED when asked', async () => {
    const accounts = Array.from({ length: 20 }, (_, i) => accountFor(SUPPLIER, 30_000 + i));
    const wrong = [3, 9, 15, 17];
    for (const i of wrong) accounts[i].customers[0].landline = 'not a phone';
    const file = join(dir, 'book.ndjson');
    const write = () => writeFileSync(file, `${accounts.map((a) => JSON.stringify(a)).join('\n')}\n`);
    write();
    const report = join(dir, 'book.report.ndjson');
    const args = [file, '--url', baseUrl, '--api-key', apiKey, '--report', report];
    const ext = (i: number) => accounts[i].external_account_number as string;
    const statuses = () =>
      Object.fromEntries(readNdjson(report).map((l) => [l.external_account_number, l.status]));

    const first = await push(args);
    assert.equal(first.code, 1, first.err);
    assert.equal(sent.size, 20);
    const reported = readNdjson(report);
    assert.deepEqual(
      reported
        .filter((l) => l.status === 'REJECTED')
        .map((l) => l.external_account_number)
        .sort(),
      wrong.map(ext),
    );
    const lines = readFileSync(file, 'utf8').split('\n');
    for (const l of reported) assert.equal(l.digest, lineDigest(lines[l.line - 1]), 'the digest of its line');

    // The same book again: nothing is sent.
    sent.clear();
    assert.equal((await push(args)).code, 1);
    assert.deepEqual(sentOnce(), {});

    // Three of the four corrected, and an account already created changed: the three are sent
    // again, once each, and nothing else; the created one is told, not sent.
    for (const i of [3, 9, 15]) accounts[i].customers[0].landline = '02072343456';
    accounts[0].customers[0].landline = '02072340000';
    write();
    sent.clear();
    const corrected = await push(args);
    assert.equal(corrected.code, 1, corrected.err);
    assert.deepEqual(sentOnce(), { [ext(3)]: 1, [ext(9)]: 1, [ext(15)]: 1 });
    assert.match(
      corrected.err,
      new RegExp(`line 1: account ${ext(0)} was created \\(PROCESSED\\) before this line changed`),
    );
    const fixed = readNdjson(report);
    assert.equal(fixed.length, 20, 'one line per account');
    assert.deepEqual(
      statuses(),
      Object.fromEntries(accounts.map((_, i) => [ext(i), i === 17 ? 'REJECTED' : 'PROCESSED'])),
    );

    // Unchanged and REJECTED: a plain re-run leaves it, --retry-rejected sends it again, alone.
    sent.clear();
    await push(args);
    assert.deepEqual(sentOnce(), {});
    const retried = await push([...args, '--retry-rejected']);
    assert.equal(retried.code, 1);
    assert.deepEqual(sentOnce(), { [ext(17)]: 1 });
    assert.equal(readNdjson(report).length, 20);
    assert.equal(statuses()[ext(17)], 'REJECTED');
  });
});
