import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { findImportedAccount } from '../../src/accounts/imported-account.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { importAccounts, stageAccount } from '../helpers/imported-accounts.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

const SUPPLIER = 'TENTACLE_ENERGY';
const ROOT = 'tentacle/statements';
const URL_ = '/v1/data-import/historical-statements/create/';
// The reference's historical-statements example (test/fixtures/reference-examples/), untouched.
// Its 2022 period lies in the example account's open statement period (from 2019-08-01):
// statements are history, so that does not matter.
const example = (): Obj =>
  JSON.parse(
    readFileSync(
      new URL('../fixtures/reference-examples/historical-statements.json', import.meta.url),
      'utf8',
    ),
  );

const statement = (id: string, extra: Obj = {}): Obj => ({
  bill_period_from_date: '2019-06-01',
  bill_period_to_date: '2019-06-30',
  statement_id: id,
  ...extra,
});

describe('POST /v1/data-import/historical-statements/create/', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let n = 0;
  const accounts: string[] = [];
  let staged: string;

  const post = (payload: unknown) =>
    t.app.inject({ method: 'POST', url: URL_, headers, payload: payload as never });
  const account = () => accounts[n++];
  const body = (ext: string, statements: unknown[]) => ({
    import_supplier: SUPPLIER,
    external_account_number: ext,
    statements,
  });
  /** Statements the account import itself stored (the example account carries some). */
  const baseline = new Map<string, Set<string>>();
  const allRows = async (ext: string) => {
    const a = await findImportedAccount(t.db, SUPPLIER, ext);
    return (
      await t.db.query<Obj>(
        sql(
          '',
          `SELECT statement_id, bill_period_from_date::text AS from_date, bill_period_to_date::text AS to_date,
                  issued_date::text AS issued_date, statement_path, data
             FROM statements WHERE account_id = $1 ORDER BY statement_id`,
        ),
        [a.id],
      )
    ).rows;
  };
  /** The statements added since the account was imported. */
  const rowsOf = async (ext: string) =>
    (await allRows(ext)).filter((r) => !baseline.get(ext)?.has(r.statement_id));
  const codes = (res: { json(): Obj }) =>
    res.json().errors.map((e: Obj) => `${e.attr}:${e.code}`) as string[];

  before(async () => {
    t = await createTestApp();
    ({ headers } = await tokenFor(t.app, [SUPPLIER, 'STAGED'], [SUPPLIER, 'STAGED']));
    await admin(t.app, 'PATCH', `/import-suppliers/${SUPPLIER}/`, { document_root: ROOT }, 200);
    staged = await stageAccount(t, headers, accountFor('STAGED', 998));
    await admin(t.app, 'PATCH', '/import-suppliers/STAGED/', { status: 'Paused' }, 200);
    accounts.push(
      ...(await importAccounts(
        t,
        headers,
        Array.from({ length: 14 }, (_, i) => accountFor(SUPPLIER, 701 + i)),
      )),
    );
    for (const ext of accounts) baseline.set(ext, new Set((await allRows(ext)).map((r) => r.statement_id)));
    await t.objectStore.put(`${ROOT}/path/to/statement-1.pdf`, Buffer.from('%PDF-1.7\n...'));
    await t.objectStore.put(`${ROOT}/not-a-pdf.pdf`, Buffer.from('<html>nope</html>'));
    await t.objectStore.put(`${ROOT}/tiny.pdf`, Buffer.from('%PD'));
  });
  after(() => t.close());

  it('the account under test has its open statement period from 2019-08-01', async () => {
    const a = await findImportedAccount(t.db, SUPPLIER, accounts[0]);
    assert.equal(a.open_statement_start, '2019-08-01');
  });

  it('creates the reference example as is, though its period lies in the open statement period: statements are history', async () => {
    const ext = account();
    const payload = { ...example(), external_account_number: ext };
    const res = await post(payload);
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json(), payload);
    assert.deepEqual(
      (await rowsOf(ext)).map((r) => [r.statement_id, r.from_date, r.to_date]),
      [['1', '2022-01-01', '2022-01-31']],
    );
  });

  it('accepts null issued_date and gross_amount (nullable in the reference)', async () => {
    const ext = account();
    const res = await post(body(ext, [statement('N1', { issued_date: null, gross_amount: null })]));
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json().statements, [statement('N1', { issued_date: null, gross_amount: null })]);
    const [row] = await rowsOf(ext);
    assert.equal(row.issued_date, null);
    assert.deepEqual(row.data, {});
  });

  it('creates the reference example with its dates moved before the open period (201, the validated data)', async () => {
    const ext = account();
    const payload: Obj = { ...example(), external_account_number: ext };
    Object.assign(payload.statements[0], {
      bill_period_from_date: '2019-06-01',
      bill_period_to_date: '2019-06-30',
      issued_date: '2019-07-02',
    });
    const res = await post(payload);
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json(), payload);
    assert.deepEqual(await rowsOf(ext), [
      {
        statement_id: '1',
        from_date: '2019-06-01',
        to_date: '2019-06-30',
        issued_date: '2019-07-02',
        statement_path: 'path/to/statement-1.pdf',
        data: { number: '1', gross_amount: 100 },
      },
    ]);
  });

  it('accepts a statement ending the day before the open period, and a one-day period', async () => {
    const res = await post(
      body(account(), [
        statement('a', { bill_period_from_date: '2019-07-01', bill_period_to_date: '2019-07-31' }),
        statement('b', { bill_period_from_date: '2019-05-05', bill_period_to_date: '2019-05-05' }),
      ]),
    );
    assert.equal(res.statusCode, 201, res.body);
  });

  it('is idempotent on statement_id: a repeat is not duplicated and succeeds again', async () => {
    const ext = account();
    const first = await post(body(ext, [statement('S1', { gross_amount: 5 })]));
    assert.equal(first.statusCode, 201, first.body);
    const again = await post(
      body(ext, [statement('S1', { gross_amount: 5 }), statement('S2'), statement('S2')]),
    );
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(again.json().statements.length, 3);
    assert.deepEqual(
      (await rowsOf(ext)).map((r) => r.statement_id),
      ['S1', 'S2'],
    );
  });

  it('reports every statement error at once, and stores nothing', async () => {
    const ext = account();
    const res = await post(
      body(ext, [
        statement('ok', { statement_path: 'path/to/statement-1.pdf' }),
        statement('reversed', { bill_period_from_date: '2019-07-10', bill_period_to_date: '2019-07-01' }),
        statement('open', { bill_period_from_date: '2019-07-15', bill_period_to_date: '2019-08-01' }),
        statement('missing', { statement_path: 'path/to/none.pdf' }),
        statement('html', { statement_path: '/not-a-pdf.pdf' }),
        statement('short', { statement_path: 'tiny.pdf' }),
        statement('escape', { statement_path: '../other-supplier/x.pdf' }),
        statement('url', { statement_path: 'https://example.com/x.pdf' }),
        statement('encoded', { statement_path: '%2e%2e/x.pdf' }),
      ]),
    );
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().code, 'validation_error');
    assert.deepEqual(codes(res), [
      'statements.1.bill_period_to_date:start_date_later_than_end_date',
      'statements.3.statement_path:path_does_not_exist_in_file_store',
      'statements.4.statement_path:invalid_statement_document',
      'statements.5.statement_path:invalid_statement_document',
      'statements.6.statement_path:invalid_document_path',
      'statements.7.statement_path:invalid_document_path',
      'statements.8.statement_path:invalid_document_path',
    ]);
    assert.deepEqual(await rowsOf(ext), []);
  });

  it('rejects malformed dates, non-integer amounts, missing and unknown fields', async () => {
    const res = await post({
      ...body(account(), [
        statement('d1', { bill_period_from_date: '2019-02-30' }),
        statement('d2', { bill_period_to_date: '2019-6-1' }),
        statement('d3', { issued_date: '2019-07-02T00:00:00Z' }),
        statement('a1', { gross_amount: 1.5 }),
        statement('a2', { gross_amount: '100' }),
        { bill_period_from_date: '2019-06-01', bill_period_to_date: '2019-06-30' },
        statement('x', { colour: 'red' }),
        statement(''),
      ]),
      extra: 1,
    });
    assert.equal(res.statusCode, 400, res.body);
    const got = codes(res);
    for (const want of [
      'extra:unknown_field',
      'statements.0.bill_period_from_date:invalid_date',
      'statements.1.bill_period_to_date:invalid_date',
      'statements.2.issued_date:invalid_date',
      'statements.3.gross_amount:invalid',
      'statements.4.gross_amount:invalid',
      'statements.5.statement_id:required',
      'statements.6.colour:unknown_field',
      'statements.7.statement_id:blank',
    ])
      assert.ok(got.includes(want), `${want} in ${got.join(', ')}`);
  });

  it('rejects 1001 statements with too_many_items', async () => {
    const res = await post(
      body(
        account(),
        Array.from({ length: 1001 }, (_, i) => statement(`s${i}`)),
      ),
    );
    assert.equal(res.statusCode, 400);
    assert.deepEqual(codes(res), ['statements:too_many_items']);
  });

  it('answers 404 not_found for a staged-only account and for wrong identifiers', async () => {
    const anyHeaders = (await tokenFor(t.app, ['*'], [])).headers;
    for (const [supplier, ext] of [
      ['STAGED', staged],
      [SUPPLIER, 'NO-SUCH-ACCOUNT'],
      ['NOBODY', accounts[0]],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: URL_,
        headers: anyHeaders,
        payload: { import_supplier: supplier, external_account_number: ext, statements: [statement('1')] },
      });
      assert.equal(res.statusCode, 404, `${supplier}/${ext}: ${res.body}`);
      assert.equal(res.json().code, 'not_found');
    }
  });

  it('stores exactly one statement from 50 concurrent identical requests', async () => {
    const ext = account();
    const payload = body(ext, [statement('C1', { statement_path: 'path/to/statement-1.pdf' })]);
    const results = await Promise.all(Array.from({ length: 50 }, () => post(payload)));
    for (const r of results) assert.equal(r.statusCode, 201, r.body);
    assert.equal((await rowsOf(ext)).length, 1);
  });
});
