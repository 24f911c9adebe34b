import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  startVendorSimulator,
  type VendorSimulator,
} from '../../../dev/vendor-simulator/vendor-simulator.ts';
import { simulatedPaymentMethod } from '../../../dev/vendor-simulator/vendor-simulator-records.ts';
import { STRIPE_API_VERSION, StripeClient } from '../../../src/infra/vendors/stripe-client.ts';
import { assertRejected, assertUnavailable, closedPortUrl } from './vendor-assertions.ts';

const NOW = new Date('2026-03-15T12:00:00Z');

describe('StripeClient against the simulator over HTTP', () => {
  let sim: VendorSimulator;
  let client: StripeClient;
  const clientWith = (options: Partial<ConstructorParameters<typeof StripeClient>[0]>) =>
    new StripeClient({
      apiUrl: sim.url,
      apiKey: sim.env.STRIPE_API_KEY,
      timeoutMs: 2_000,
      now: () => NOW,
      ...options,
    });
  before(async () => {
    sim = await startVendorSimulator();
    client = clientWith({});
  });
  afterEach(() => sim.reset());
  after(() => sim.close());

  it('fetches a card payment method with its card details and without billing details', async () => {
    const instruction = await client.fetchInstruction('pm_sim_card_visa', 'CARD');
    assert.deepEqual(instruction, {
      vendor: 'STRIPE',
      reference: 'pm_sim_card_visa',
      status: 'attached',
      active: true,
      type: 'CARD',
      details: {
        id: 'pm_sim_card_visa',
        type: 'card',
        customer_id: 'cus_sim0001',
        created_at: '2024-01-15T10:00:00.000Z',
        livemode: false,
        card: {
          brand: 'visa',
          last4: '4242',
          exp_month: 12,
          exp_year: 2034,
          funding: 'credit',
          country: 'GB',
        },
      },
    });
  });

  it('fetches Bacs and SEPA debits as DIRECT_DEBIT', async () => {
    const bacs = await client.fetchInstruction('pm_sim_bacs_debit', 'DIRECT_DEBIT');
    assert.deepEqual(bacs.details.bacs_debit, { sort_code: '108800', last4: '2345' });
    const sepa = await client.fetchInstruction('pm_sim_sepa_debit', 'DIRECT_DEBIT');
    assert.equal(sepa.details.type, 'sepa_debit');
  });

  it('sends the secret key as a bearer token and pins Stripe-Version', async () => {
    await client.fetchInstruction('pm_sim_card_visa', 'CARD');
    const [request] = sim.requests();
    assert.equal(request.path, '/v1/payment_methods/pm_sim_card_visa');
    assert.equal(request.headers.authorization, `Bearer ${sim.env.STRIPE_API_KEY}`);
    assert.equal(request.headers['stripe-version'], STRIPE_API_VERSION);
    assert.equal(request.headers.accept, 'application/json');
  });

  it('accepts the older card_ and src_ ids', async () => {
    sim.setPaymentMethod(simulatedPaymentMethod('card_1Legacy'));
    sim.setPaymentMethod(simulatedPaymentMethod('src_1Legacy'));
    assert.equal((await client.fetchInstruction('card_1Legacy', 'CARD')).type, 'CARD');
    assert.equal((await client.fetchInstruction('src_1Legacy', 'CARD')).type, 'CARD');
  });

  it('accepts a card through the last day of its expiry month', async () => {
    sim.setPaymentMethod(
      simulatedPaymentMethod('pm_this_month', {
        card: { brand: 'visa', last4: '1111', exp_month: 3, exp_year: 2026 },
      }),
    );
    assert.equal((await client.fetchInstruction('pm_this_month', 'CARD')).active, true);
    const nextMonth = clientWith({ now: () => new Date('2026-04-01T00:00:00Z') });
    await assertRejected(nextMonth.fetchInstruction('pm_this_month', 'CARD'), 'payment_instruction_inactive');
  });

  describe('permanent failures', () => {
    it('rejects a payment method Stripe does not have: payment_instruction_not_found', async () => {
      await assertRejected(
        client.fetchInstruction('pm_nosuchmethod', 'CARD'),
        'payment_instruction_not_found',
      );
    });

    it('rejects when Stripe refuses our key: vendor_authentication_failed', async () => {
      const wrongKey = clientWith({ apiKey: 'sk_test_wrong' });
      await assertRejected(
        wrongKey.fetchInstruction('pm_sim_card_visa', 'CARD'),
        'vendor_authentication_failed',
      );
      await assertRejected(client.fetchInstruction('pm_fail_403', 'CARD'), 'vendor_authentication_failed');
    });

    it('rejects what Stripe calls a bad request: payment_instruction_invalid', async () => {
      await assertRejected(client.fetchInstruction('pm_fail_400', 'CARD'), 'payment_instruction_invalid');
      await assertRejected(client.fetchInstruction('pm_fail_422', 'CARD'), 'payment_instruction_invalid');
    });

    it('rejects a payment method not attached to a customer: payment_instruction_inactive', async () => {
      await assertRejected(
        client.fetchInstruction('pm_sim_detached', 'CARD'),
        'payment_instruction_inactive',
      );
      await assertRejected(client.fetchInstruction('pm_detached', 'CARD'), 'payment_instruction_inactive');
    });

    it('rejects an expired card: payment_instruction_inactive', async () => {
      await assertRejected(
        client.fetchInstruction('pm_sim_expired_card', 'CARD'),
        'payment_instruction_inactive',
      );
    });

    it('rejects a payment method of another kind than declared: payment_instruction_type_mismatch', async () => {
      await assertRejected(
        client.fetchInstruction('pm_sim_card_visa', 'DIRECT_DEBIT'),
        'payment_instruction_type_mismatch',
      );
      await assertRejected(
        client.fetchInstruction('pm_sim_bacs_debit', 'CARD'),
        'payment_instruction_type_mismatch',
      );
      await assertRejected(
        client.fetchInstruction('pm_type_paypal', 'CARD'),
        'payment_instruction_type_mismatch',
      );
    });

    it('refuses a payment method answered for another id, naming both: payment_instruction_reference_mismatch', async () => {
      const err = await assertRejected(
        client.fetchInstruction('pm_other', 'CARD'),
        'payment_instruction_reference_mismatch',
      );
      assert.equal(err.reference, 'pm_other');
      assert.equal(err.vendorReference, 'pm_sim_other');
      assert.match(err.message, /pm_other.*pm_sim_other/);
    });

    it('asks Stripe about any reference, in one path segment: the vendor decides (unknown → payment_instruction_not_found)', async () => {
      const references = [
        'THIS-IS-A-FAKE-REFERENCE',
        'cus_123',
        'PM_123',
        'pm_../../v1/customers',
        'pm_%2F',
        'pm_1?expand[]=customer',
        'pm_1#x',
        `pm_${'a'.repeat(300)}`,
      ];
      for (const reference of references) {
        sim.reset();
        await assertRejected(client.fetchInstruction(reference, 'CARD'), 'payment_instruction_not_found');
        assert.deepEqual(
          sim.requests().map((r) => r.path),
          [`/v1/payment_methods/${encodeURIComponent(reference)}`],
          reference,
        );
      }
      sim.setPaymentMethod(simulatedPaymentMethod('THIS-IS-A-FAKE-REFERENCE'));
      const found = await client.fetchInstruction('THIS-IS-A-FAKE-REFERENCE', 'CARD');
      assert.equal(found.reference, 'THIS-IS-A-FAKE-REFERENCE');
    });

    it('refuses a dot segment (. or ..) without a request: no URL can name it', async () => {
      for (const reference of ['.', '..']) {
        await assertRejected(
          client.fetchInstruction(reference, 'CARD'),
          'invalid_payment_instruction_reference',
        );
      }
      assert.equal(sim.requests().length, 0);
    });
  });

  describe('transient failures', () => {
    it('gives up on a slow answer at its timeout: vendor_unavailable (timeout)', async () => {
      const quick = clientWith({ timeoutMs: 150 });
      const started = performance.now();
      await assertUnavailable(quick.fetchInstruction('pm_slow_3000', 'CARD'), 'timeout');
      assert.ok(performance.now() - started < 1_000, 'returned soon after its timeout');
    });

    it('reports a dropped connection and a refused one: vendor_unavailable (connection_failed)', async () => {
      await assertUnavailable(client.fetchInstruction('pm_reset', 'CARD'), 'connection_failed');
      const nowhere = clientWith({ apiUrl: await closedPortUrl() });
      await assertUnavailable(nowhere.fetchInstruction('pm_sim_card_visa', 'CARD'), 'connection_failed');
    });

    it('reports rate limiting: vendor_unavailable (throttled)', async () => {
      await assertUnavailable(client.fetchInstruction('pm_fail_429', 'CARD'), 'throttled');
    });

    it('reports HTTP 500 and 503: vendor_unavailable (vendor_error)', async () => {
      await assertUnavailable(client.fetchInstruction('pm_fail_500', 'CARD'), 'vendor_error');
      const err = await assertUnavailable(client.fetchInstruction('pm_fail_503', 'CARD'), 'vendor_error');
      assert.equal(err.retryAfterSeconds, 1);
    });

    it('succeeds on a retry once Stripe has recovered', async () => {
      sim.failNext({ kind: 'status', status: 429, retryAfterSeconds: 2 }, { vendor: 'STRIPE', count: 2 });
      const err = await assertUnavailable(client.fetchInstruction('pm_sim_card_visa', 'CARD'), 'throttled');
      assert.equal(err.retryAfterSeconds, 2);
      await assertUnavailable(client.fetchInstruction('pm_sim_card_visa', 'CARD'), 'throttled');
      assert.equal((await client.fetchInstruction('pm_sim_card_visa', 'CARD')).active, true);
    });
  });
});
