import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { importAccounts } from '../helpers/imported-accounts.ts';
import { createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

const REFERENCE = JSON.parse(
  readFileSync(new URL('../fixtures/reference-examples/transactions.json', import.meta.url), 'utf8'),
);
const URL_PATH = '/v1/data-import/transactions/create/';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

/** A validation body's errors as `attr:code`. */
const errorsOf = (res: { json(): Obj }): string[] => res.json().errors.map((e: Obj) => `${e.attr}:${e.code}`);

// The example account's open statement period starts 2019-08-01 and its balance is 30.00.
describe('POST /v1/data-import/transactions/create/', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let n = 0;
  before(async () => {
    t = await createTestApp();
    ({ headers } = await tokenFor(t.app, ['TX']));
  });
  after(() => t.close());

  /** A fresh imported account; returns its external account number. */
  async function importedAccount(): Promise<string> {
    const [ext] = await importAccounts(t, headers, [accountFor('TX', ++n)]);
    migrated.set(ext, (await counts(ext)).transactions);
    return ext;
  }
  // The example account arrives with 2 current-statement transactions (ids 1 and 2) of its own.
  const migrated = new Map<string, number>();
  /** Posts the transactions; `extra` adds top-level fields (dry_run). */
  const post = (external: string, transactions: unknown[], query = '', extra: Obj = {}) =>
    t.app.inject({
      method: 'POST',
      url: `${URL_PATH}${query}`,
      headers,
      payload: { import_supplier: 'TX', external_account_number: external, ...extra, transactions },
    });
  const account = async (external: string) => {
    const c = await counts(external);
    return { ...c, transactions: c.transactions - (migrated.get(external) ?? 0) };
  };
  const counts = async (external: string) =>
    (
      await t.db.query<{ balance: string; transactions: number; pinned: number }>(
        sql(
          '',
          `SELECT a.balance::text AS balance,
                  (SELECT count(*)::int FROM transactions x WHERE x.account_id = a.id AND x.statement = 'current') AS transactions,
                  (SELECT count(*)::int FROM notes o WHERE o.account_id = a.id AND o.is_pinned) AS pinned
             FROM accounts a WHERE a.import_supplier = 'TX' AND a.external_account_number = $1`,
        ),
        [external],
      )
    ).rows[0];
  const tx = (id: string, fields: Record<string, unknown> = {}) => ({
    transaction_id: id,
    transaction_date: '2020-01-15',
    amount: 12.5,
    type: 'PAYMENT',
    reason: 'ACCOUNT_CHARGE_PAYMENT',
    ...fields,
  });

  it('adds the reference example transactions, echoes amounts as strings and moves the balance exactly', async () => {
    const ext = await importedAccount();
    const before = await account(ext);
    // Ids 1–4 are already on the example account (migrated with it), so the example's are renamed.
    const res = await post(
      ext,
      REFERENCE.transactions.map((x: { transaction_id: string }) => ({
        ...x,
        transaction_id: `ref-${x.transaction_id}`,
      })),
    );
    assert.equal(res.statusCode, 201, res.body);
    const { results } = res.json();
    assert.deepEqual(
      results.map((r: { status: string }) => r.status),
      Array(6).fill('TRANSACTION_ADDED_TO_ACCOUNT'),
    );
    assert.deepEqual(
      results.map((r: { transaction_data: { amount: string } }) => r.transaction_data.amount),
      ['10.00', '10.00', '10.00', '10.00', '10.00', '53.24'],
    );
    assert.equal(results[5].transaction_data.line_items[0].net_amount, '44.00');
    // 30.00 − 10 − 10 (charges) + 10 (credit) + 10 (payment) − 10 (repayment) − 53.24 (supply charge)
    assert.deepEqual(await account(ext), { ...before, balance: '-33.24', transactions: 6 });
  });

  it('skips ids the account was migrated with', async () => {
    const ext = await importedAccount();
    const res = await post(ext, REFERENCE.transactions.slice(0, 2));
    assert.deepEqual(
      res.json().results.map((r: { status: string }) => r.status),
      ['TRANSACTION_ALREADY_EXISTS', 'TRANSACTION_ALREADY_EXISTS'],
    );
  });

  it('skips transactions already added (TRANSACTION_ALREADY_EXISTS) and leaves the balance alone', async () => {
    const ext = await importedAccount();
    await post(ext, [tx('a'), tx('b')]);
    const again = await post(ext, [tx('a'), tx('b'), tx('c')]);
    assert.equal(again.statusCode, 201);
    assert.deepEqual(
      again.json().results.map((r: { status: string }) => r.status),
      ['TRANSACTION_ALREADY_EXISTS', 'TRANSACTION_ALREADY_EXISTS', 'TRANSACTION_ADDED_TO_ACCOUNT'],
    );
    assert.deepEqual(await account(ext), { balance: '67.50', transactions: 3, pinned: 0 });
  });

  it('moves transactions dated before the open period to its start, describes them, and pins exactly one note', async () => {
    const ext = await importedAccount();
    const res = await post(ext, [
      tx('early-1', { transaction_date: '2019-07-01' }),
      tx('early-2', { transaction_date: '2019-06-30' }),
      tx('ok'),
    ]);
    assert.equal(res.statusCode, 201, res.body);
    const [first, second, third] = res
      .json()
      .results.map((r: { transaction_data: Record<string, string> }) => r.transaction_data);
    assert.equal(first.transaction_date, '2019-08-01');
    assert.match(first.description, /Originally dated 2019-07-01/);
    assert.equal(second.transaction_date, '2019-08-01');
    assert.equal(third.transaction_date, '2020-01-15');
    assert.equal(third.description, undefined);
    assert.equal((await account(ext)).pinned, 1);
    const note = (
      await t.db.query<{ body: string }>(
        sql(
          '',
          'SELECT body FROM notes o JOIN accounts a ON a.id = o.account_id WHERE a.external_account_number = $1 AND o.is_pinned',
        ),
        [ext],
      )
    ).rows[0];
    assert.match(note.body, /early-1 \(2019-07-01\), early-2 \(2019-06-30\)/);
  });

  it('without force_add_to_current_statement, fails on the first transaction outside the open period', async () => {
    const ext = await importedAccount();
    const res = await post(
      ext,
      [tx('ok'), tx('early', { transaction_date: '2019-01-01' })],
      '?force_add_to_current_statement=false',
    );
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assert.equal(body.status, 'TRANSACTION_IMPORT_ERROR');
    assert.equal(body.code, 'transaction_outside_open_statement_period');
    assert.equal(typeof body.error_detail, 'string');
    assert.equal(body.transaction_data.transaction_id, 'early');
    assert.equal(body.transaction_data.amount, '12.50');
    assert.deepEqual(await account(ext), { balance: '30.00', transactions: 0, pinned: 0 });
  });

  it('refuses a future-dated transaction with transaction_in_future', async () => {
    const ext = await importedAccount();
    const res = await post(ext, [tx('future', { transaction_date: '2999-01-01' })]);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'transaction_in_future');
  });

  it('a failing transaction in a batch of 100 leaves the account untouched', async () => {
    const ext = await importedAccount();
    const batch = Array.from({ length: 100 }, (_, i) => tx(`b${i}`, { amount: '1.01' }));
    batch[57] = tx('b57', { transaction_date: '2999-12-31' });
    const res = await post(ext, batch);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().transaction_data.transaction_id, 'b57');
    assert.deepEqual(await account(ext), { balance: '30.00', transactions: 0, pinned: 0 });
    batch[57] = tx('b57', { amount: '1.01' });
    assert.equal((await post(ext, batch)).statusCode, 201);
    assert.deepEqual(await account(ext), { balance: '131.00', transactions: 100, pinned: 0 });
  });

  it('rejects structural errors with codes and attrs, all at once, and adds nothing', async () => {
    const ext = await importedAccount();
    const res = await post(ext, [
      tx('1', { type: 'CHARGE', reason: undefined }),
      tx('2', { type: 'SUPPLY_CHARGE', reason: 'IMPORTED_CHARGE' }),
      tx('3', { amount: 1.234 }),
      tx('4', { amount: 'ten' }),
      tx('5', { colour: 'red' }),
      tx('5'),
      tx('7', { transaction_date: '2020-02-30' }),
      tx('8', { type: 'CREDIT', reason: 'IMPORTED_CREDIT', payment_type: 'DIRECT_CREDIT' }),
      {
        ...tx('9', { type: 'SUPPLY_CHARGE', reason: undefined, amount: 50 }),
        product_code: 'P-1',
        line_items: [
          { start_date: '2020-02-01', end_date: '2020-01-01', number_of_units: 1, net_amount: 44 },
        ],
        tax_items: [{ amount: 9.24, tax_type: 'VAT', value_taxed: 44, rate: 0.21, unit_type: 'PROPORTION' }],
      },
      tx('10', { amount: -5 }),
      tx(undefined as unknown as string),
    ]);
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().code, 'validation_error');
    // The account payload's transaction schema and list checks, and the follow-up's money rules.
    assert.deepEqual(errorsOf(res), [
      'transactions.0.reason:required',
      'transactions.1.line_items:required',
      'transactions.1.product_code:required',
      'transactions.1.reason:unknown_field',
      'transactions.2.amount:invalid_amount',
      'transactions.3.amount:invalid_amount',
      'transactions.4.colour:unknown_field',
      'transactions.5.transaction_id:duplicate_transaction_ids',
      'transactions.6.transaction_date:invalid_date',
      'transactions.7.payment_type:unknown_field',
      'transactions.8.amount:ledger_transaction_amount_does_not_match_with_line_item_net_amount_and_tax_amount',
      'transactions.8.line_items.0.end_date:start_date_later_than_end_date',
      'transactions.8.line_items.0.rate_band:conflicting_rate_band_specification',
      'transactions.9.amount:min_value',
      'transactions.10.transaction_id:missing_transaction_id',
    ]);
    assert.deepEqual(await account(ext), { balance: '30.00', transactions: 0, pinned: 0 });
  });

  /** A SUPPLY_CHARGE using every field the reference documents for it, its line and tax items. */
  const fullSupplyCharge = (id: string): Obj => ({
    transaction_id: id,
    transaction_date: '2020-01-31',
    amount: 32.76,
    type: 'SUPPLY_CHARGE',
    reason: undefined,
    billing_document_identifier: 'BD-7',
    display_note: 'January',
    note: 'internal',
    reference: 'sc-ref',
    product_code: 'E-1R-FERRY-FIX-24M',
    supply_point_identifier: '1200012345678',
    line_items: [
      {
        rate_specification_code: 'RS-DAY',
        external_rate_identifier: 'EXT-RATE-1',
        start_date: '2020-01-01',
        end_date: '2020-01-31',
        number_of_units: 31,
        net_amount: '6.20',
        price_per_unit: 0.2,
        params: { meter_legacy_id: 'M-1' },
      },
      {
        time_series_specification_code: 'TS-HH',
        start_date: '2020-01-01',
        end_date: '2020-01-31',
        number_of_units: '100.5',
        net_amount: 25,
        units: [1000.5, '1101.0000'],
      },
    ],
    tax_items: [
      {
        amount: 1.56,
        tax_type: 'VAT',
        value_taxed: '31.2',
        rate: 0.05,
        unit_type: 'PROPORTION',
        params: { band: 'reduced' },
      },
    ],
  });
  const storedData = async (external: string, id: string) =>
    (
      await t.db.query<{ data: Obj; amount: string; reason: string | null }>(
        sql(
          '',
          `SELECT x.data, x.amount::text AS amount, x.reason FROM transactions x JOIN accounts a ON a.id = x.account_id
            WHERE a.import_supplier = 'TX' AND a.external_account_number = $1 AND x.transaction_id = $2`,
        ),
        [external, id],
      )
    ).rows;

  it('accepts and stores every field the reference documents (billing_document_identifier, supply_point_identifier, item params, rate codes)', async () => {
    const ext = await importedAccount();
    const res = await post(ext, [
      fullSupplyCharge('sc-full'),
      tx('pay-bd', { billing_document_identifier: 'BD-7' }),
      tx('chg-bd', { type: 'CHARGE', reason: 'IMPORTED_CHARGE', billing_document_identifier: 'BD-7' }),
    ]);
    assert.equal(res.statusCode, 201, res.body);
    const [stored] = await storedData(ext, 'sc-full');
    assert.equal(stored.amount, '32.76');
    assert.equal(stored.reason, null);
    const { data } = stored;
    assert.equal(data.billing_document_identifier, 'BD-7');
    assert.equal(data.supply_point_identifier, '1200012345678');
    assert.deepEqual(
      data.line_items.map((l: Obj) => [
        l.rate_specification_code,
        l.time_series_specification_code,
        l.external_rate_identifier,
        l.params,
      ]),
      [
        ['RS-DAY', undefined, 'EXT-RATE-1', { meter_legacy_id: 'M-1' }],
        [undefined, 'TS-HH', undefined, undefined],
      ],
    );
    assert.deepEqual(data.tax_items[0].params, { band: 'reduced' });
    // Nothing dropped: `data` is the whole echo (every field sent) beside the columns.
    const { transaction_id, transaction_date, amount, type, ...echoed } =
      res.json().results[0].transaction_data;
    assert.deepEqual(
      [transaction_id, transaction_date, amount, type],
      ['sc-full', '2020-01-31', '32.76', 'SUPPLY_CHARGE'],
    );
    assert.deepEqual(data, echoed);
    assert.equal((await storedData(ext, 'pay-bd'))[0].data.billing_document_identifier, 'BD-7');
    assert.equal((await storedData(ext, 'chg-bd'))[0].data.billing_document_identifier, 'BD-7');
  });

  it('echoes every decimal as a string: money with two decimals, the rest exactly as sent', async () => {
    const ext = await importedAccount();
    const res = await post(ext, [fullSupplyCharge('sc-echo')]);
    assert.equal(res.statusCode, 201, res.body);
    const data = res.json().results[0].transaction_data;
    assert.equal(data.amount, '32.76');
    assert.deepEqual(
      data.line_items.map((l: Record<string, unknown>) => [
        l.net_amount,
        l.number_of_units,
        l.price_per_unit,
        l.units,
      ]),
      [
        ['6.20', '31', '0.2', undefined],
        ['25.00', '100.5', undefined, ['1000.5', '1101.0000']],
      ],
    );
    assert.deepEqual(
      data.tax_items.map((x: Record<string, unknown>) => [x.amount, x.value_taxed, x.rate]),
      [['1.56', '31.2', '0.05']],
    );
  });

  it('dry_run: true answers exactly as if added and stores nothing (no transaction, balance or pinned note)', async () => {
    const ext = await importedAccount();
    const batch = [
      fullSupplyCharge('dry-sc'),
      tx('dry-early', { transaction_date: '2019-07-01' }), // forced: would pin a note
      tx('dry-pay'),
    ];
    const before = await account(ext);
    const dry = await post(ext, batch, '', { dry_run: true });
    assert.equal(dry.statusCode, 201, dry.body);
    assert.deepEqual(await account(ext), before);
    assert.equal((await storedData(ext, 'dry-sc')).length, 0);
    const real = await post(ext, batch);
    assert.equal(real.statusCode, 201, real.body);
    assert.deepEqual(dry.json(), real.json());
    assert.deepEqual(
      real.json().results.map((r: { status: string }) => r.status),
      Array(3).fill('TRANSACTION_ADDED_TO_ACCOUNT'),
    );
    // 30.00 − 32.76 (supply charge) + 12.50 + 12.50 (payments)
    assert.deepEqual(await account(ext), { balance: '22.24', transactions: 3, pinned: 1 });
    // dry_run: false is an ordinary request.
    const again = await post(ext, [tx('x')], '', { dry_run: false });
    assert.equal(again.statusCode, 201, again.body);
    assert.equal((await account(ext)).transactions, 4);
  });

  it('a dry run fails exactly as the real request would', async () => {
    const ext = await importedAccount();
    const res = await post(ext, [tx('future', { transaction_date: '2999-01-01' })], '', { dry_run: true });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().code, 'transaction_in_future');
  });

  it('refuses line item units that are not exactly two values: line_item_units_must_be_two_values', async () => {
    const ext = await importedAccount();
    const charge = fullSupplyCharge('units');
    const res = await post(ext, [
      { ...charge, line_items: [charge.line_items[0], { ...charge.line_items[1], units: [4, 8, 12] }] },
      {
        ...charge,
        transaction_id: 'units-1',
        line_items: [charge.line_items[0], { ...charge.line_items[1], units: [4] }],
      },
    ]);
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(errorsOf(res), [
      'transactions.0.line_items.1.units:line_item_units_must_be_two_values',
      // The same line items, charged twice in one request.
      'transactions.1.line_items.0.start_date:line_items_overlap_already_charged_period',
      'transactions.1.line_items.1.start_date:line_items_overlap_already_charged_period',
      'transactions.1.line_items.1.units:line_item_units_must_be_two_values',
    ]);
  });

  it('allows negative charges, credits and supply charges (the reference); payments and repayments stay positive', async () => {
    const ext = await importedAccount();
    const negative = fullSupplyCharge('neg-sc');
    negative.amount = -32.76;
    negative.line_items[0] = { ...negative.line_items[0], net_amount: '-6.20', price_per_unit: -0.2 };
    negative.line_items[1] = { ...negative.line_items[1], net_amount: -25 };
    negative.tax_items[0] = { ...negative.tax_items[0], amount: -1.56 };
    const res = await post(ext, [
      tx('neg-charge', { type: 'CHARGE', reason: 'IMPORTED_CHARGE', amount: -12.5 }),
      tx('neg-credit', { type: 'CREDIT', reason: 'IMPORTED_CREDIT', amount: '-2.50' }),
      negative,
    ]);
    assert.equal(res.statusCode, 201, res.body);
    // 30.00 + 12.50 (a negative charge) − 2.50 (a negative credit) + 32.76 (a negative supply charge)
    assert.deepEqual(await account(ext), { balance: '72.76', transactions: 3, pinned: 0 });
    const refused = await post(ext, [
      tx('neg-pay', { amount: -1 }),
      tx('neg-repay', { type: 'REPAYMENT', reason: 'FULL_CREDIT_REFUND', amount: '-1.00' }),
    ]);
    assert.deepEqual(errorsOf(refused), [
      'transactions.0.amount:min_value',
      'transactions.1.amount:min_value',
    ]);
  });

  it('refuses query flags other than true and false', async () => {
    const ext = await importedAccount();
    const res = await post(ext, [tx('q')], '?check_previously_added=maybe&colour=red');
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().code, 'validation_error');
    assert.deepEqual(errorsOf(res), ['check_previously_added:invalid', 'colour:unknown_field']);
  });

  it('limits a request to 1,000 transactions (too_many_items)', async () => {
    const ext = await importedAccount();
    const res = await post(
      ext,
      Array.from({ length: 1001 }, (_, i) => tx(`m${i}`)),
    );
    assert.equal(res.statusCode, 400);
    assert.deepEqual(
      res.json().errors.map((e: { attr: string; code: string }) => [e.attr, e.code]),
      [['transactions', 'too_many_items']],
    );
  });

  it('answers 404 not_found for a staged-only account and for wrong identifiers', async () => {
    const staged = accountFor('TX', ++n);
    staged.supply_addresses[0].meter_points[0].identifier = accountFor(
      'TX',
      ++n,
    ).supply_addresses[0].meter_points[0].identifier;
    await t.app.inject({
      method: 'POST',
      url: '/v2/data-import/accounts/',
      headers,
      payload: {
        payload: staged,
        task_params: { schedule_window_start: new Date(Date.now() + 3600e3).toISOString() },
      },
    });
    for (const ext of [staged.external_account_number, 'NO-SUCH-ACCOUNT']) {
      const res = await post(ext, [tx('x')]);
      assert.equal(res.statusCode, 404, ext);
      assert.equal(res.json().code, 'not_found');
    }
  });

  it('50 concurrent identical requests add each transaction exactly once', async () => {
    const ext = await importedAccount();
    const batch = [
      tx('c1', { amount: '2.00' }),
      tx('c2', { amount: '3.00', type: 'CHARGE', reason: 'IMPORTED_CHARGE' }),
    ];
    const results = await Promise.all(Array.from({ length: 50 }, () => post(ext, batch)));
    assert.ok(
      results.every((r) => r.statusCode === 201),
      results.map((r) => r.statusCode).join(','),
    );
    const added = results
      .flatMap((r) => r.json().results)
      .filter((r: { status: string }) => r.status === 'TRANSACTION_ADDED_TO_ACCOUNT');
    assert.equal(added.length, 2);
    assert.deepEqual(await account(ext), { balance: '29.00', transactions: 2, pinned: 0 });
  });

  it('adds a repeated transaction again when the client sends check_previously_added=false', async () => {
    const ext = await importedAccount();
    assert.equal((await post(ext, [tx('again')])).statusCode, 201);
    const res = await post(ext, [tx('again')], '?check_previously_added=false');
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().results[0].status, 'TRANSACTION_ADDED_TO_ACCOUNT');
    assert.deepEqual(await account(ext), { balance: '55.00', transactions: 2, pinned: 0 });
    const checked = await post(ext, [tx('again')]);
    assert.equal(checked.json().results[0].status, 'TRANSACTION_ALREADY_EXISTS');
  });

  it('never moves a forced transaction after today: an open period starting tomorrow refuses it', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const a = accountFor('TX', ++n);
    const ledger = a.ledgers[0];
    ledger.last_statement_closing_date = today; // the open period starts tomorrow
    ledger.last_statement_issue_date = today;
    ledger.current_statement_transactions = [];
    ledger.ledger_balance = ledger.last_statement_balance;
    a.transfer_balance = ledger.last_statement_balance;
    const [ext] = await importAccounts(t, headers, [a]);
    const res = await post(
      ext,
      [tx('late', { transaction_date: today })],
      '?force_add_to_current_statement=true',
    );
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().code, 'transaction_in_future');
    assert.equal((await account(ext)).transactions, 0);
  });
});
