/**
 * Regression tests for what validation used to accept and storage then altered or refused:
 * rounded money, blank dates and decimals answered 201 then ERRORED, NUL characters, datetimes
 * PostgreSQL cannot hold, integers past their column, nesting deep enough to overflow the stack,
 * identifiers longer than an index entry holds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findImportedAccount } from '../../src/accounts/imported-account.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { importAccounts } from '../helpers/imported-accounts.ts';
import { adminHeaders, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

const SUPPLIER = 'EXACT_ENERGY';

describe('what validation accepts, storage keeps exactly', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let n = 0;
  const next = () => accountFor(SUPPLIER, ++n);
  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers, payload: payload as never });
  /** Posts JSON written as text: numbers as the client wrote them, not as JSON.stringify would. */
  const postText = (url: string, text: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: text,
    });
  const processCount = async () =>
    (await t.db.query<{ n: number }>(sql('', 'SELECT count(*)::int AS n FROM import_processes'))).rows[0].n;
  const errorsOf = (res: { json(): Obj }) => (res.json().errors as Obj[]).map((e) => `${e.attr}: ${e.code}`);

  /**
   * Creates the account (already scheduled when `scheduled`: the worker just runs), then answers
   * its ledger and transactions as stored, as text.
   */
  async function stored(account: Obj, scheduled = false) {
    if (scheduled) await runWorkerUntilIdle(t.config, t.db);
    else await importAccounts(t, headers, [account]);
    const a = await findImportedAccount(t.db, SUPPLIER, account.external_account_number);
    const ledger = await t.db.query<Obj>(
      sql('', 'SELECT ledger_balance::text, last_statement_balance::text FROM ledgers WHERE account_id = $1'),
      [a.id],
    );
    const transactions = await t.db.query<Obj>(
      sql(
        '',
        'SELECT transaction_id, amount::text FROM transactions WHERE account_id = $1 ORDER BY transaction_id',
      ),
      [a.id],
    );
    // The account's payload is kept on the process that created it (migration 0029).
    const payload = await t.db.query<Obj>(
      sql(
        '',
        'SELECT p.payload FROM accounts a JOIN import_processes p ON p.id = a.import_process_id WHERE a.id = $1',
      ),
      [a.id],
    );
    return {
      account: a,
      ledger: ledger.rows[0],
      transactions: transactions.rows,
      payload: payload.rows[0].payload,
    };
  }

  before(async () => {
    t = await createTestApp();
    ({ headers } = await tokenFor(t.app, [SUPPLIER]));
  });
  after(() => t.close());

  /** An account whose amounts use all ten decimal places, and twenty significant digits. */
  function tenPlaces() {
    const account = next();
    const ledger = account.ledgers[0];
    ledger.historical_statement_transactions[0].amount = '617283945.0617283945';
    ledger.historical_statement_transactions[1].amount = '617283945.0617283945';
    ledger.last_statement_balance = '1234567890.1234567890';
    ledger.current_statement_transactions[0].amount = '0.0000000001'; // a repayment
    ledger.current_statement_transactions[1].amount = '0.0000000002'; // a payment
    ledger.ledger_balance = '1234567890.1234567891';
    account.transfer_balance = '1234567890.1234567891';
    return account;
  }

  function assertTenPlacesStored(s: Awaited<ReturnType<typeof stored>>) {
    assert.deepEqual(s.ledger, {
      ledger_balance: '1234567890.1234567891',
      last_statement_balance: '1234567890.1234567890',
    });
    assert.equal(s.account.balance, '1234567890.1234567891');
    assert.equal(s.payload.transfer_balance, '1234567890.1234567891');
    assert.deepEqual(
      s.transactions.map((r) => r.amount),
      ['0.0000000001', '0.0000000002', '617283945.0617283945', '617283945.0617283945'],
    );
  }

  it('keeps every digit of ledger, statement and transaction amounts (ten decimal places)', async () => {
    assertTenPlacesStored(await stored(tenPlaces()));
  });

  it('stores -12.505 as -12.505, not rounded to pence', async () => {
    const account = next();
    const ledger = account.ledgers[0];
    ledger.current_statement_transactions[1].amount = '-22.505'; // 20 - 10 - 22.505 = -12.505
    ledger.ledger_balance = '-12.505';
    account.transfer_balance = '-12.505';
    const s = await stored(account);
    assert.equal(s.ledger.ledger_balance, '-12.505');
    assert.equal(s.account.balance, '-12.505');
  });

  it('takes decimals as JSON numbers, as the real examples send them, and stores their text', async () => {
    const account = next();
    account.transfer_balance = 30.0;
    account.ledgers[0].ledger_balance = 30;
    account.ledgers[0].last_statement_balance = 20.25;
    account.ledgers[0].historical_statement_transactions[0].amount = 10.25;
    account.ledgers[0].current_statement_transactions[0].amount = 10.25;
    // Written as the real examples write it: `30.0`, a token JSON.stringify never produces.
    const text = JSON.stringify(account).replace('"transfer_balance":30,', '"transfer_balance":30.0,');
    assert.match(text, /"transfer_balance":30\.0,/);
    const res = await postText('/v2/data-import/accounts/', text);
    assert.equal(res.statusCode, 201, res.body);
    const s = await stored(account, true);
    assert.deepEqual(s.ledger, { ledger_balance: '30', last_statement_balance: '20.25' });
    assert.equal(s.payload.transfer_balance, '30');
    assert.equal(s.account.balance, '30');
  });

  it('keeps every digit of decimals sent as JSON numbers, twenty significant digits included', async () => {
    const account = tenPlaces();
    // The same account with those decimals as JSON numbers: JSON.parse alone would make
    // 1234567890.1234567891 into 1234567890.1234567.
    const text = JSON.stringify(account).replace(/"(-?\d+\.\d{10})"/g, '$1');
    assert.match(text, /"ledger_balance":1234567890\.1234567891[,}]/);
    const res = await postText('/v2/data-import/accounts/', text);
    assert.equal(res.statusCode, 201, res.body);
    assertTenPlacesStored(await stored(account, true));
  });

  it('refuses a body nested 10,000 deep beside a number JSON cannot keep for its depth (it answered 500)', async () => {
    const text = `{" ":${'['.repeat(10_000)}${']'.repeat(10_000)},"!":9223372036854775808}`;
    for (const url of ['/v2/data-import/accounts/', '/v1/data-import/notes/create/']) {
      const res = await postText(url, text);
      assert.equal(res.statusCode, 400, res.body);
      assert.ok(
        errorsOf(res).some((e) => e.endsWith(': max_depth')),
        res.body,
      );
    }
  });

  it('reads a JSON number as written: 0.30000000000000004 has 17 decimal places, and nothing is scheduled', async () => {
    const account = next();
    account.transfer_balance = 0.30000000000000004;
    const before = await processCount();
    const res = await post('/v2/data-import/accounts/', account);
    assert.equal(res.statusCode, 400);
    assert.ok(errorsOf(res).includes('transfer_balance: max_decimal_places'), res.body);
    assert.equal(await processCount(), before);
  });

  const BLANKS = [
    'customers.0.date_of_birth',
    'supply_addresses.0.meter_points.0.supply_start_date',
    'supply_addresses.0.meter_points.0.meters.0.transfer_readings.0.reading_date',
    'supply_addresses.0.meter_points.0.meters.0.transfer_readings.0.reading_value',
    'ledgers.0.last_statement_closing_date',
    'ledgers.0.last_statement_balance',
    'ledgers.0.ledger_balance',
  ];
  for (const attr of BLANKS) {
    it(`answers 400 blank for a blank ${attr}, where it once answered 201 and then ERRORED`, async () => {
      const account = next();
      const path = attr.split('.');
      let node = account;
      for (const key of path.slice(0, -1)) node = node[key];
      assert.ok((path.at(-1) as string) in node, `${attr} is in the fixture`);
      node[path.at(-1) as string] = '';
      const before = await processCount();
      const res = await post('/v2/data-import/accounts/', account);
      assert.equal(res.statusCode, 400, res.body);
      assert.ok(errorsOf(res).includes(`${attr}: blank`), res.body);
      assert.equal(await processCount(), before);
    });
  }

  it('refuses NUL in any string or key, at its attr, relative to the payload when wrapped', async () => {
    const account = next();
    account.customers[0].first_name = 'Ada\u0000';
    account.metadata = [{ key: 'k', value: { 'a\u0000b': 1 } }];
    const before = await processCount();
    for (const [url, body] of [
      ['/v2/data-import/accounts/', account],
      ['/v2/data-import/accounts/', { payload: account }],
      ['/v2/data-import/accounts/validate/', { payload: account }],
    ] as const) {
      const res = await post(url, body);
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(errorsOf(res), [
        'customers.0.first_name: null_characters_not_allowed',
        'metadata.0.value.a\u0000b: null_characters_not_allowed',
      ]);
    }
    const note = await post('/v1/data-import/notes/create/', {
      import_supplier: SUPPLIER,
      external_account_number: 'X',
      notes: [{ body: 'x\u0000' }],
    });
    assert.equal(note.statusCode, 400);
    assert.deepEqual(errorsOf(note), ['notes.0.body: null_characters_not_allowed']);
    assert.equal(await processCount(), before);
  });

  it('refuses what JSON.parse or PostgreSQL would alter: lone surrogates, unsafe integers, 1e400', async () => {
    const send = async (text: string) => {
      const before = await processCount();
      const res = await postText('/v2/data-import/accounts/', text);
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(await processCount(), before);
      return errorsOf(res).sort();
    };
    const surrogate = next();
    surrogate.billing_name = 'x\ud800';
    assert.deepEqual(await send(JSON.stringify(surrogate)), ['billing_name: invalid_unicode']);
    // Written as text: these numbers are what the client sent, not what JSON.parse makes of them.
    // Where no decimal field takes them (free-form metadata), storing their double would alter them.
    const numbers = JSON.stringify(next()).replace(
      '"metadata":[',
      '"metadata":[{"key":"big","value":{"n":9007199254740993}},{"key":"inf","value":[1e400]},{"key":"long","value":0.12345678901234567891},',
    );
    assert.deepEqual(await send(numbers), [
      'metadata.0.value.n: imprecise_number',
      'metadata.1.value.0: imprecise_number',
      'metadata.2.value: imprecise_number',
    ]);
  });

  it('refuses a blank or all-space external_account_number, and caps a default window at year 9999', async () => {
    const blank = next();
    blank.external_account_number = '   ';
    const res = await post('/v2/data-import/accounts/', blank);
    assert.equal(res.statusCode, 400);
    assert.ok(errorsOf(res).includes('external_account_number: blank'), res.body);
    const late = await post('/v2/data-import/accounts/', {
      payload: next(),
      task_params: { schedule_window_start: '9999-12-31T23:59:59Z' },
    });
    assert.ok(late.statusCode < 500, late.body);
  });

  it('refuses NUL in a query string with 400, not a database error', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/admin/v1/import-suppliers/?status=%00',
      headers: adminHeaders,
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(errorsOf(res), ['status: null_characters_not_allowed']);
  });

  it('refuses nesting past 64 levels with a clear 400 at the deepest acceptable path', async () => {
    const account = next();
    account.metadata = [{ key: 'deep', value: 'DEEP' }];
    // Written as text: JSON.stringify itself would overflow the stack on 10,000 levels.
    const deep = `${'{"d":'.repeat(10_000)}{}${'}'.repeat(10_000)}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/data-import/accounts/',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify(account).replace('"DEEP"', deep),
    });
    assert.equal(res.statusCode, 400, res.body.slice(0, 500));
    const [error] = res.json().errors;
    assert.equal(error.code, 'max_depth');
    assert.match(error.attr, /^metadata\.0\.value(\.d)+$/);
    assert.equal(error.attr.split('.').length, 64);
  });

  it('refuses datetimes PostgreSQL or the wire form cannot hold', async () => {
    for (const created_at of [
      '2024-06-30T23:59:60Z', // leap second
      '2024-01-01T10:00:00+01', // hour-only offset
      '0000-01-01T00:00:00Z',
      '0001-01-01T00:00:00+01:00', // before year 1 in UTC
      '10000-01-01T00:00:00Z',
      '2024-01-01T10:00:00.1234567Z', // beyond microseconds
    ]) {
      const res = await post('/v1/data-import/notes/create/', {
        import_supplier: SUPPLIER,
        external_account_number: 'X',
        notes: [{ body: 'x', created_at }],
      });
      assert.equal(res.statusCode, 400, `${created_at}: ${res.body}`);
      assert.equal(res.json().errors[0].attr, 'notes.0.created_at', created_at);
    }
  });

  it('refuses statement gross amounts past 2^53 - 1 (JSON.parse cannot keep them)', async () => {
    for (const gross_amount of [1e20, 2 ** 53 + 2]) {
      const res = await post('/v1/data-import/historical-statements/create/', {
        import_supplier: SUPPLIER,
        external_account_number: 'X',
        statements: [
          {
            statement_id: 's',
            bill_period_from_date: '2020-01-01',
            bill_period_to_date: '2020-01-31',
            gross_amount,
          },
        ],
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(errorsOf(res), ['statements.0.gross_amount: imprecise_number']);
    }
  });

  it('keeps an account balance exact however far follow-up transactions move it', async () => {
    const [ext] = await importAccounts(t, headers, [next()]);
    const today = new Date().toISOString().slice(0, 10);
    const transactions = Array.from({ length: 200 }, (_, i) => ({
      transaction_id: `big-${i}`,
      transaction_date: today,
      amount: '9999999999.99',
      type: 'PAYMENT',
      reason: 'ACCOUNT_CHARGE_PAYMENT',
    }));
    const res = await post('/v1/data-import/transactions/create/', {
      import_supplier: SUPPLIER,
      external_account_number: ext,
      transactions,
    });
    assert.equal(res.statusCode, 201, res.body.slice(0, 500));
    const a = await findImportedAccount(t.db, SUPPLIER, ext);
    // The opening balance (30.00) plus 200 × 9,999,999,999.99.
    assert.equal(a.balance, '2000000000028.00');
  });

  it('stores indexed identifiers at their limit and refuses longer ones (a 2,000,000-character transaction id answered 201, then ERRORED)', async () => {
    // 128 characters outside the Basic Multilingual Plane: 512 bytes, none alike enough to compress.
    const longest = (tag: string) =>
      `${tag}${Array.from({ length: 128 - tag.length }, (_, i) => String.fromCodePoint(0x1f300 + i * 7)).join('')}`;
    const account = next();
    const ledger = account.ledgers[0];
    ledger.current_statement_transactions[0].transaction_id = longest('t');
    account.statements[0].statement_id = longest('s');
    const s = await stored(account);
    assert.ok(s.transactions.some((r) => r.transaction_id === longest('t')));
    const { rows } = await t.db.query<Obj>(
      sql('', 'SELECT statement_id FROM statements WHERE account_id = $1 AND statement_id = $2'),
      [s.account.id, longest('s')],
    );
    assert.equal(rows.length, 1);

    const tooLong = next();
    tooLong.ledgers[0].current_statement_transactions[0].transaction_id = 'x'.repeat(2_000_000);
    tooLong.statements[0].statement_id = `${longest('s')}x`;
    const before = await processCount();
    const refused = await post('/v2/data-import/accounts/', tooLong);
    assert.equal(refused.statusCode, 400, refused.body.slice(0, 300));
    assert.deepEqual(errorsOf(refused), [
      'ledgers.0.current_statement_transactions.0.transaction_id: max_length',
      'statements.0.statement_id: max_length',
    ]);
    assert.equal(await processCount(), before);

    const followUp = await post('/v1/data-import/transactions/create/', {
      import_supplier: SUPPLIER,
      external_account_number: account.external_account_number,
      transactions: [
        {
          transaction_id: 'y'.repeat(129),
          transaction_date: '2020-01-15',
          amount: '1.00',
          type: 'PAYMENT',
          reason: 'ACCOUNT_CHARGE_PAYMENT',
        },
      ],
    });
    assert.equal(followUp.statusCode, 400, followUp.body.slice(0, 300));
    assert.deepEqual(errorsOf(followUp), ['transactions.0.transaction_id: max_length']);

    const note = (externalId: string) =>
      post('/v1/data-import/notes/create/', {
        import_supplier: SUPPLIER,
        external_account_number: account.external_account_number,
        notes: [{ body: `Note ${externalId.length}`, external_id: externalId }],
      });
    assert.equal((await note(longest('n'))).statusCode, 201);
    const tooLongNote = await note('n'.repeat(129));
    assert.equal(tooLongNote.statusCode, 400, tooLongNote.body.slice(0, 300));
    assert.deepEqual(errorsOf(tooLongNote), ['notes.0.external_id: max_length']);
  });
});
