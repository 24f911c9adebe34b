/**
 * A book with conflicts, as a supplier meets it (decisions 0064, 0066): five pairs of accounts
 * that share an identifier within the file, three identifiers already on imported accounts, and
 * three held by another supplier's pending processes. The preflight names all eleven conflicts
 * (both lines of each pair) and schedules nothing; the real push is refused at scheduling on
 * each conflicting line, with its code and attr, says which line won, and no process ends ERRORED.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { push, readNdjson } from '../helpers/push-run.ts';
import { createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

const OURS = 'BOOK';
const THEIRS = 'BOOK_OTHER';
const MPAN = 'supply_addresses.0.meter_points.0.identifier';
const MPRN = 'supply_addresses.0.meter_points.1.identifier';

// biome-ignore lint/suspicious/noExplicitAny: accounts and report lines as JSON
type Obj = Record<string, any>;

const readReport = (path: string): Obj[] => readNdjson(path).sort((a, b) => a.line - b.line);

describe('a book with conflicts, pushed', () => {
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  let dir: string;
  const book: Obj[] = [];
  /** Line numbers (1-based) of each conflict, with the attr it is at. */
  const pairs: [number, number][] = [];
  const onImported: number[] = [];
  const onTheirs: number[] = [];

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '100000', WORKER_CONCURRENCY: '20' });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    ({ apiKey } = await tokenFor(t.app, [OURS]));
    const { headers: theirs } = await tokenFor(t.app, [THEIRS]);
    const { headers: ours } = await tokenFor(t.app, [OURS]);
    dir = mkdtempSync(join(tmpdir(), 'ferry-book-'));

    // Three of our accounts imported already, and three pending processes of another supplier
    // (due tomorrow, so they stay pending).
    const imported = [1, 2, 3].map((k) => accountFor(OURS, 100 + k));
    for (const a of imported) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/data-import/accounts/',
        headers: ours,
        payload: a,
      });
      assert.equal(res.statusCode, 201, res.body);
    }
    await runWorkerUntilIdle(t.config, t.db);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const pending = [1, 2, 3].map((k) => accountFor(THEIRS, 200 + k));
    for (const a of pending) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/data-import/accounts/',
        headers: theirs,
        payload: { payload: a, task_params: { schedule_window_start: tomorrow } },
      });
      assert.equal(res.statusCode, 201, res.body);
    }

    // The book: 30 accounts. Lines 2k+1 and 2k+2 (k < 5) share an MPRN; lines 11–13 bring the
    // imported accounts' MPANs; lines 14–16 the other supplier's MPRNs; 17–30 are clean.
    for (let i = 0; i < 30; i++) book.push(accountFor(OURS, 1_000 + i));
    for (let k = 0; k < 5; k++) {
      book[2 * k + 1].supply_addresses[0].meter_points[1].identifier =
        book[2 * k].supply_addresses[0].meter_points[1].identifier;
      pairs.push([2 * k + 1, 2 * k + 2]);
    }
    for (let k = 0; k < 3; k++) {
      book[10 + k].supply_addresses[0].meter_points[0].identifier =
        imported[k].supply_addresses[0].meter_points[0].identifier;
      onImported.push(11 + k);
      book[13 + k].supply_addresses[0].meter_points[1].identifier =
        pending[k].supply_addresses[0].meter_points[1].identifier;
      onTheirs.push(14 + k);
    }
    writeFileSync(join(dir, 'book.ndjson'), `${book.map((a) => JSON.stringify(a)).join('\n')}\n`);
  });
  after(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const processCount = async (status?: string) =>
    (
      await t.db.query<{ n: number }>(
        sql(
          '',
          'SELECT count(*)::int AS n FROM import_processes WHERE import_supplier = $1 AND ($2::text IS NULL OR status = $2)',
        ),
        [OURS, status ?? null],
      )
    ).rows[0].n;
  const ext = (line: number) => book[line - 1].external_account_number as string;
  const codesOf = (line: Obj) => (line.errors ?? []).map((e: Obj) => `${e.code} ${e.attr}`);

  it('preflight: names all eleven conflicts, both lines of each pair, and schedules nothing', async () => {
    const report = join(dir, 'book.validation.ndjson');
    const run = await push([
      join(dir, 'book.ndjson'),
      '--url',
      baseUrl,
      '--api-key',
      apiKey,
      '--validate-only',
      '--report',
      report,
    ]);
    assert.equal(run.code, 1, run.err);
    const lines = readReport(report);
    assert.equal(lines.length, 30);
    for (const [first, second] of pairs) {
      assert.deepEqual(
        codesOf(lines[first - 1]),
        [`meter_point_on_another_account ${MPRN}`],
        `line ${first}`,
      );
      assert.deepEqual(
        codesOf(lines[second - 1]),
        [`meter_point_on_another_account ${MPRN}`],
        `line ${second}`,
      );
      assert.equal(lines[first - 1].errors[0].other_external_account_number, ext(second));
      assert.equal(lines[second - 1].errors[0].other_external_account_number, ext(first));
    }
    for (const line of onImported) {
      assert.deepEqual(codesOf(lines[line - 1]), [`meter_point_on_another_account ${MPAN}`], `line ${line}`);
      assert.match(lines[line - 1].errors[0].detail, /already on account A-[0-9A-F]{8}/);
    }
    for (const line of onTheirs) {
      assert.deepEqual(codesOf(lines[line - 1]), [`meter_point_on_another_account ${MPRN}`], `line ${line}`);
      assert.match(lines[line - 1].errors[0].detail, /another supplier's account/);
    }
    const rejected = lines.filter((l) => l.status === 'REJECTED').map((l) => l.line);
    assert.deepEqual(rejected, [...pairs.flat(), ...onImported, ...onTheirs]);
    assert.equal(await processCount(), 3, 'only the three imported before: nothing scheduled');
  });

  it('push: refused at scheduling on each conflicting line, the report naming the winner; nothing ERRORED', async () => {
    const report = join(dir, 'book.report.ndjson');
    const pushed = push([
      join(dir, 'book.ndjson'),
      '--url',
      baseUrl,
      '--api-key',
      apiKey,
      '--report',
      report,
    ]);
    // The worker creates what was scheduled while the push polls.
    const worker = (async () => {
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setTimeout(r, 500));
        await runWorkerUntilIdle(t.config, t.db);
      }
    })();
    const [run] = await Promise.all([pushed, worker]);
    assert.equal(run.code, 1, run.err);
    const lines = readReport(report);
    for (const [first, second] of pairs) {
      const statuses = [lines[first - 1].status, lines[second - 1].status].sort();
      assert.deepEqual(statuses, ['PROCESSED', 'REJECTED'], `lines ${first} and ${second}`);
      const [loser, winner] = lines[first - 1].status === 'REJECTED' ? [first, second] : [second, first];
      assert.deepEqual(codesOf(lines[loser - 1]), [`meter_point_on_another_account ${MPRN}`]);
      assert.match(
        lines[loser - 1].errors[0].detail,
        new RegExp(ext(winner)),
        'the report names the line that won',
      );
    }
    for (const line of [...onImported, ...onTheirs]) {
      assert.equal(lines[line - 1].status, 'REJECTED', `line ${line}`);
      assert.equal(lines[line - 1].errors[0].code, 'meter_point_on_another_account');
    }
    const clean = lines.filter((l) => l.line > 16);
    assert.ok(
      clean.every((l) => l.status === 'PROCESSED'),
      JSON.stringify(clean.filter((l) => l.status !== 'PROCESSED')),
    );
    assert.equal(await processCount('ERRORED'), 0, 'no process that answered 201 ended ERRORED');
    assert.equal(await processCount('PROCESSED'), 3 + 5 + 14);
  });
});
