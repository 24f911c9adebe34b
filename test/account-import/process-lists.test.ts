/**
 * The operator's process lists (GET /admin/v1/import-processes/), their CSV and NDJSON exports,
 * bulk cancel/retry by filter and a supplier's progress per minute.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { BULK_PAGE_SIZE } from '../../src/account-import/operator/process-actions.queries.ts';
import { exportProcesses } from '../../src/account-import/operator/process-exports.ts';
import { EXPORT_PAGE_SIZE } from '../../src/account-import/operator/process-lists.queries.ts';
import { type Db, sql } from '../../src/infra/db/db.ts';
import { IMPORT_PROCESS_STATUSES } from '../../src/vocabulary/import-process-states.ts';
import { admin, adminHeaders, buildTestAppOn } from '../helpers/test-app.ts';
import { createTestDb, type TestDb } from '../helpers/test-db.ts';

const insertProcesses = sql(
  '',
  `INSERT INTO import_processes (import_supplier, external_account_number, status, payload, latest_event, latest_error)
   SELECT $1, $2 || lpad(g::text, 6, '0'), $3, '{}',
          '{"event":"EVENT_ACCOUNT_IMPORT_PROCESS_CREATED","occurred_at":"2026-01-01T00:00:00Z","data":null}',
          $4::jsonb
     FROM generate_series(1, $5) g`,
);
const meterError = {
  code: 'meter_point_on_another_account',
  detail: 'Taken, "twice", here',
  domain: 'account_import',
};
const creationError = {
  code: 'account_creation_failed',
  detail: '=HYPERLINK("x")',
  domain: 'account_import',
};

/** The seeded processes: supplier, prefix, status, latest error, how many. */
const SEED: [string, string, string, object | null, number][] = [
  ['BIG', 'err-', 'ERRORED', meterError, 2_600],
  ['BIG', 'pen-', 'PENDING', null, 1_500],
  ['BIG', 'fail-', 'ERRORED', creationError, 300],
  ['BIG', 'dry-', 'DRY_RUN_ERRORED', meterError, 200],
  ['BIG', 'done-', 'PROCESSED', null, 400],
  ['BIG', 'run-', 'IN_PROGRESS', null, 100],
  ['OTHER', 'err-', 'ERRORED', meterError, 50],
];
const count = (pred: (s: (typeof SEED)[number]) => boolean) =>
  SEED.filter(pred).reduce((n, s) => n + s[4], 0);

