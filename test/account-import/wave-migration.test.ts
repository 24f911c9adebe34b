/**
 * A wave migrated, reconciled against the source system's figures, fixed, and approved (decisions
 * 0069, 0070): the reconciliation names exactly the accounts that differ, with their measures and
 * exact differences; approval is refused while anything differs; and only once it is clean and
 * approved do the customers' welcome e-mails reach the SMTP server (real, on loopback), each once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountFor } from '../helpers/account-fixtures.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../helpers/smtp-test-server.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { money, pence, postPayment, storedFigures } from '../helpers/waves.ts';
import { startTestOutboxSender } from '../helpers/welcome-outbox.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

const SUPPLIER = 'MIGRATING';
const WAVE = '2026-11-wave-1';
const ACCOUNTS = 300;
/** Held back from the first push: the source has it, Ferry does not (missing). */
const HELD_BACK = 300;
/** Left out of the source's first export: Ferry has it, the source's figures do not (unexpected). */
const FORGOTTEN = 299;
/** The source's balances include a payment of 5.00 the supplier has not sent yet (differing). */
const UNPAID = [1, 2, 3];

const account = (n: number): Obj => {
  const a = accountFor(SUPPLIER, n);
  a.customers[0].email = `customer${n}@migrating.example`;
  return a;
};
const ext = (n: number) => String(account(n).external_account_number);

