import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  startVendorSimulator,
  type VendorSimulator,
} from '../../../dev/vendor-simulator/vendor-simulator.ts';
import { loadConfig } from '../../../src/config.ts';
import { GoCardlessClient } from '../../../src/infra/vendors/gocardless-client.ts';
import type { PaymentVendorName } from '../../../src/infra/vendors/payment-vendor.ts';
import { StripeClient } from '../../../src/infra/vendors/stripe-client.ts';
import { createPaymentVendors, defaultVendorTimeoutMs } from '../../../src/infra/vendors/vendor-registry.ts';
import { assertRejected, assertUnavailable } from './vendor-assertions.ts';

describe('createPaymentVendors', () => {
  let sim: VendorSimulator;
  before(async () => {
    sim = await startVendorSimulator();
  });
  after(() => sim.close());

  it('builds both clients from the environment the simulator prints', async () => {
    const vendors = createPaymentVendors(loadConfig({ ...sim.env }));
    assert.ok(vendors.get('GOCARDLESS') instanceof GoCardlessClient);
    assert.ok(vendors.get('STRIPE') instanceof StripeClient);
    assert.equal(
      (await vendors.get('GOCARDLESS').fetchInstruction('MD000SIMACTIVE', 'DIRECT_DEBIT')).active,
      true,
    );
    assert.equal((await vendors.get('STRIPE').fetchInstruction('pm_sim_card_visa', 'CARD')).type, 'CARD');
  });

  it('answers vendor_not_configured for a vendor without credentials, without any request', async () => {
    sim.reset();
    const vendors = createPaymentVendors(
      loadConfig({ GOCARDLESS_API_URL: sim.url, STRIPE_API_URL: sim.url }),
    );
    const gocardless = await assertRejected(
      vendors.get('GOCARDLESS').fetchInstruction('MD000SIMACTIVE', 'DIRECT_DEBIT'),
      'vendor_not_configured',
    );
    assert.equal(gocardless.vendor, 'GOCARDLESS');
    await assertRejected(
      vendors.get('STRIPE').fetchInstruction('pm_sim_card_visa', 'CARD'),
      'vendor_not_configured',
    );
    assert.equal(sim.requests().length, 0);
  });

  it('gives a vendor call a third of the request timeout, at most 10 s', () => {
    assert.equal(defaultVendorTimeoutMs(30_000), 10_000);
    assert.equal(defaultVendorTimeoutMs(120_000), 10_000);
    assert.equal(defaultVendorTimeoutMs(600), 200);
  });

  it('answers vendor_unavailable well within the request timeout when a vendor hangs', async () => {
    const vendors = createPaymentVendors(loadConfig({ ...sim.env, REQUEST_TIMEOUT_MS: '1500' }));
    const started = performance.now();
    await assertUnavailable(
      vendors.get('GOCARDLESS').fetchInstruction('MD_SLOW_5000', 'DIRECT_DEBIT'),
      'timeout',
    );
    assert.ok(performance.now() - started < 1_500, 'inside the 1.5 s request timeout');
  });

  it('refuses a vendor name it does not know', () => {
    const vendors = createPaymentVendors(loadConfig({}));
    assert.throws(() => vendors.get('PAYPAL' as PaymentVendorName), /unknown payment vendor/);
  });
});
