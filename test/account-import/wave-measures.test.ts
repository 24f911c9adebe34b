/**
 * A wave's measures and what narrows them (decision 0082, issue 37): `transactions_net`, the
 * signed sum a finance team keeps, beside the unsigned `transactions_total`; the differences
 * filtered by kind and measure, counted first in the summary; a wave's status as the last act on
 * it (a re-push after a rollback, then an approval); one answer for a bad wave name on every
 * wave route; and who approved.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waveDifferences } from '../../src/account-import/waves/reconciliation.queries.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { money, pence, postPayment, scheduleInWave, storedFigures } from '../helpers/waves.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

const SUPPLIER = 'MEASURES';
const WAVES = `/v2/data-import/waves/${SUPPLIER}/`;

/**
 * The source system's signed net of an account, from the payload it sent (every ledger's and the
 * account-level lists, historical and current): payments and credits add, everything else
 * subtracts. Worked out here from the payload, not read from what Ferry stored.
 */
function sourceNet(account: Obj): bigint {
  const holders = [account, ...(account.ledgers ?? [])];
  let net = 0n;
  for (const h of holders) {
    for (const key of ['historical_statement_transactions', 'current_statement_transactions']) {
      for (const t of h[key] ?? []) {
        const amount = pence(String(t.amount));
        net += t.type === 'PAYMENT' || t.type === 'CREDIT' ? amount : -amount;
      }
    }
  }
  return net;
}

