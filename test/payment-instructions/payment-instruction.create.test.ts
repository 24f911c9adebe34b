import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startVendorSimulator, type VendorSimulator } from '../../dev/vendor-simulator/vendor-simulator.ts';
import {
  simulatedMandate,
  simulatedPaymentMethod,
} from '../../dev/vendor-simulator/vendor-simulator-records.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { importAccounts, stageAccount } from '../helpers/imported-accounts.ts';
import { buildTestAppOn, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

const URL_CREATE = '/v1/data-import/payment-instruction/create/';
const SUPPLIER = 'ACME';
const REQUEST_TIMEOUT_MS = 9000;
const ext = (n: number) => `EXT-${String(n).padStart(7, '0')}`;

const rowsOf = sql(
  '',
  `SELECT p.vendor, p.type, p.reference, p.status, p.active, p.details
     FROM payment_instructions p JOIN accounts a ON a.id = p.account_id
    WHERE a.import_supplier = $1 AND a.external_account_number = $2
    ORDER BY p.id`,
);

describe('POST /v1/data-import/payment-instruction/create/', () => {
  let sim: VendorSimulator;
  let t: TestApp;
  let headers: Record<string, string>;
  const numbers = new Map<string, string>();

  before(async () => {
    sim = await startVendorSimulator();
    // Vendor timeout = a third of the request timeout = 3 s: short of the simulator's 4–5 s delays,
    // long enough for 50 concurrent calls on a loaded machine.
    t = await createTestApp({ ...sim.env, REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) });
    ({ headers } = await tokenFor(t.app, ['*'], [SUPPLIER, 'TENTACLE_ENERGY']));
    const payloads = Array.from({ length: 9 }, (_, i) => accountFor(SUPPLIER, i + 1));
    const example = accountFor('TENTACLE_ENERGY', 50);
    example.external_account_number = 'EXTERNAL-1234';
    await importAccounts(t, headers, [...payloads, example]);
    for (const a of payloads) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v1/data-import/account-transfer-status/${SUPPLIER}/${a.external_account_number}/`,
        headers,
      });
      assert.equal(res.json().status, 'COMPLETED', res.body);
      numbers.set(a.external_account_number, res.json().service_account_number);
    }
    // Staged only: scheduled after the worker ran, so never created.
    await stageAccount(t, headers, accountFor(SUPPLIER, 99));
  });
  after(async () => {
    await t?.close();
    await sim?.close();
  });

  const create = (body: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: URL_CREATE, headers, payload: body });
  const body = (n: number, vendor: string, reference: string, type: string) => ({
    import_supplier: SUPPLIER,
    external_account_number: ext(n),
    vendor,
    reference,
    type,
  });
  const rows = async (n: number, supplier = SUPPLIER) =>
    (await t.db.query<Record<string, unknown>>(rowsOf, [supplier, ext(n)])).rows;
  const expectError = async (b: Record<string, unknown>, status: number, code: string) => {
    const res = await create(b);
    assert.equal(res.statusCode, status, `${JSON.stringify(b)} → ${res.body}`);
    assert.equal(res.json().code, code, res.body);
    assert.equal(typeof res.json().detail, 'string');
    return res;
  };

  it('stores a GoCardless mandate with its details, and answers a repeat with the same 201', async () => {
    const res = await create(body(1, 'GOCARDLESS', 'MD000SIMACTIVE', 'DIRECT_DEBIT'));
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json(), {
      service_account_number: numbers.get(ext(1)),
      reference: 'MD000SIMACTIVE',
    });
    const again = await create(body(1, 'GOCARDLESS', 'MD000SIMACTIVE', 'DIRECT_DEBIT'));
    assert.equal(again.statusCode, 201, again.body);
    assert.deepEqual(again.json(), res.json());
    const stored = await rows(1);
    assert.equal(stored.length, 1);
    assert.equal(stored[0].vendor, 'GOCARDLESS');
    assert.equal(stored[0].type, 'DIRECT_DEBIT');
    assert.equal(stored[0].status, 'active');
    assert.equal(stored[0].active, true);
    const details = stored[0].details as Record<string, unknown>;
    assert.equal(details.id, 'MD000SIMACTIVE');
    assert.equal(details.customer_id, 'CU000SIM0001');
    assert.equal(details.scheme, 'bacs');
    // The request carried the GoCardless version header.
    const seen = sim.requests().filter((r) => r.path === '/mandates/MD000SIMACTIVE');
    assert.ok(seen.length >= 1);
    assert.equal(seen[0].headers['gocardless-version'], '2015-07-06');
  });

  it('stores a Stripe card next to the direct debit (another type)', async () => {
    const res = await create(body(1, 'STRIPE', 'pm_sim_card_visa', 'CARD'));
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json(), {
      service_account_number: numbers.get(ext(1)),
      reference: 'pm_sim_card_visa',
    });
    const card = (await rows(1)).find((r) => r.vendor === 'STRIPE');
    assert.ok(card);
    assert.equal(card.type, 'CARD');
    assert.equal(card.active, true);
    const details = card.details as Record<string, Record<string, unknown>>;
    assert.equal(details.type as unknown, 'card');
    assert.equal(details.card.last4, '4242');
    assert.equal(details.card.brand, 'visa');
  });

  it('refuses another active instruction of the same type: account_has_active_instruction', async () => {
    await expectError(
      body(1, 'GOCARDLESS', 'MD000SIMPENDING', 'DIRECT_DEBIT'),
      400,
      'account_has_active_instruction',
    );
    await expectError(
      body(1, 'STRIPE', 'pm_sim_bacs_debit', 'DIRECT_DEBIT'),
      400,
      'account_has_active_instruction',
    );
    sim.setPaymentMethod(simulatedPaymentMethod('pm_other_card'));
    await expectError(body(1, 'STRIPE', 'pm_other_card', 'CARD'), 400, 'account_has_active_instruction');
    assert.equal((await rows(1)).length, 2);
    // The stored references still answer their 201.
    assert.equal((await create(body(1, 'STRIPE', 'pm_sim_card_visa', 'CARD'))).statusCode, 201);
  });

  it('stores a suspended mandate as not active; it does not block an active one', async () => {
    const suspended = await create(body(7, 'GOCARDLESS', 'MD000SIMSUSPENDED', 'DIRECT_DEBIT'));
    assert.equal(suspended.statusCode, 201, suspended.body);
    const active = await create(body(7, 'GOCARDLESS', 'MD000SIMACTIVE', 'DIRECT_DEBIT'));
    assert.equal(active.statusCode, 201, active.body);
    const stored = await rows(7);
    assert.deepEqual(
      stored.map((r) => [r.reference, r.status, r.active]),
      [
        ['MD000SIMSUSPENDED', 'suspended_by_payer', false],
        ['MD000SIMACTIVE', 'active', true],
      ],
    );
  });

  it('answers each permanent vendor failure with 400 and its code, storing nothing', async () => {
    const cases: [string, string, string, string][] = [
      ['GOCARDLESS', 'MD_FAIL_404', 'DIRECT_DEBIT', 'payment_instruction_not_found'],
      ['STRIPE', 'pm_fail_404', 'CARD', 'payment_instruction_not_found'],
      ['GOCARDLESS', 'MD_FAIL_422', 'DIRECT_DEBIT', 'payment_instruction_invalid'],
      ['STRIPE', 'pm_fail_400', 'CARD', 'payment_instruction_invalid'],
      ['GOCARDLESS', 'MD_FAIL_401', 'DIRECT_DEBIT', 'vendor_authentication_failed'],
      ['STRIPE', 'pm_fail_403', 'CARD', 'vendor_authentication_failed'],
      ['GOCARDLESS', 'MD000SIMCANCELLED', 'DIRECT_DEBIT', 'payment_instruction_inactive'],
      ['GOCARDLESS', 'MD000SIMEXPIRED', 'DIRECT_DEBIT', 'payment_instruction_inactive'],
      ['GOCARDLESS', 'MD_STATUS_CANCELLED', 'DIRECT_DEBIT', 'payment_instruction_inactive'],
      ['STRIPE', 'pm_sim_detached', 'CARD', 'payment_instruction_inactive'],
      ['STRIPE', 'pm_sim_expired_card', 'CARD', 'payment_instruction_inactive'],
      ['GOCARDLESS', 'MD000SIMACTIVE', 'CARD', 'payment_instruction_type_mismatch'],
      ['STRIPE', 'pm_sim_bacs_debit', 'CARD', 'payment_instruction_type_mismatch'],
      ['STRIPE', 'pm_sim_card_visa', 'DIRECT_DEBIT', 'payment_instruction_type_mismatch'],
      // The vendor decides whether a reference exists: no prefix checks (docs/product.md, Payment vendors).
      ['GOCARDLESS', 'not-a-mandate', 'DIRECT_DEBIT', 'payment_instruction_not_found'],
      ['STRIPE', 'THIS-IS-A-FAKE-REFERENCE', 'CARD', 'payment_instruction_not_found'],
      ['STRIPE', '..', 'CARD', 'invalid_payment_instruction_reference'],
    ];
    for (const [vendor, reference, type, code] of cases) {
      await expectError(body(3, vendor, reference, type), 400, code);
    }
    assert.equal((await rows(3)).length, 0);
  });

  it('answers a vendor that answers for another instruction with 400 payment_instruction_reference_mismatch, naming both', async () => {
    // The simulator's MD_OTHER / pm_other answer for MD000SIMOTHER / pm_sim_other over real HTTP.
    const cases: [string, string, string, string][] = [
      ['GOCARDLESS', 'MD_OTHER', 'DIRECT_DEBIT', 'MD000SIMOTHER'],
      ['STRIPE', 'pm_other', 'CARD', 'pm_sim_other'],
    ];
    for (const [vendor, reference, type, answered] of cases) {
      const before = sim.requests().length;
      const res = await expectError(
        body(3, vendor, reference, type),
        400,
        'payment_instruction_reference_mismatch',
      );
      assert.equal(sim.requests().length, before + 1, 'the vendor was asked, once');
      const out = res.json();
      assert.equal(out.vendor, vendor);
      assert.equal(out.reference, reference, 'the reference asked for');
      assert.equal(out.vendor_reference, answered, 'the instruction the vendor answered for');
      assert.ok(out.detail.includes(reference) && out.detail.includes(answered), out.detail);
      assert.equal(out.error_detail, out.detail);
    }
    assert.equal((await rows(3)).length, 0);
  });

  it('answers vendor_not_configured (400) when the vendor has no credentials', async () => {
    const { app } = await buildTestAppOn(t.db, {});
    try {
      for (const [vendor, reference, type] of [
        ['GOCARDLESS', 'MD000SIMACTIVE', 'DIRECT_DEBIT'],
        ['STRIPE', 'pm_sim_card_visa', 'CARD'],
      ]) {
        const res = await app.inject({
          method: 'POST',
          url: URL_CREATE,
          headers,
          payload: body(3, vendor, reference, type),
        });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().code, 'vendor_not_configured');
      }
    } finally {
      await app.close();
    }
    assert.equal((await rows(3)).length, 0);
  });

  it('answers each transient vendor failure with 500 vendor_unavailable, within the request timeout', async () => {
    const cases: [string, string, string][] = [
      ['GOCARDLESS', 'MD_FAIL_500', 'DIRECT_DEBIT'],
      ['GOCARDLESS', 'MD_FAIL_503', 'DIRECT_DEBIT'],
      ['STRIPE', 'pm_fail_502', 'CARD'],
      ['GOCARDLESS', 'MD_FAIL_429', 'DIRECT_DEBIT'],
      ['STRIPE', 'pm_fail_429', 'CARD'],
      ['GOCARDLESS', 'MD_RESET', 'DIRECT_DEBIT'],
      ['STRIPE', 'pm_reset', 'CARD'],
      ['GOCARDLESS', 'MD_SLOW_5000', 'DIRECT_DEBIT'],
      ['STRIPE', 'pm_slow_5000', 'CARD'],
    ];
    for (const [vendor, reference, type] of cases) {
      const started = Date.now();
      await expectError(body(4, vendor, reference, type), 500, 'vendor_unavailable');
      const took = Date.now() - started;
      assert.ok(took < REQUEST_TIMEOUT_MS, `${reference} took ${took} ms`);
    }
    assert.equal((await rows(4)).length, 0);
  });

  it('succeeds once when retried after the vendor recovers (5xx and timeout)', async () => {
    sim.setMandate(simulatedMandate('MD000RETRY5XX'));
    sim.failNext({ kind: 'status', status: 503 }, { reference: 'MD000RETRY5XX', count: 1 });
    const b = body(5, 'GOCARDLESS', 'MD000RETRY5XX', 'DIRECT_DEBIT');
    await expectError(b, 500, 'vendor_unavailable');
    assert.equal((await rows(5)).length, 0);
    for (let i = 0; i < 2; i++) {
      const res = await create(b);
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().reference, 'MD000RETRY5XX');
    }
    assert.equal((await rows(5)).length, 1);

    sim.failNext({ kind: 'delay', ms: 4000 }, { vendor: 'STRIPE', reference: 'pm_sim_card_visa', count: 1 });
    const card = body(5, 'STRIPE', 'pm_sim_card_visa', 'CARD');
    const started = Date.now();
    await expectError(card, 500, 'vendor_unavailable');
    assert.ok(Date.now() - started < REQUEST_TIMEOUT_MS);
    assert.equal((await create(card)).statusCode, 201);
    assert.equal((await create(card)).statusCode, 201);
    assert.deepEqual(
      (await rows(5)).map((r) => r.reference),
      ['MD000RETRY5XX', 'pm_sim_card_visa'],
    );
  });

  it('answers 404 not_found for a staged-only account or wrong identifiers, before asking a vendor', async () => {
    const before = sim.requests().length;
    await expectError(body(99, 'GOCARDLESS', 'MD000SIMACTIVE', 'DIRECT_DEBIT'), 404, 'not_found');
    await expectError(body(12345, 'GOCARDLESS', 'MD000SIMACTIVE', 'DIRECT_DEBIT'), 404, 'not_found');
    await expectError(
      { ...body(1, 'STRIPE', 'pm_sim_card_visa', 'CARD'), import_supplier: 'TENTACLE_ENERGY' },
      404,
      'not_found',
    );
    assert.equal(sim.requests().length, before);
  });

  it('rejects unknown fields and invalid values with the validation body', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...body(1, 'STRIPE', 'pm_sim_card_visa', 'CARD'), surprise: 1 }, 'surprise'],
      [body(1, 'PAYPAL', 'pm_sim_card_visa', 'CARD'), 'vendor'],
      [body(1, 'STRIPE', 'pm_sim_card_visa', 'CHEQUE'), 'type'],
      [body(1, 'STRIPE', '', 'CARD'), 'reference'],
      [body(1, 'STRIPE', 'x'.repeat(513), 'CARD'), 'reference'],
      [{ ...body(1, 'STRIPE', 'pm_sim_card_visa', 'CARD'), reference: 42 }, 'reference'],
    ];
    for (const [b, attr] of cases) {
      const res = await create(b);
      assert.equal(res.statusCode, 400, res.body);
      const out = res.json();
      assert.ok(Array.isArray(out.errors), res.body);
      assert.ok(
        out.errors.some((e: { attr: string }) => e.attr === attr),
        `${attr} not in ${res.body}`,
      );
    }
    const missing = await create({ import_supplier: SUPPLIER, external_account_number: ext(1) });
    assert.equal(missing.statusCode, 400);
    const attrs = missing.json().errors.map((e: { attr: string }) => e.attr);
    for (const a of ['vendor', 'reference', 'type']) assert.ok(attrs.includes(a), missing.body);
  });

  it('passes the reference example to its vendor, which decides: unknown → 400, known → 201', async () => {
    // The reference's payment-instruction example (test/fixtures/reference-examples/).
    const example = JSON.parse(
      readFileSync(
        new URL('../fixtures/reference-examples/payment-instruction.json', import.meta.url),
        'utf8',
      ),
    );
    const unknown = await create(example);
    assert.equal(unknown.statusCode, 400, unknown.body);
    assert.equal(unknown.json().code, 'payment_instruction_not_found');
    assert.equal(unknown.json().errors, undefined);
    sim.setPaymentMethod(simulatedPaymentMethod('THIS-IS-A-FAKE-REFERENCE'));
    const known = await create(example);
    assert.equal(known.statusCode, 201, known.body);
    assert.equal(known.json().reference, 'THIS-IS-A-FAKE-REFERENCE');
  });

  it('accepts and stores ledger_code, use_for_scheduled_payments and valid_from', async () => {
    const res = await create({
      ...body(2, 'GOCARDLESS', 'MD000SIMACTIVE', 'DIRECT_DEBIT'),
      ledger_code: 'MAIN-LEDGER',
      use_for_scheduled_payments: true,
      valid_from: '2024-02-01',
    });
    assert.equal(res.statusCode, 201, res.body);
    sim.setPaymentMethod(simulatedPaymentMethod('pm_nullables'));
    const nulls = await create({
      ...body(2, 'STRIPE', 'pm_nullables', 'CARD'),
      use_for_scheduled_payments: null,
      valid_from: null,
    });
    assert.equal(nulls.statusCode, 201, nulls.body);
    const stored = await t.db.query<Record<string, unknown>>(
      sql(
        '',
        `SELECT p.reference, p.ledger_code, p.use_for_scheduled_payments, p.valid_from::text AS valid_from
           FROM payment_instructions p JOIN accounts a ON a.id = p.account_id
          WHERE a.import_supplier = $1 AND a.external_account_number = $2 ORDER BY p.id`,
      ),
      [SUPPLIER, ext(2)],
    );
    assert.deepEqual(stored.rows, [
      {
        reference: 'MD000SIMACTIVE',
        ledger_code: 'MAIN-LEDGER',
        use_for_scheduled_payments: true,
        valid_from: '2024-02-01',
      },
      { reference: 'pm_nullables', ledger_code: null, use_for_scheduled_payments: null, valid_from: null },
    ]);
  });

  it('checks the format of ledger_code (no ledger registry here) and of valid_from, before asking a vendor', async () => {
    const before = sim.requests().length;
    const res = await create({
      ...body(2, 'GOCARDLESS', 'MD000SIMACTIVE', 'DIRECT_DEBIT'),
      ledger_code: 'not a ledger!',
      use_for_scheduled_payments: 'yes',
      valid_from: '2024-02-30',
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().code, 'validation_error');
    assert.deepEqual(
      res.json().errors.map((e: { attr: string; code: string }) => `${e.attr}:${e.code}`),
      [
        'ledger_code:ledger_code_does_not_exist',
        'use_for_scheduled_payments:invalid',
        'valid_from:invalid_date',
      ],
    );
    assert.equal(sim.requests().length, before);
  });

  it('every error body also carries error_detail, import_supplier, external_account_number and reference', async () => {
    // A success has none of them.
    const stored = await create(body(9, 'GOCARDLESS', 'MD000SIMACTIVE', 'DIRECT_DEBIT'));
    assert.equal(stored.statusCode, 201, stored.body);
    assert.equal(stored.json().error_detail, undefined);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...body(1, 'STRIPE', 'pm_x', 'CARD'), surprise: 1 }, 400, 'validation_error'],
      [body(3, 'STRIPE', 'pm_fail_404', 'CARD'), 400, 'payment_instruction_not_found'],
      [body(9, 'GOCARDLESS', 'MD000SIMPENDING', 'DIRECT_DEBIT'), 400, 'account_has_active_instruction'],
      [body(12345, 'STRIPE', 'pm_sim_card_visa', 'CARD'), 404, 'not_found'],
      [body(4, 'STRIPE', 'pm_fail_500', 'CARD'), 500, 'vendor_unavailable'],
    ];
    for (const [b, status, code] of cases) {
      const res = await expectError(b, status, code);
      const out = res.json();
      assert.equal(out.error_detail, out.detail, res.body);
      assert.equal(out.import_supplier, b.import_supplier);
      assert.equal(out.external_account_number, b.external_account_number);
      assert.equal(out.reference, b.reference);
    }
    // Fields the request lacks (or gave in another type) are "".
    const res = await expectError({ import_supplier: SUPPLIER, reference: 42 }, 400, 'validation_error');
    assert.deepEqual(
      [res.json().import_supplier, res.json().external_account_number, res.json().reference],
      [SUPPLIER, '', ''],
    );
  });

  it('50 concurrent identical requests: all 201, exactly one row', async () => {
    const b = body(6, 'GOCARDLESS', 'MD000SIMACTIVE', 'DIRECT_DEBIT');
    const results = await Promise.all(Array.from({ length: 50 }, () => create(b)));
    for (const res of results) {
      assert.equal(res.statusCode, 201, res.body);
      assert.deepEqual(res.json(), {
        service_account_number: numbers.get(ext(6)),
        reference: 'MD000SIMACTIVE',
      });
    }
    assert.equal((await rows(6)).length, 1);
  });

  it('50 concurrent requests with different active references of one type: one wins', async () => {
    for (let i = 0; i < 50; i++) sim.setMandate(simulatedMandate(`MD000RACE${i}`));
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => create(body(8, 'GOCARDLESS', `MD000RACE${i}`, 'DIRECT_DEBIT'))),
    );
    const codes = results.map((r) => r.statusCode);
    assert.equal(codes.filter((c) => c === 201).length, 1, codes.join(','));
    for (const r of results.filter((r) => r.statusCode !== 201))
      assert.equal(r.json().code, 'account_has_active_instruction', r.body);
    assert.equal((await rows(8)).length, 1);
  });
});