describe(`a wave of ${ACCOUNTS} accounts, reconciled to the penny before customers hear`, () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let smtp: SmtpTestServer;
  let sender: { stop(): Promise<void> };

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' });
    smtp = await startSmtpTestServer();
    ({ headers } = await tokenFor(t.app, [SUPPLIER]));
    await admin(
      t.app,
      'PATCH',
      `/import-suppliers/${SUPPLIER}/`,
      { config: { send_welcome_emails: true, hold_welcome_emails: true } },
      200,
    );
    sender = startTestOutboxSender(t.db, smtp.url);
  });
  after(async () => {
    await sender?.stop();
    await smtp?.close();
    await t?.close();
  });

  const pushWave = async (ns: number[]) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v2/data-import/accounts/bulk/',
      headers: { ...headers, 'content-type': 'application/x-ndjson' },
      payload: ns.map((n) => JSON.stringify({ payload: account(n), task_params: { wave: WAVE } })).join('\n'),
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(new Set(res.json().results.map((r: Obj) => r.status)), new Set([201]));
    await runWorkerUntilIdle(t.config, t.db, { timeoutMs: 120_000 });
  };
  const pay = async (n: number, id: string, amount: string) => {
    const res = await postPayment(t.app, headers, { supplier: SUPPLIER, external: ext(n) }, id, amount);
    assert.equal(res.statusCode, 201, res.body);
  };
  const stored = () => storedFigures(t.db, SUPPLIER);
  const upload = async (lines: Obj[]) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/v2/data-import/waves/${SUPPLIER}/${WAVE}/expectations/`,
      headers: { ...headers, 'content-type': 'application/x-ndjson' },
      payload: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { accounts: lines.length });
  };
  const reconciliation = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v2/data-import/waves/${SUPPLIER}/${WAVE}/reconciliation/`,
      headers,
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const differences = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/v2/data-import/waves/${SUPPLIER}/${WAVE}/reconciliation/differences/`,
      headers,
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.body
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  };
  const approve = () =>
    t.app.inject({
      method: 'POST',
      url: `/admin/v1/waves/${SUPPLIER}/${WAVE}/approve/`,
      headers: { authorization: 'Bearer test-operator-key-0123456789' },
      payload: {},
    });
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('names exactly the differing, missing and unexpected accounts; approval waits until they are fixed', async () => {
    const all = Array.from({ length: ACCOUNTS }, (_, i) => i + 1);
    await pushWave(all.filter((n) => n !== HELD_BACK));
    // Follow-ups after the migration: the first 20 accounts get a payment each.
    for (const n of all.slice(0, 20)) await pay(n, `after-migration-${n}`, '1.10');

    // The source system's figures: what Ferry stores, except the three unpaid balances, the
    // account Ferry lacks, and the account the export forgot.
    const figures = await stored();
    const source = (n: number): Obj => {
      const s = figures.get(ext(n)) as Obj;
      if (!UNPAID.includes(n)) return s;
      return {
        ...s,
        ledger_balance: money(pence(s.ledger_balance) + 500n),
        transactions: s.transactions + 1,
        transactions_total: money(pence(s.transactions_total) + 500n),
        // The payment Ferry lacks adds to the source's signed net as it does to its balance.
        transactions_net: money(pence(s.transactions_net) + 500n),
      };
    };
    const heldBackMeterPoints = account(HELD_BACK).supply_addresses.reduce(
      (k: number, a: Obj) => k + a.meter_points.length,
      0,
    );
    await upload(
      all
        .filter((n) => n !== FORGOTTEN)
        .map((n) =>
          n === HELD_BACK
            ? { external_account_number: ext(n), meter_points: heldBackMeterPoints }
            : source(n),
        ),
    );

    const first = await reconciliation();
    assert.equal(first.status, 'differences');
    assert.deepEqual(first.accounts, {
      expected: ACCOUNTS - 1,
      imported: ACCOUNTS - 1,
      matched: ACCOUNTS - 1 - UNPAID.length - 1,
      differing: UNPAID.length,
      missing: 1,
      unexpected: 1,
    });
    const total = (m: string) => first.totals.find((x: Obj) => x.measure === m);
    const forgotten = figures.get(ext(FORGOTTEN)) as Obj;
    assert.equal(
      total('ledger_balance').difference,
      money(pence(forgotten.ledger_balance) - 500n * BigInt(UNPAID.length)),
      'stored minus expected: the forgotten account counts on one side, the unpaid 5.00s on the other',
    );
    assert.equal(total('transactions').difference, forgotten.transactions - UNPAID.length);

    const expectedDifferences = [
      ...UNPAID.map((n) => {
        const s = figures.get(ext(n)) as Obj;
        return {
          external_account_number: ext(n),
          kind: 'differing',
          measures: [
            {
              measure: 'ledger_balance',
              expected: money(pence(s.ledger_balance) + 500n),
              stored: s.ledger_balance,
            },
            { measure: 'transactions', expected: s.transactions + 1, stored: s.transactions },
            {
              measure: 'transactions_total',
              expected: money(pence(s.transactions_total) + 500n),
              stored: s.transactions_total,
            },
            {
              measure: 'transactions_net',
              expected: money(pence(s.transactions_net) + 500n),
              stored: s.transactions_net,
            },
          ],
        };
      }),
      {
        external_account_number: ext(FORGOTTEN),
        kind: 'unexpected',
        measures: [
          'ledger_balance',
          'meter_points',
          'transactions',
          'transactions_total',
          'transactions_net',
        ].map((measure) => ({
          measure,
          expected: null,
          stored: forgotten[measure],
        })),
      },
      {
        external_account_number: ext(HELD_BACK),
        kind: 'missing',
        measures: [{ measure: 'meter_points', expected: heldBackMeterPoints, stored: null }],
      },
    ].sort((a, b) => (a.external_account_number < b.external_account_number ? -1 : 1));
    assert.deepEqual(await differences(), expectedDifferences);

    const refused = await approve();
    assert.equal(refused.statusCode, 409, refused.body);
    assert.equal(refused.json().code, 'reconciliation_differences');
    await wait(500);
    assert.equal(smtp.received.length, 0, 'no customer hears before approval');

    // The supplier fixes its side: the three payments, the held-back account, the forgotten line.
    for (const n of UNPAID) await pay(n, `unpaid-${n}`, '5.00');
    await pushWave([HELD_BACK]);
    const now = await stored();
    await upload(all.map((n) => (UNPAID.includes(n) ? source(n) : (now.get(ext(n)) as Obj))));
    const clean = await reconciliation();
    assert.equal(clean.status, 'matched');
    assert.deepEqual(clean.accounts, {
      expected: ACCOUNTS,
      imported: ACCOUNTS,
      matched: ACCOUNTS,
      differing: 0,
      missing: 0,
      unexpected: 0,
    });
    assert.deepEqual(await differences(), []);
    await wait(300);
    assert.equal(smtp.received.length, 0, 'still no customer has heard');

    const approved = await approve();
    assert.equal(approved.statusCode, 200, approved.body);
    const deadline = Date.now() + 60_000;
    while (smtp.received.length < ACCOUNTS && Date.now() < deadline) await wait(50);
    await wait(500); // anything sent twice would arrive by now
    const recipients = smtp.received.map((m) => m.to[0]).sort();
    assert.equal(recipients.length, ACCOUNTS, 'each customer once');
    assert.deepEqual(recipients, all.map((n) => `customer${n}@migrating.example`).sort());
  });
});
