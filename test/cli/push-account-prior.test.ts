/**
 * What a re-run of `ferry push accounts` does with each line, from the report and journal an
 * earlier run left: final, polled, or sent again (a changed line, --retry-rejected, a journal entry
 * written after the report line), and the report compacted to one line per account.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { lineDigest } from '../../src/cli/push/push-account-lines.ts';
import { PriorReport } from '../../src/cli/push/push-account-prior.ts';

const dir = mkdtempSync(join(tmpdir(), 'ferry-prior-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const A = lineDigest('{"a":1}');
const B = lineDigest('{"a":2}');
let n = 0;

function files(report: object[], journal: object[] = []) {
  const path = join(dir, `report-${n++}.ndjson`);
  writeFileSync(path, report.map((l) => `${JSON.stringify(l)}\n`).join(''));
  if (journal.length > 0)
    writeFileSync(`${path}.journal`, journal.map((l) => `${JSON.stringify(l)}\n`).join(''));
  return path;
}

/** A decision without the report line's index. */
const decided = (d: ReturnType<PriorReport['decide']>) => {
  if (d.kind !== 'final') return d;
  const { index: _index, ...rest } = d;
  return rest;
};

const line = (ext: string, status: string, digest?: string) => ({
  external_account_number: ext,
  status,
  service_account_number: null,
  errors: [],
  ...(digest ? { digest } : {}),
});

describe('a re-run of ferry push accounts', () => {
  it('tells whether the service account number is the one a line reported', async () => {
    const path = files([
      { ...line('E1', 'PROCESSED', A), service_account_number: 'A-B6E3576B' },
      { ...line('E2', 'PROCESSED', A), service_account_number: 'A-00000001' },
      line('E3', 'REJECTED', A),
    ]);
    const prior = await PriorReport.read(path, { retryRejected: false, validate: false });
    const indexOf = (ext: string) => {
      const d = prior.decide(ext, A);
      assert.equal(d.kind, 'final');
      return d.kind === 'final' ? d.index : -1;
    };
    assert.ok(prior.sameAccount(indexOf('E1'), 'A-B6E3576B'));
    assert.ok(!prior.sameAccount(indexOf('E1'), 'A-B6E3576C'));
    assert.ok(prior.sameAccount(indexOf('E2'), 'A-00000001'));
    assert.ok(!prior.sameAccount(indexOf('E2'), null));
    assert.ok(prior.sameAccount(indexOf('E3'), null));
  });

  it('keeps a line final while its text is the one reported, and sends it again once changed', async () => {
    const path = files([line('E1', 'PROCESSED', A), line('E2', 'REJECTED', A), line('E3', 'PROCESSED')]);
    const prior = await PriorReport.read(path, { retryRejected: false, validate: false });
    assert.deepEqual(decided(prior.decide('E1', A)), { kind: 'final', status: 'PROCESSED' });
    assert.deepEqual(prior.decide('E2', B), { kind: 'send' });
    // Its account created, a changed line is not sent again: the service creates an account once.
    assert.deepEqual(decided(prior.decide('E1', B)), { kind: 'final', status: 'PROCESSED', changed: true });
    // A line reported by an older ferry has no digest: kept as it is.
    assert.deepEqual(decided(prior.decide('E3', B)), { kind: 'final', status: 'PROCESSED' });
    assert.deepEqual(prior.decide('E4', A), { kind: 'send' });
    await prior.compact();
    assert.deepEqual(
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).external_account_number),
      ['E1', 'E3'],
      'the line sent again is no longer in the report',
    );
  });

  it('sends REJECTED and ERRORED lines again with --retry-rejected, and only those', async () => {
    const path = files([line('E1', 'PROCESSED', A), line('E2', 'REJECTED', A), line('E3', 'ERRORED', A)]);
    const prior = await PriorReport.read(path, { retryRejected: true, validate: false });
    assert.deepEqual(decided(prior.decide('E1', A)), { kind: 'final', status: 'PROCESSED' });
    assert.deepEqual(prior.decide('E2', A), { kind: 'send' });
    assert.deepEqual(prior.decide('E3', A), { kind: 'send' });
  });

  it('polls a line its journal says was sent after it was reported, and trusts a later report line', async () => {
    const path = files(
      [line('E1', 'REJECTED', A), line('E2', 'PROCESSED', A), line('E3', 'PROCESSED', A)],
      [
        // Sent again after the report's first line (a --retry-rejected run killed before it ended).
        { key: 'E1', status: 'SCHEDULED', digest: A, after: 1 },
        // Scheduled before E2 was reported.
        { key: 'E2', status: 'SCHEDULED', digest: A, after: 1 },
        // An older ferry's entry: no digest, no position; the report's line is later.
        { key: 'E3', status: 'SCHEDULED' },
        { key: 'E4', status: 'SCHEDULED', digest: A, after: 3 },
      ],
    );
    const prior = await PriorReport.read(path, { retryRejected: false, validate: false });
    assert.deepEqual(prior.decide('E1', A), { kind: 'poll' });
    assert.deepEqual(decided(prior.decide('E2', A)), { kind: 'final', status: 'PROCESSED' });
    assert.deepEqual(decided(prior.decide('E3', A)), { kind: 'final', status: 'PROCESSED' });
    assert.deepEqual(prior.decide('E4', A), { kind: 'poll' });
    // Changed since it was scheduled: sent with its new text.
    const again = await PriorReport.read(path, { retryRejected: false, validate: false });
    assert.deepEqual(again.decide('E4', B), { kind: 'send' });
  });

  it('takes the last of two report lines of an account (a killed run) and keeps only it', async () => {
    const path = files([line('E1', 'REJECTED', A), line('E2', 'PROCESSED', A), line('E1', 'PROCESSED', B)]);
    const prior = await PriorReport.read(path, { retryRejected: true, validate: false });
    assert.deepEqual(decided(prior.decide('E1', B)), { kind: 'final', status: 'PROCESSED' });
    await prior.compact();
    assert.deepEqual(
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).status),
      ['PROCESSED', 'PROCESSED'],
    );
  });
});