describe('wave measures, filters, status and names', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  const book = [1, 2, 3].map((n) => accountFor(SUPPLIER, n));
  const ext = (i: number) => book[i].external_account_number as string;

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' });
    ({ headers } = await tokenFor(t.app, [SUPPLIER]));
  });
  after(() => t.close());

  const upload = (wave: string, lines: Obj[]) =>
    t.app.inject({
      method: 'PUT',
      url: `${WAVES}${wave}/expectations/`,
      headers: { ...headers, 'content-type': 'application/x-ndjson' },
      payload: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`,
    });
  const reconciliation = async (wave: string): Promise<Obj> => {
    const res = await t.app.inject({ method: 'GET', url: `${WAVES}${wave}/reconciliation/`, headers });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const differences = async (wave: string, q = '') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${WAVES}${wave}/reconciliation/differences/${q}`,
      headers,
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.body
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Obj);
  };
  const listed = async (wave: string) => {
    const res = await t.app.inject({ method: 'GET', url: WAVES, headers });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().results.find((w: Obj) => w.wave === wave) as Obj;
  };

  it('reconciles signed source nets with 0 differences against transactions_net, not against transactions_total', async () => {
    await scheduleInWave(t.app, headers, book, 'NET');
    await runWorkerUntilIdle(t.config, t.db);
    // A follow-up payment moves one account's net (and its balance) by +7.77.
    const paid = await postPayment(t.app, headers, { supplier: SUPPLIER, external: ext(0) }, 'net-1', '7.77');
    assert.equal(paid.statusCode, 201, paid.body);
    const nets = book.map((a, i) => money(sourceNet(a) + (i === 0 ? 777n : 0n)));
    assert.notEqual(nets[0], nets[1], 'the follow-up makes the accounts differ');

    const signed = await upload(
      'NET',
      book.map((a, i) => ({ external_account_number: a.external_account_number, transactions_net: nets[i] })),
    );
    assert.equal(signed.statusCode, 200, signed.body);
    const clean = await reconciliation('NET');
    assert.equal(clean.status, 'matched');
    assert.deepEqual(clean.accounts, {
      expected: 3,
      imported: 3,
      matched: 3,
      differing: 0,
      missing: 0,
      unexpected: 0,
    });
    const net = clean.totals.find((x: Obj) => x.measure === 'transactions_net');
    const sum = money(nets.reduce((s, n) => s + pence(n), 0n));
    assert.deepEqual(net, { measure: 'transactions_net', expected: sum, stored: sum, difference: '0.00' });
    assert.deepEqual(await differences('NET'), []);
    // What the test computed from the payloads is what plain SQL over the stored rows says too.
    const stored = await storedFigures(t.db, SUPPLIER);
    assert.deepEqual(
      book.map((a) => stored.get(a.external_account_number)?.transactions_net),
      nets,
    );

    // The same signed figures taken for the unsigned sum: every account differs.
    await upload(
      'NET',
      book.map((a, i) => ({
        external_account_number: a.external_account_number,
        transactions_total: nets[i],
      })),
    );
    const unsigned = await reconciliation('NET');
    assert.equal(unsigned.accounts.differing, 3);
    assert.deepEqual(unsigned.differing_measures, {
      ledger_balance: 0,
      meter_points: 0,
      transactions: 0,
      transactions_total: 3,
      transactions_net: 0,
    });
  });

  it('refuses a transactions_net that is not money, at its line', async () => {
    const res = await upload('NET', [{ external_account_number: ext(0), transactions_net: 5.5 }]);
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(
      res.json().errors.map((e: Obj) => `${e.attr}:${e.code}`),
      ['1.transactions_net:invalid_amount'],
    );
  });

  it('filters the differences by kind and measure, counted first in the summary', async () => {
    const s = await storedFigures(t.db, SUPPLIER);
    const figures = (i: number) => {
      const { ledger_balance, meter_points, transactions, transactions_total, transactions_net } = s.get(
        ext(i),
      ) as Obj;
      return {
        external_account_number: ext(i),
        ledger_balance,
        meter_points,
        transactions,
        transactions_total,
        transactions_net,
      };
    };
    const res = await upload('NET', [
      { ...figures(0), ledger_balance: '0.01', transactions_net: '0.01' },
      { ...figures(1), meter_points: 99 },
      // ext(2) is left out: unexpected. One account never imported: missing.
      { external_account_number: 'NEVER-IMPORTED', ledger_balance: '1.00' },
    ]);
    assert.equal(res.statusCode, 200, res.body);
    const summary = await reconciliation('NET');
    assert.deepEqual(summary.accounts, {
      expected: 3,
      imported: 3,
      matched: 0,
      differing: 2,
      missing: 1,
      unexpected: 1,
    });
    assert.deepEqual(summary.differing_measures, {
      ledger_balance: 1,
      meter_points: 1,
      transactions: 0,
      transactions_total: 0,
      transactions_net: 1,
    });
    const names = (ds: Obj[]) => ds.map((d) => `${d.external_account_number}:${d.kind}`);
    assert.deepEqual(names(await differences('NET')), [
      `${ext(0)}:differing`,
      `${ext(1)}:differing`,
      `${ext(2)}:unexpected`,
      'NEVER-IMPORTED:missing',
    ]);
    assert.deepEqual(names(await differences('NET', '?kind=missing')), ['NEVER-IMPORTED:missing']);
    assert.deepEqual(names(await differences('NET', '?kind=unexpected')), [`${ext(2)}:unexpected`]);
    assert.deepEqual(names(await differences('NET', '?measure=meter_points')), [`${ext(1)}:differing`]);
    assert.deepEqual(names(await differences('NET', '?kind=differing&measure=transactions_net')), [
      `${ext(0)}:differing`,
    ]);
    assert.deepEqual(await differences('NET', '?kind=missing&measure=ledger_balance'), []);
    // Pages of one account still find every kept account: the filter runs before each page's limit.
    const paged: string[] = [];
    for await (const d of waveDifferences(t.db, SUPPLIER, 'NET', { kind: 'differing', pageSize: 1 }))
      paged.push(d.external_account_number);
    assert.deepEqual(paged, [ext(0), ext(1)]);
    for (const [q, attr] of [
      ['?kind=lost', 'kind'],
      ['?measure=accounts', 'measure'],
      ['?measure=colour', 'measure'],
      ['?colour=red', 'colour'],
    ]) {
      const bad = await t.app.inject({
        method: 'GET',
        url: `${WAVES}NET/reconciliation/differences/${q}`,
        headers,
      });
      assert.equal(bad.statusCode, 400, `${q}: ${bad.body}`);
      assert.equal(bad.json().code, 'validation_error');
      assert.deepEqual(
        bad.json().errors.map((e: Obj) => e.attr),
        [attr],
        q,
      );
    }
  });

  it('takes the last act for the status: rolled back, then pushed again, reconciled and approved', async () => {
    const book = [4, 5, 6].map((n) => accountFor(SUPPLIER, n));
    await scheduleInWave(t.app, headers, book, 'AGAIN');
    await runWorkerUntilIdle(t.config, t.db);
    await admin(t.app, 'POST', `/waves/${SUPPLIER}/AGAIN/rollback/`, {}, 200);
    assert.equal((await reconciliation('AGAIN')).status, 'rolled_back');
    assert.equal((await listed('AGAIN')).status, 'rolled_back');

    await scheduleInWave(t.app, headers, book, 'AGAIN');
    assert.equal((await listed('AGAIN')).status, 'open', 'pushed again: the rollback is history');
    assert.equal((await reconciliation('AGAIN')).status, 'no_expectations');
    await runWorkerUntilIdle(t.config, t.db);
    const s = await storedFigures(t.db, SUPPLIER);
    await upload(
      'AGAIN',
      book.map((a) => ({ ...s.get(a.external_account_number) })),
    );
    const matched = await reconciliation('AGAIN');
    assert.equal(matched.status, 'matched');
    assert.ok(matched.rolled_back_at, 'the rollback stays on record');

    const approved = await admin<Obj>(
      t.app,
      'POST',
      `/waves/${SUPPLIER}/AGAIN/approve/`,
      { approved_by: 'Dana Ortiz' },
      200,
    );
    assert.equal(approved.approved_by, 'Dana Ortiz');
    assert.equal((await reconciliation('AGAIN')).status, 'approved');
    const row = await listed('AGAIN');
    assert.equal(row.status, 'approved');
    assert.ok(row.approved_at && row.rolled_back_at, 'both acts stay on record');
  });

  it('records "operator" as the approver when no name is given, and refuses a blank one', async () => {
    await scheduleInWave(t.app, headers, [accountFor(SUPPLIER, 9)], 'NAMELESS');
    await runWorkerUntilIdle(t.config, t.db);
    await admin(t.app, 'POST', `/waves/${SUPPLIER}/NAMELESS/approve/`, { force: true, approved_by: '' }, 400);
    const approved = await admin<Obj>(
      t.app,
      'POST',
      `/waves/${SUPPLIER}/NAMELESS/approve/`,
      { force: true },
      200,
    );
    assert.equal(approved.approved_by, 'operator');
  });

  it('answers a bad wave name alike on every wave route: 400 invalid_wave at wave, readable', async () => {
    const supplierRoutes = ['reconciliation/', 'reconciliation/differences/', 'expectations/'];
    const answers: Obj[] = [];
    for (const wave of ['bad%20wave', '-leading-dash', 'x'.repeat(65)]) {
      for (const route of supplierRoutes) {
        const res = await t.app.inject({
          method: route === 'expectations/' ? 'PUT' : 'GET',
          url: `${WAVES}${wave}/${route}`,
          headers: { ...headers, 'content-type': 'application/x-ndjson' },
          payload: route === 'expectations/' ? '{}\n' : undefined,
        });
        assert.equal(res.statusCode, 400, `${route} ${wave}: ${res.body}`);
        answers.push(res.json());
      }
      for (const act of ['approve', 'rollback']) {
        answers.push(await admin<Obj>(t.app, 'POST', `/waves/${SUPPLIER}/${wave}/${act}/`, {}, 400));
      }
    }
    for (const body of answers) {
      assert.equal(body.code, 'validation_error');
      assert.deepEqual(body.errors, [
        {
          attr: 'wave',
          code: 'invalid_wave',
          detail: 'A wave is 1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or digit.',
        },
      ]);
    }
  });
});
