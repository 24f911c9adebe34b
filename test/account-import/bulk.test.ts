import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Db, Queryable } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { admin, buildTestAppOn, tokenFor } from '../helpers/test-app.ts';
import { createTestDb } from '../helpers/test-db.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

const SUPPLIER = 'BULK_ENERGY';
const BULK = '/v2/data-import/accounts/bulk/';
const SINGLE = '/v2/data-import/accounts/';

/**
 * Statements the service sends now and then whatever a request does: the rate limit's token claims
 * (on a server the limiter leases a key's tokens from PostgreSQL, decision 0074), and the filter of
 * reserved identifiers loading or catching up (at most every 250 ms, decision 0067), and the
 * coalesced notices that events were written and accounts scheduled (at most one each per 50 ms,
 * outside any transaction; decisions 0073 and 0100).
 */
const BACKGROUND = new Set([
  'notify_ferry_events',
  'notify_ferry_imports_due',
  'rateLimitClaim',
  'selectReservationHorizon',
  'selectReservationPage',
  'selectReservationsSince',
]);

/** A Db that counts the statements sent through it (transactions included), but BACKGROUND's. */
function countingDb(db: Db) {
  const counter = { statements: 0 };
  const counted = (q: Queryable): Queryable =>
    Object.assign(Object.create(q) as Queryable, {
      query: (s: Parameters<Queryable['query']>[0], p?: unknown[]) => {
        if (typeof s !== 'object' || !BACKGROUND.has(s.name)) counter.statements++;
        return q.query(s, p);
      },
    });
  const wrapped: Db = Object.assign(Object.create(db) as Db, {
    query: counted(db).query,
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) => db.transaction((tx) => fn(counted(tx))),
  });
  return { db: wrapped, counter };
}

type Result = { external_account_number: string | null; status: number; body: unknown };

