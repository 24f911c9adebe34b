/**
 * Waves (decision 0069): task_params.wave puts a process in a wave of its supplier, the supplier
 * uploads the source system's figures for the wave, and the reconciliation compares them, exactly,
 * with what Ferry stores — follow-up transactions included.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { money, pence, postPayment, storedFigures } from '../helpers/waves.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

const SUPPLIER = 'WAVES';
const WAVES = `/v2/data-import/waves/${SUPPLIER}/`;

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

/** Adds `more` pence (signed) to a decimal string, exactly, as "12.30". */
const plus = (amount: string, more: bigint) => money(pence(amount) + more);

describe('waves: scheduling, expectations and reconciliation', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let otherHeaders: Record<string, string>;

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' });
    ({ headers } = await tokenFor(t.app, [SUPPLIER]));
    ({ headers: otherHeaders } = await tokenFor(t.app, ['WAVES_OTHER']));
  });
  after(() => t.close());

  const schedule = (account: Obj, wave?: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/v2/data-import/accounts/',
      headers,
      payload: wave === undefined ? account : { payload: account, task_params: { wave } },
    });
  const upload = (wave: string, lines: string[], as = headers) =>
    t.app.inject({
      method: 'PUT',
      url: `${WAVES}${wave}/expectations/`,
      headers: { ...as, 'content-type': 'application/x-ndjson' },
      payload: `${lines.join('\n')}\n`,
    });
  const reconciliation = async (wave: string) =>
    t.app.inject({ method: 'GET', url: `${WAVES}${wave}/reconciliation/`, headers });
  const differences = async (wave: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${WAVES}${wave}/reconciliation/differences/`,
      headers,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /application\/x-ndjson/);
    return res.body
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  };
  const stored = async (external: string) => (await storedFigures(t.db, SUPPLIER)).get(external) as Obj;

  it('refuses a wave name outside 1–64 of A-Z a-z 0-9 . _ -, at task_params.wave', async () => {
    for (const wave of ['', 'a b', 'x'.repeat(65), 'é', 7]) {
      const res = await schedule(accountFor(SUPPLIER, 1), wave);
      assert.equal(res.statusCode, 400, `${JSON.stringify(wave)}: ${res.body}`);
      assert.deepEqual(
        res.json().errors.map((e: Obj) => e.attr),
        ['task_params.wave'],
      );
    }
    const count = await t.db.query<{ n: number }>(sql('', 'SELECT count(*)::int AS n FROM import_processes'));
    assert.equal(count.rows[0].n, 0);
  });

  it('puts a process in the wave it was last scheduled in, and lists waves with their states', async () => {
    assert.equal((await schedule(accountFor(SUPPLIER, 1), 'w-1')).statusCode, 201);
    assert.equal((await schedule(accountFor(SUPPLIER, 2), 'w-1')).statusCode, 201);
    assert.equal((await schedule(accountFor(SUPPLIER, 3), 'w-2')).statusCode, 201);
    assert.equal((await schedule(accountFor(SUPPLIER, 3), 'w-1')).statusCode, 201, 'moved to w-1');
    const bulk = await t.app.inject({
      method: 'POST',
      url: '/v2/data-import/accounts/bulk/',
      headers: { ...headers, 'content-type': 'application/x-ndjson' },
      payload: [4, 5]
        .map((n) => JSON.stringify({ payload: accountFor(SUPPLIER, n), task_params: { wave: 'w-1' } }))
        .join('\n'),
    });
    assert.equal(bulk.statusCode, 200, bulk.body);
    assert.deepEqual(
      bulk.json().results.map((r: Obj) => r.status),
      [201, 201],
    );
    const list = await t.app.inject({ method: 'GET', url: WAVES, headers });
    assert.equal(list.statusCode, 200, list.body);
    assert.deepEqual(
      list.json().results.map((w: Obj) => [w.wave, w.processes]),
      [['w-1', { PENDING: 5 }]],
    );
    await runWorkerUntilIdle(t.config, t.db);
    const after = await t.app.inject({ method: 'GET', url: WAVES, headers });
    assert.deepEqual(after.json().results[0].processes, { PROCESSED: 5 });
  });

  it('refuses a bad upload whole, naming every bad line, and keeps the previous one', async () => {
    const good = [
      JSON.stringify({ external_account_number: accountFor(SUPPLIER, 1).external_account_number }),
    ];
    assert.deepEqual((await upload('w-1', good)).json(), { accounts: 1 });
    const res = await upload('w-1', [
      '{"external_account_number": "A"}',
      'not json',
      '{"external_account_number": "B", "ledger_balance": 12.5}',
      '',
      '{"external_account_number": "A"}',
      '{"ledger_balance": "1.234", "meter_points": -1, "colour": "red"}',
    ]);
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().code, 'validation_error');
    assert.deepEqual(
      res.json().errors.map((e: Obj) => `${e.attr}:${e.code}`),
      [
        '2:invalid_expectation_line',
        '3.ledger_balance:invalid_amount',
        '5.external_account_number:repeated_external_account_number',
        '6.colour:unknown_field',
        '6.external_account_number:required',
        '6.ledger_balance:invalid_amount',
        '6.meter_points:invalid',
      ],
    );
    const kept = await t.db.query<{ n: number }>(
      sql('', "SELECT count(*)::int AS n FROM wave_expectations WHERE wave = 'w-1'"),
    );
    assert.equal(kept.rows[0].n, 1, 'the previous upload stands');
  });

  it('reconciles to the penny: matched, differing with each measure, missing and unexpected', async () => {
    const ext = (n: number) => accountFor(SUPPLIER, n).external_account_number;
    const s = await Promise.all([1, 2, 3, 4, 5].map((n) => stored(ext(n))));
    const line = (n: number, fields: Obj = {}) =>
      JSON.stringify({ external_account_number: ext(n), ...s[n - 1], ...fields });
    const uploaded = await upload('w-1', [
      line(1),
      line(2, { ledger_balance: plus(s[1].ledger_balance, 1n) }),
      line(3, {
        meter_points: s[2].meter_points + 1,
        transactions_total: plus(s[2].transactions_total, -250n),
      }),
      line(4, { ledger_balance: undefined, transactions: undefined }),
      JSON.stringify({ external_account_number: 'NOT-IMPORTED', ledger_balance: '10.00', meter_points: 1 }),
    ]);
    assert.deepEqual(uploaded.json(), { accounts: 5 });
    const r = await reconciliation('w-1');
    assert.equal(r.statusCode, 200, r.body);
    const body = r.json();
    assert.equal(body.status, 'differences');
    assert.deepEqual(body.accounts, {
      expected: 5,
      imported: 5,
      matched: 2,
      differing: 2,
      missing: 1,
      unexpected: 1,
    });
    const total = (m: string) => body.totals.find((x: Obj) => x.measure === m);
    assert.deepEqual(total('accounts'), { measure: 'accounts', expected: 5, stored: 5, difference: 0 });
    // Exactly: the stored sum and the expected sum, each added up here from the figures read above.
    const sum = (xs: string[]) => xs.reduce((a, x) => plus(a, pence(x)), '0.00');
    const storedBalances = sum(s.map((x) => x.ledger_balance));
    const expectedBalances = sum([
      s[0].ledger_balance,
      plus(s[1].ledger_balance, 1n),
      s[2].ledger_balance,
      '10.00',
    ]);
    assert.equal(total('ledger_balance').stored, storedBalances);
    assert.equal(total('ledger_balance').expected, expectedBalances);
    assert.equal(total('ledger_balance').difference, plus(storedBalances, -pence(expectedBalances)));
    const expectedMeterPoints =
      s[0].meter_points + s[1].meter_points + s[2].meter_points + 1 + s[3].meter_points + 1;
    const storedMeterPoints = s.reduce((a: number, x: Obj) => a + x.meter_points, 0);
    assert.deepEqual(total('meter_points'), {
      measure: 'meter_points',
      expected: expectedMeterPoints,
      stored: storedMeterPoints,
      difference: storedMeterPoints - expectedMeterPoints,
    });

    assert.deepEqual(
      await differences('w-1'),
      [
        {
          external_account_number: ext(2),
          kind: 'differing',
          measures: [
            {
              measure: 'ledger_balance',
              expected: plus(s[1].ledger_balance, 1n),
              stored: s[1].ledger_balance,
            },
          ],
        },
        {
          external_account_number: ext(3),
          kind: 'differing',
          measures: [
            { measure: 'meter_points', expected: s[2].meter_points + 1, stored: s[2].meter_points },
            {
              measure: 'transactions_total',
              expected: plus(s[2].transactions_total, -250n),
              stored: s[2].transactions_total,
            },
          ],
        },
        {
          external_account_number: ext(5),
          kind: 'unexpected',
          measures: [
            { measure: 'ledger_balance', expected: null, stored: s[4].ledger_balance },
            { measure: 'meter_points', expected: null, stored: s[4].meter_points },
            { measure: 'transactions', expected: null, stored: s[4].transactions },
            { measure: 'transactions_total', expected: null, stored: s[4].transactions_total },
            { measure: 'transactions_net', expected: null, stored: s[4].transactions_net },
          ],
        },
        {
          external_account_number: 'NOT-IMPORTED',
          kind: 'missing',
          measures: [
            { measure: 'ledger_balance', expected: '10.00', stored: null },
            { measure: 'meter_points', expected: 1, stored: null },
          ],
        },
      ].sort((a, b) => (a.external_account_number < b.external_account_number ? -1 : 1)),
    );
  });

  it('follows the stored records: a follow-up transaction moves the reconciled balance', async () => {
    const ext = accountFor(SUPPLIER, 1).external_account_number;
    const before = await stored(ext);
    const res = await postPayment(
      t.app,
      headers,
      { supplier: SUPPLIER, external: ext },
      'wave-fix-1',
      '7.77',
    );
    assert.equal(res.statusCode, 201, res.body);
    const now = await stored(ext);
    assert.notEqual(now.ledger_balance, before.ledger_balance);
    const d = (await differences('w-1')).find((x: Obj) => x.external_account_number === ext);
    assert.deepEqual(d, {
      external_account_number: ext,
      kind: 'differing',
      measures: [
        { measure: 'ledger_balance', expected: before.ledger_balance, stored: now.ledger_balance },
        { measure: 'transactions', expected: before.transactions, stored: before.transactions + 1 },
        {
          measure: 'transactions_total',
          expected: before.transactions_total,
          stored: plus(before.transactions_total, 777n),
        },
        // A payment adds to the balance: the signed net moves by +7.77 as the balance does.
        {
          measure: 'transactions_net',
          expected: before.transactions_net,
          stored: plus(before.transactions_net, 777n),
        },
      ],
    });
  });

  it('answers 404 for an unknown wave or supplier, and 403 outside the key’s suppliers', async () => {
    assert.equal((await reconciliation('no-such-wave')).statusCode, 404);
    const unknown = await t.app.inject({ method: 'GET', url: '/v2/data-import/waves/NOPE/', headers });
    assert.ok([403, 404].includes(unknown.statusCode), unknown.body);
    const outside = await t.app.inject({
      method: 'GET',
      url: `${WAVES}w-1/reconciliation/`,
      headers: otherHeaders,
    });
    assert.equal(outside.statusCode, 403);
    assert.equal((await upload('w-1', ['{}'], otherHeaders)).statusCode, 403);
    const badWave = await t.app.inject({ method: 'GET', url: `${WAVES}bad%20wave/reconciliation/`, headers });
    assert.equal(badWave.statusCode, 400);
  });
});
