import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { startVendorSimulator, type VendorSimulator } from '../../dev/vendor-simulator/vendor-simulator.ts';
import { runVendorSimulatorCli } from '../../dev/vendor-simulator/vendor-simulator-cli.ts';
import { simulatedMandate } from '../../dev/vendor-simulator/vendor-simulator-records.ts';
import { GOCARDLESS_API_VERSION } from '../../src/infra/vendors/gocardless-client.ts';

describe('vendor simulator', () => {
  let sim: VendorSimulator;
  const gocardless = (id: string, headers: Record<string, string> = {}) =>
    fetch(`${sim.url}/mandates/${id}`, {
      headers: {
        authorization: `Bearer ${sim.env.GOCARDLESS_ACCESS_TOKEN}`,
        'gocardless-version': GOCARDLESS_API_VERSION,
        ...headers,
      },
    });
  before(async () => {
    sim = await startVendorSimulator();
  });
  afterEach(() => sim.reset());
  after(() => sim.close());

  it('listens on loopback and serves seeded mandates in the GoCardless envelope', async () => {
    assert.match(sim.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await gocardless('MD000SIMACTIVE');
    assert.equal(res.status, 200);
    const body = (await res.json()) as { mandates: { id: string; status: string } };
    assert.equal(body.mandates.id, 'MD000SIMACTIVE');
    assert.equal(body.mandates.status, 'active');
  });

  it('answers 401 without the access token and 400 without the GoCardless-Version header', async () => {
    const noToken = await gocardless('MD000SIMACTIVE', { authorization: 'Bearer wrong' });
    assert.equal(noToken.status, 401);
    assert.equal(((await noToken.json()) as { error: { code: number } }).error.code, 401);
    const noVersion = await gocardless('MD000SIMACTIVE', { 'gocardless-version': '2014-11-03' });
    assert.equal(noVersion.status, 400);
  });

  it('answers in the Stripe error shape on the Stripe route', async () => {
    const res = await fetch(`${sim.url}/v1/payment_methods/pm_missing`, {
      headers: { authorization: `Bearer ${sim.env.STRIPE_API_KEY}`, 'stripe-version': '2024-06-20' },
    });
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), {
      error: {
        type: 'invalid_request_error',
        message: "No such PaymentMethod: 'pm_missing'",
        code: 'resource_missing',
      },
    });
  });

  it('answers 404 for any reference it does not hold, whatever its form, as the vendors do', async () => {
    const stripeHeaders = {
      authorization: `Bearer ${sim.env.STRIPE_API_KEY}`,
      'stripe-version': '2024-06-20',
    };
    for (const reference of ['THIS-IS-A-FAKE-REFERENCE', 'md_lower', 'a/b?c#d', '%2e%2e', 'pm_', 'MD_']) {
      const segment = encodeURIComponent(reference);
      const mandate = await gocardless(segment);
      assert.equal(mandate.status, 404, reference);
      assert.equal(((await mandate.json()) as { error: { code: number } }).error.code, 404);
      const method = await fetch(`${sim.url}/v1/payment_methods/${segment}`, { headers: stripeHeaders });
      assert.equal(method.status, 404, reference);
      assert.equal(((await method.json()) as { error: { code: string } }).error.code, 'resource_missing');
    }
  });

  it('serves records set by a test, until reset', async () => {
    sim.setMandate(simulatedMandate('MD000SIMACTIVE', { status: 'cancelled' }));
    assert.equal(
      ((await (await gocardless('MD000SIMACTIVE')).json()) as { mandates: { status: string } }).mandates
        .status,
      'cancelled',
    );
    sim.reset();
    assert.equal(
      ((await (await gocardless('MD000SIMACTIVE')).json()) as { mandates: { status: string } }).mandates
        .status,
      'active',
    );
  });

  it('fails only the requests a queued fault matches, as many times as asked', async () => {
    sim.failNext({ kind: 'status', status: 500 }, { reference: 'MD000SIMPENDING', count: 2 });
    assert.equal((await gocardless('MD000SIMACTIVE')).status, 200);
    assert.equal((await gocardless('MD000SIMPENDING')).status, 500);
    assert.equal((await gocardless('MD000SIMPENDING')).status, 500);
    assert.equal((await gocardless('MD000SIMPENDING')).status, 200);
  });

  it('applies a fault before checking credentials, as a failing vendor would', async () => {
    const res = await gocardless('MD_FAIL_503', { authorization: 'Bearer wrong' });
    assert.equal(res.status, 503);
    assert.equal(res.headers.get('retry-after'), '1');
  });

  it('records every request with its headers, and unknown routes answer 404', async () => {
    assert.equal((await fetch(`${sim.url}/customers/CU1`)).status, 404);
    const [request] = sim.requests();
    assert.equal(request.vendor, null);
    assert.equal(request.path, '/customers/CU1');
  });

  it('closes promptly while a slow answer is still pending', async () => {
    const own = await startVendorSimulator();
    const pending = fetch(`${own.url}/mandates/MD_SLOW_60000`).catch((err: unknown) => err);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await own.close();
    assert.ok(performance.now() - started < 1_000);
    assert.ok((await pending) instanceof Error, 'the pending request is cut off');
  });
});

describe('ferry dev vendor-sim', () => {
  it('prints its URL, the variables to set and the seeded references, and stops when told', async () => {
    let printed = '';
    const stop = new AbortController();
    let url = '';
    const exit = runVendorSimulatorCli(['--port', '0'], {
      stdout: { write: (text: string) => (printed += text) },
      signal: stop.signal,
      onListening: (simulator) => {
        url = simulator.url;
      },
    });
    while (url === '') await new Promise((resolve) => setTimeout(resolve, 10));
    assert.match(printed, new RegExp(`listening on ${url.replaceAll('.', '\\.')}`));
    for (const name of [
      'GOCARDLESS_API_URL',
      'GOCARDLESS_ACCESS_TOKEN',
      'STRIPE_API_URL',
      'STRIPE_API_KEY',
    ]) {
      assert.match(printed, new RegExp(`export ${name}=\\S+`));
    }
    assert.match(printed, /MD000SIMACTIVE/);
    assert.match(printed, /pm_sim_card_visa/);
    assert.equal((await fetch(`${url}/mandates/MD000SIMACTIVE`)).status, 401, 'it is serving');
    stop.abort();
    assert.equal(await exit, 0);
    await assert.rejects(fetch(`${url}/mandates/MD000SIMACTIVE`), 'it has stopped');
  });

  it('refuses a port that is not a port', async () => {
    let errors = '';
    const code = await runVendorSimulatorCli(['--port', 'eighty'], {
      stderr: { write: (t: string) => (errors += t) },
    });
    assert.equal(code, 2);
    assert.match(errors, /--port/);
  });
});