describe('bulk scheduling (POST /v2/data-import/accounts/bulk/)', () => {
  let app: Awaited<ReturnType<typeof buildTestAppOn>>['app'];
  let config: Awaited<ReturnType<typeof buildTestAppOn>>['config'];
  let raw: Db;
  let counter: { statements: number };
  let cleanup: () => Promise<void>;
  let headers: Record<string, string>;
  let n = 10;
  const next = () => accountFor(SUPPLIER, n++);

  before(async () => {
    const test = await createTestDb();
    raw = test.db;
    cleanup = test.cleanup;
    const counting = countingDb(test.db);
    counter = counting.counter;
    ({ app, config } = await buildTestAppOn(counting.db, { RATE_LIMIT_PER_SECOND: '3' }));
    ({ headers } = await tokenFor(app, [SUPPLIER, 'PAUSED_BULK'], [SUPPLIER, 'PAUSED_BULK', 'THEIRS']));
    await admin(app, 'PATCH', '/import-suppliers/PAUSED_BULK/', { status: 'Paused' });
  });
  after(async () => {
    await app.close();
    await cleanup();
  });

  // Spaced requests: the key allows 3 a second, so each test stays within it.
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const send = async (payload: string, contentType: string, url = BULK) => {
    await sleep(400);
    return app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': contentType },
      payload,
    });
  };
  const ndjson = (lines: string[]) => send(lines.join('\n'), 'application/x-ndjson');
  const array = (items: unknown[]) => send(JSON.stringify(items), 'application/json');
  const results = (res: { statusCode: number; body: string; json(): { results: Result[] } }) => {
    assert.equal(res.statusCode, 200, res.body);
    return res.json().results;
  };
  /** What the create endpoint answers for the same body text. */
  const single = async (text: string) => {
    const res = await send(text, 'application/json', SINGLE);
    return { status: res.statusCode, body: res.json() };
  };

  it('answers each line as the create endpoint answers the same body, NDJSON and array alike', async () => {
    const valid = next();
    const wrapped = { payload: next(), task_params: { is_dry_run: false } };
    const invalid: Record<string, unknown> = { ...next(), billing_postcode: 'NOPE' };
    const unknownSupplier: Record<string, unknown> = { ...next(), import_supplier: 'NOBODY' };
    const bodies = [valid, wrapped, invalid, unknownSupplier, 42, []];
    const texts = bodies.map((b) => JSON.stringify(b));
    const fromNdjson = results(await ndjson(texts));
    assert.deepEqual(
      fromNdjson.map((r) => r.status),
      [201, 201, 400, 403, 400, 400],
    );
    assert.deepEqual(
      fromNdjson.map((r) => r.external_account_number),
      [
        valid.external_account_number,
        wrapped.payload.external_account_number,
        invalid.external_account_number,
        unknownSupplier.external_account_number,
        null,
        null,
      ],
    );
    for (const [i, text] of texts.entries()) {
      assert.deepEqual({ status: fromNdjson[i].status, body: fromNdjson[i].body }, await single(text), text);
    }
    // Sent again as an array: the same answers (scheduled ones stay scheduled: 201 again).
    const fromArray = results(await array(bodies));
    assert.deepEqual(fromArray, fromNdjson);
  });

  it('refuses only the line holding a NUL, broken JSON or an imprecise number', async () => {
    const good = next();
    const nul: Record<string, unknown> = { ...next(), billing_address_line_1: 'a\u0000b' };
    const wrappedNul = { payload: { ...next(), billing_address_line_1: 'a\u0000b' } };
    const lines = [
      JSON.stringify(good),
      JSON.stringify(nul),
      JSON.stringify(wrappedNul),
      '{"import_supplier": ',
      '1e400',
      '',
      JSON.stringify(next()),
    ];
    const got = results(await ndjson(lines));
    assert.equal(got.length, 6, 'blank lines are skipped');
    assert.deepEqual(
      got.map((r) => r.status),
      [201, 400, 400, 400, 400, 201],
    );
    const sent = lines.filter((l) => l !== '');
    for (const [i, text] of sent.entries()) {
      assert.deepEqual({ status: got[i].status, body: got[i].body }, await single(text), text);
    }
    assert.equal((got[1].body as { code: string }).code, 'validation_error');
    assert.equal(got[1].external_account_number, nul.external_account_number);
    assert.equal(got[3].external_account_number, null);
    assert.equal((got[3].body as { code: string }).code, 'parse_error');
    // In an array, a NUL is its element's refusal too, with attrs relative to the element.
    const inArray = results(await array([nul, good, wrappedNul]));
    assert.deepEqual(
      inArray.map((r) => [r.status, (r.body as { errors?: { attr: string }[] }).errors?.[0]?.attr]),
      [
        [400, 'billing_address_line_1'],
        [201, undefined],
        [400, 'billing_address_line_1'],
      ],
    );
  });

  it('refuses more than 1,000 accounts whole, and takes 1,000 in a few statements', async () => {
    const many = Array.from({ length: 1_001 }, () => JSON.stringify(next()));
    const tooMany = await ndjson(many);
    assert.equal(tooMany.statusCode, 400);
    assert.deepEqual(tooMany.json().errors, [
      { attr: '', code: 'too_many_items', detail: 'Ensure this list has no more than 1000 items.' },
    ]);
    const tooManyArray = await send(`[${many.join(',')}]`, 'application/json');
    assert.equal(tooManyArray.json().errors[0].code, 'too_many_items');
    const before = counter.statements;
    const fine = results(await ndjson(many.slice(0, 1_000)));
    assert.equal(fine.length, 1_000);
    assert.ok(
      fine.every((r) => r.status === 201),
      JSON.stringify(fine.find((r) => r.status !== 201)),
    );
    const statements = counter.statements - before;
    assert.ok(statements <= 3, `1,000 new accounts took ${statements} statements`);
    // Sending them all again with new data re-schedules them in one transaction.
    const again = many
      .slice(0, 1_000)
      .map((t) => JSON.stringify({ ...JSON.parse(t), billing_name: 'Renamed' }));
    const beforeAgain = counter.statements;
    const rescheduled = results(await ndjson(again));
    assert.ok(rescheduled.every((r) => r.status === 201));
    const statementsAgain = counter.statements - beforeAgain;
    assert.ok(statementsAgain <= 8, `1,000 re-scheduled accounts took ${statementsAgain} statements`);
    const { rows } = await raw.query<{ n: number }>({
      name: 'countRenamed',
      text: `SELECT count(*)::int AS n FROM import_processes WHERE payload->>'billing_name' = 'Renamed'`,
    });
    assert.equal(rows[0].n, 1_000);
  });

  it('answers the already-imported body for a PROCESSED account, and re-schedules others', async () => {
    const done = next();
    const pending = next();
    results(await array([done]));
    await runWorkerUntilIdle(config, raw);
    const got = results(await array([done, { ...pending, billing_name: 'First' }, pending, done]));
    assert.deepEqual(
      got.map((r) => r.status),
      [400, 201, 201, 400],
    );
    assert.deepEqual(got[0], {
      external_account_number: done.external_account_number,
      ...(await single(JSON.stringify(done))),
    });
    assert.equal(
      (got[0].body as { non_field_errors: { code: string } }).non_field_errors.code,
      'account_import_process_already_imported',
    );
    // Two lines for one account: the last one's data is what is scheduled.
    const { rows } = await raw.query<{ billing_name: string }>(
      {
        name: 'pendingPayload',
        text: `SELECT payload->>'billing_name' AS billing_name FROM import_processes WHERE external_account_number = $1`,
      },
      [pending.external_account_number],
    );
    assert.equal(rows[0].billing_name, pending.billing_name);
  });

  it("refuses a paused supplier's and another tenant's lines alone, as the create endpoint does", async () => {
    const paused = { ...next(), import_supplier: 'PAUSED_BULK' };
    const theirs = { payload: { ...next(), import_supplier: 'THEIRS' } };
    const ours = next();
    const got = results(await array([paused, theirs, ours]));
    assert.deepEqual(
      got.map((r) => r.status),
      [400, 403, 201],
    );
    assert.equal((got[0].body as { code: string }).code, 'import_supplier_paused');
    assert.deepEqual(got[1].body, (await single(JSON.stringify(theirs))).body);
    assert.deepEqual(got[0].body, (await single(JSON.stringify(paused))).body);
    const { rows } = await raw.query<{ n: number }>({
      name: 'countTheirs',
      text: `SELECT count(*)::int AS n FROM import_processes WHERE import_supplier IN ('THEIRS', 'PAUSED_BULK')`,
    });
    assert.equal(rows[0].n, 0);
  });

  it('refuses a body that is not a list, and NDJSON on the other endpoints', async () => {
    const object = await send(JSON.stringify(next()), 'application/json');
    assert.equal(object.statusCode, 400);
    assert.equal(object.json().errors[0].code, 'invalid');
    const elsewhere = await send(JSON.stringify(next()), 'application/x-ndjson', SINGLE);
    assert.equal(elsewhere.statusCode, 415);
    assert.deepEqual(results(await ndjson([])), []);
  });

  it('counts a bulk request as one request against the rate limit', async () => {
    await sleep(1_100);
    const burst = [];
    for (let i = 0; i < 3; i++) {
      burst.push(
        app.inject({
          method: 'POST',
          url: BULK,
          headers: { ...headers, 'content-type': 'application/x-ndjson' },
          payload: [next(), next(), next()].map((a) => JSON.stringify(a)).join('\n'),
        }),
      );
    }
    const answers = await Promise.all(burst);
    assert.deepEqual(
      answers.map((a) => a.statusCode),
      [200, 200, 200],
      'three requests of three accounts each fit a limit of three requests',
    );
    const fourth = await app.inject({ method: 'POST', url: BULK, headers, payload: [] as never });
    assert.equal(fourth.statusCode, 429);
  });
});
