/**
 * `ferry push accounts --validate-only` as a whole-book preflight, against the service: every
 * account validated, the repeats within the file reported on both lines, a summary by code and
 * field on the terminal and as JSON, nothing scheduled; a re-run after fixing the book validates
 * again what the fix changed and reports the book as it now is.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BodyLines } from '../../src/http/json-body.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { push, readNdjson } from '../helpers/push-run.ts';
import { createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

const SUPPLIER = 'PREFLIGHT';

describe('ferry push accounts --validate-only', () => {
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  let dir: string;
  let validateRequests = 0;

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '100000' });
    // Accounts the service validated: one a request, or each line of a bulk validation.
    t.app.addHook('preHandler', async (request) => {
      if (request.url === '/v2/data-import/accounts/validate/') validateRequests++;
      if (request.url === '/v2/data-import/accounts/validate/bulk/' && request.body instanceof BodyLines)
        validateRequests += request.body.lines.length;
    });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    ({ apiKey } = await tokenFor(t.app, [SUPPLIER]));
    dir = mkdtempSync(join(tmpdir(), 'ferry-preflight-'));
  });
  after(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('validates every account, names both lines of each repeat in the file, and schedules nothing', async () => {
    // Line n is account n. Line 7 repeats line 2's external number; line 9 gives line 4's MPAN;
    // line 5 has a landline that is not a phone number.
    const accounts = Array.from({ length: 10 }, (_, i) => accountFor(SUPPLIER, 9_000 + i + 1));
    const mpan = 'supply_addresses.0.meter_points.0.identifier';
    accounts[6].external_account_number = accounts[1].external_account_number;
    accounts[8].supply_addresses[0].meter_points[0].identifier =
      accounts[3].supply_addresses[0].meter_points[0].identifier;
    accounts[4].customers[0].landline = 'not a phone';
    const ext = (line: number) => accounts[line - 1].external_account_number as string;
    const file = join(dir, 'book.ndjson');
    writeFileSync(file, `${accounts.map((a) => JSON.stringify(a)).join('\n')}\n`);
    const report = join(dir, 'book.validation.ndjson');
    const summaryFile = join(dir, 'summary.json');

    const run = await push([
      file,
      '--url',
      baseUrl,
      '--api-key',
      apiKey,
      '--validate-only',
      '--summary',
      summaryFile,
    ]);
    assert.equal(run.code, 1, run.err);
    assert.equal(validateRequests, 10, 'each account validated by the service');

    const lines = readNdjson(report).sort((a, b) => a.line - b.line);
    assert.deepEqual(
      lines.map((l) => [l.line, l.external_account_number, l.status]),
      accounts.map((a, i) => [
        i + 1,
        a.external_account_number,
        [2, 4, 5, 7, 9].includes(i + 1) ? 'REJECTED' : 'VALID',
      ]),
      'one report line per account, repeats included',
    );
    const errorsOf = (line: number) =>
      lines[line - 1].errors.map((e: Record<string, unknown>) => [
        e.code,
        e.attr,
        e.other_line,
        e.other_external_account_number,
      ]);
    assert.deepEqual(errorsOf(2), [
      ['external_account_number_repeated_in_file', 'external_account_number', 7, ext(2)],
    ]);
    assert.deepEqual(errorsOf(7), [
      ['external_account_number_repeated_in_file', 'external_account_number', 2, ext(2)],
    ]);
    assert.deepEqual(errorsOf(4), [['meter_point_on_another_account', mpan, 9, ext(9)]]);
    assert.deepEqual(errorsOf(9), [['meter_point_on_another_account', mpan, 4, ext(4)]]);
    assert.match(
      lines[8].errors[0].detail,
      new RegExp(`is also on line 4 of the file \\(external account number ${ext(4)}\\)`),
    );
    assert.equal(lines[4].errors[0].code, 'invalid_phone_number');

    const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
    assert.deepEqual(summary.statuses, { VALID: 5, REJECTED: 5 });
    const group = (code: string) => summary.errors.find((g: { code: string }) => g.code === code);
    // Each group carries a sample detail: its first error's.
    assert.equal(group('invalid_phone_number').detail, lines[4].errors[0].detail);
    assert.match(
      group('external_account_number_repeated_in_file').detail,
      /is also on line [27] of the file/,
    );
    assert.match(run.out, new RegExp(`e\\.g\\. ${lines[4].errors[0].detail.replace(/[.()+]/g, '\\$&')}`));
    for (const g of summary.errors) delete g.detail;
    assert.deepEqual(group('external_account_number_repeated_in_file'), {
      code: 'external_account_number_repeated_in_file',
      attr: 'external_account_number',
      count: 2,
      examples: [
        { external_account_number: ext(2), line: 2 },
        { external_account_number: ext(2), line: 7 },
      ],
    });
    assert.deepEqual(group('meter_point_on_another_account'), {
      code: 'meter_point_on_another_account',
      attr: mpan,
      count: 2,
      examples: [
        { external_account_number: ext(4), line: 4 },
        { external_account_number: ext(9), line: 9 },
      ],
    });
    assert.match(
      run.out,
      new RegExp(
        `2  meter_point_on_another_account at ${mpan.replaceAll('.', '\\.')}: ${ext(4)} \\(line 4\\), ${ext(9)} \\(line 9\\)`,
      ),
    );
    assert.match(run.out, /Summary: .*summary\.json/);

    const { rows } = await t.db.query<{ n: number }>(
      sql('', 'SELECT count(*)::int AS n FROM import_processes WHERE import_supplier = $1'),
      [SUPPLIER],
    );
    assert.equal(rows[0].n, 0, 'nothing scheduled');

    // The book fixed: line 7 gets an external number of its own, line 5 a landline. Lines 2 and 7
    // (their repeat gone), and 5 are validated again, no other; the report is the book as it is.
    validateRequests = 0;
    accounts[6].external_account_number = 'EXT-PREFLIGHT-7';
    accounts[4].customers[0].landline = '02072343456';
    writeFileSync(file, `${accounts.map((a) => JSON.stringify(a)).join('\n')}\n`);
    const again = await push([file, '--url', baseUrl, '--api-key', apiKey, '--validate-only']);
    assert.equal(again.code, 1, again.err);
    assert.equal(validateRequests, 3);
    const fixed = readNdjson(report).sort((a, b) => a.line - b.line);
    assert.deepEqual(
      fixed.map((l) => [l.line, l.external_account_number, l.status]),
      accounts.map((a, i) => [
        i + 1,
        a.external_account_number,
        [4, 9].includes(i + 1) ? 'REJECTED' : 'VALID',
      ]),
    );
  });
});