describe('operator process lists, exports, bulk actions and progress', () => {
  let tdb: TestDb;
  let app: FastifyInstance;

  before(async () => {
    tdb = await createTestDb();
    ({ app } = await buildTestAppOn(tdb.db));
    for (const code of ['BIG', 'OTHER', 'EMPTY']) await admin(app, 'POST', '/import-suppliers/', { code });
    for (const [supplier, prefix, status, error, n] of SEED)
      await tdb.db.query(insertProcesses, [supplier, prefix, status, error, n]);
    await tdb.db.exec('ANALYZE import_processes');
  });
  after(async () => {
    await app.close();
    await tdb.cleanup();
  });

  const get = (url: string) => app.inject({ method: 'GET', url: `/admin/v1${url}`, headers: adminHeaders });

  async function walk(query: string, limit = 1000) {
    const seen: { external_account_number: string; status: string; import_supplier: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const parts = [query, `limit=${limit}`, cursor ? `cursor=${cursor}` : ''].filter(Boolean);
      const res = await get(`/import-processes/?${parts.join('&')}`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      seen.push(...body.results);
      cursor = body.next_cursor;
      pages++;
    } while (cursor !== null);
    return { seen, pages };
  }

  it('pages through a filter by keyset, every match once and in order', async () => {
    const { seen, pages } = await walk('supplier=BIG&status=ERRORED');
    assert.equal(
      seen.length,
      count((s) => s[0] === 'BIG' && s[2] === 'ERRORED'),
    );
    assert.equal(pages, 3);
    assert.equal(new Set(seen.map((p) => p.external_account_number)).size, seen.length);
    assert.ok(seen.every((p) => p.status === 'ERRORED' && p.import_supplier === 'BIG'));
    assert.equal(seen[0].external_account_number, 'err-000001');
  });

  it('filters by error code, alone or with a supplier, and lists everything with no filter', async () => {
    const byCode = await walk('error_code=meter_point_on_another_account');
    assert.equal(
      byCode.seen.length,
      count((s) => s[3] === meterError),
    );
    const first = (
      await get('/import-processes/?supplier=BIG&error_code=account_creation_failed&limit=1')
    ).json();
    assert.deepEqual(first.results[0].latest_error, creationError);
    assert.equal(first.results[0].service_account_number, null);
    assert.match(first.results[0].created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(first.next_cursor !== null, true);
    const all = await walk('', 1000);
    assert.equal(
      all.seen.length,
      count(() => true),
    );
    const none = (await get('/import-processes/?supplier=EMPTY')).json();
    assert.deepEqual(none, { results: [], next_cursor: null });
  });

  it('refuses a wrong filter value with a 400 that lists the allowed values', async () => {
    const status = await get('/import-processes/?status=FAILED');
    assert.equal(status.statusCode, 400);
    const item = status.json().errors[0];
    assert.equal(status.json().code, 'validation_error');
    assert.equal(item.attr, 'status');
    assert.equal(item.code, 'invalid_choice');
    for (const s of IMPORT_PROCESS_STATUSES) assert.ok(item.detail.includes(s), item.detail);
    const supplier = (await get('/import-processes/?supplier=NOPE')).json();
    assert.equal(supplier.errors[0].attr, 'supplier');
    assert.match(supplier.errors[0].detail, /Allowed: BIG, EMPTY, OTHER\./);
    const format = (await get('/import-processes/export/?format=xlsx')).json();
    assert.match(format.errors[0].detail, /Allowed: csv, ndjson\./);
    assert.equal((await get('/import-processes/?limit=0')).statusCode, 400);
    assert.equal((await get('/import-processes/?limit=5000')).statusCode, 400);
    assert.equal((await get('/import-processes/?cursor=abc')).statusCode, 400);
    assert.equal((await get('/import-processes/?colour=red')).statusCode, 400);
    const unauthenticated = await app.inject({ method: 'GET', url: '/admin/v1/import-processes/' });
    assert.equal(unauthenticated.statusCode, 401);
  });

  it('exports the same list as CSV, quoted and safe to open in a spreadsheet', async () => {
    const res = await get(
      '/import-processes/export/?supplier=BIG&error_code=account_creation_failed&format=csv',
    );
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    assert.match(String(res.headers['content-disposition']), /import-processes-BIG\.csv/);
    const lines = res.body.split('\r\n');
    assert.equal(
      lines[0],
      'import_supplier,external_account_number,status,is_dry_run,attempts,error_code,error_detail,service_account_number,created_at,modified_at,mapping_profile,mapping_profile_version',
    );
    assert.equal(lines.length, 300 + 2); // header, rows, the empty string after the last CRLF
    assert.match(
      lines[1],
      /^BIG,fail-000001,ERRORED,false,0,account_creation_failed,"'=HYPERLINK\(""x""\)",,/,
    );
    const quoted = (await get('/import-processes/export/?supplier=OTHER&format=csv')).body.split('\r\n')[1];
    assert.match(quoted, /,meter_point_on_another_account,"Taken, ""twice"", here",/);
  });

  it('exports NDJSON: one list item a line, the same items as the pages', async () => {
    const res = await get('/import-processes/export/?supplier=BIG&status=ERRORED');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/x-ndjson/);
    const items = res.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    const { seen } = await walk('supplier=BIG&status=ERRORED');
    assert.deepEqual(items, seen);
  });

  it('streams an export: pages are read as the reader takes them, never all at once', async () => {
    const total = count((s) => s[0] === 'BIG');
    assert.ok(total > 2 * EXPORT_PAGE_SIZE);
    const listQueries: string[] = [];
    const db: Db = {
      ...tdb.db,
      query: (s, p) => {
        if (s.name.startsWith('listImportProcessesByFilter')) listQueries.push(s.name);
        return tdb.db.query(s, p);
      },
    };
    const stream = exportProcesses(db, { supplier: 'BIG' }, 'csv');
    const first = await new Promise<Buffer>((resolve) => stream.once('data', resolve));
    stream.pause();
    await new Promise((r) => setTimeout(r, 100));
    assert.ok(first.length > 0);
    assert.equal(listQueries.length, 1, 'one page read before the reader asked for more');
    let text = first.toString();
    for await (const chunk of stream) text += chunk;
    assert.equal(text.split('\r\n').length - 2, total);
    assert.equal(listQueries.length, Math.ceil(total / EXPORT_PAGE_SIZE));
    // Over HTTP the export is sent as it is made: chunked, with no length known in advance.
    const res = await get('/import-processes/export/?supplier=BIG&format=csv');
    assert.equal(res.headers['transfer-encoding'], 'chunked');
    assert.equal(res.headers['content-length'], undefined);
  });

  it('retries by filter, one transaction a page, skipping states the state table refuses', async () => {
    const out = await admin(app, 'POST', '/import-processes/retry/', {
      supplier: 'BIG',
      error_code: 'meter_point_on_another_account',
    });
    const matched = 2_600 + 200;
    assert.deepEqual(out, {
      action: 'retry',
      matched,
      changed: 2_600,
      skipped: 200,
      skipped_by_status: { DRY_RUN_ERRORED: 200 },
      pages: Math.ceil(matched / BULK_PAGE_SIZE),
    });
    const { rows } = await tdb.db.query<{ n: number }>(
      sql(
        '',
        `SELECT count(*)::int AS n FROM import_process_events e JOIN import_processes p ON p.id = e.import_process_id
          WHERE p.import_supplier = 'BIG' AND e.event = 'EVENT_ACCOUNT_IMPORT_PROCESS_RETRIED'
            AND e.data->>'by' = 'operator' AND e.data->>'bulk' = 'true'`,
      ),
    );
    assert.equal(rows[0].n, 2_600);
    assert.equal((await walk('supplier=BIG&status=ERRORED')).seen.length, 300);
    assert.equal((await walk('supplier=OTHER&status=ERRORED')).seen.length, 50, 'other suppliers untouched');
  });

  it('cancels by filter, counting the processes it may not cancel as skipped', async () => {
    const out = await admin(app, 'POST', '/import-processes/cancel/', { supplier: 'BIG' });
    const total = count((s) => s[0] === 'BIG');
    assert.equal(out.matched, total);
    assert.deepEqual(out.skipped_by_status, { PROCESSED: 400, IN_PROGRESS: 100 });
    assert.equal(out.skipped, 500);
    assert.equal(out.changed, total - 500);
    const again = await admin(app, 'POST', '/import-processes/cancel/', {
      supplier: 'BIG',
      status: 'CANCELLED',
    });
    assert.deepEqual(
      { changed: again.changed, skipped: again.skipped },
      { changed: 0, skipped: total - 500 },
    );
  });

  it('refuses a bulk action without a filter, or with a wrong one', async () => {
    const empty = await admin(app, 'POST', '/import-processes/retry/', {}, 400);
    assert.match(String((empty as { errors: { detail: string }[] }).errors[0].detail), /at least one/);
    await admin(app, 'POST', '/import-processes/cancel/', { status: 'DONE' }, 400);
    await admin(app, 'POST', '/import-processes/cancel/', { supplier: 'NOPE' }, 400);
  });

  it("charts a supplier's accounts created per minute, zeros included", async () => {
    const now = Date.now();
    const minute = (ago: number) => new Date(Math.floor(now / 60_000) * 60_000 - ago * 60_000 + 5_000);
    const insertAccount = sql(
      '',
      `INSERT INTO accounts (number, import_supplier, external_account_number, created_at)
       VALUES ('A-' || $1, 'OTHER', $1, $2)`,
    );
    for (const [i, ago] of [0, 0, 0, 2, 9].entries())
      await tdb.db.query(insertAccount, [`p${i}`, minute(ago)]);
    const p = (await get('/import-suppliers/OTHER/progress/?minutes=5')).json();
    assert.equal(p.import_supplier, 'OTHER');
    assert.deepEqual(
      p.per_minute.map((m: { created: number }) => m.created),
      [0, 0, 1, 0, 3],
    );
    assert.equal(p.created, 4);
    assert.equal(p.per_minute[4].minute, new Date(Math.floor(now / 60_000) * 60_000).toISOString());
    assert.equal((await get('/import-suppliers/OTHER/progress/')).json().per_minute.length, 60);
    assert.equal((await get('/import-suppliers/NOPE/progress/')).statusCode, 404);
    assert.equal((await get('/import-suppliers/OTHER/progress/?minutes=0')).statusCode, 400);
  });
});
