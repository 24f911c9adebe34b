import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  startVendorSimulator,
  type VendorSimulator,
} from '../../../dev/vendor-simulator/vendor-simulator.ts';
import { simulatedMandate } from '../../../dev/vendor-simulator/vendor-simulator-records.ts';
import { GOCARDLESS_API_VERSION, GoCardlessClient } from '../../../src/infra/vendors/gocardless-client.ts';
import { assertRejected, assertUnavailable, closedPortUrl } from './vendor-assertions.ts';

describe('GoCardlessClient against the simulator over HTTP', () => {
  let sim: VendorSimulator;
  let client: GoCardlessClient;
  const clientWith = (options: Partial<ConstructorParameters<typeof GoCardlessClient>[0]>) =>
    new GoCardlessClient({
      apiUrl: sim.url,
      accessToken: sim.env.GOCARDLESS_ACCESS_TOKEN,
      timeoutMs: 2_000,
      ...options,
    });
  before(async () => {
    sim = await startVendorSimulator();
    client = clientWith({});
  });
  afterEach(() => sim.reset());
  after(() => sim.close());

  it('fetches an active mandate with the details worth storing', async () => {
    const instruction = await client.fetchInstruction('MD000SIMACTIVE', 'DIRECT_DEBIT');
    assert.deepEqual(instruction, {
      vendor: 'GOCARDLESS',
      reference: 'MD000SIMACTIVE',
      status: 'active',
      active: true,
      type: 'DIRECT_DEBIT',
      details: {
        id: 'MD000SIMACTIVE',
        status: 'active',
        scheme: 'bacs',
        reference: 'FERRY-ACTIVE',
        created_at: '2024-01-15T10:00:00.000Z',
        next_possible_charge_date: '2024-01-22',
        payments_require_approval: false,
        customer_id: 'CU000SIM0001',
        customer_bank_account_id: 'BA000SIM0001',
        creditor_id: 'CR000SIM0001',
      },
    });
  });

  it('sends the bearer token, the GoCardless-Version header and Accept: application/json', async () => {
    await client.fetchInstruction('MD000SIMACTIVE', 'DIRECT_DEBIT');
    const [request] = sim.requests();
    assert.equal(request.method, 'GET');
    assert.equal(request.path, '/mandates/MD000SIMACTIVE');
    assert.equal(request.headers.authorization, `Bearer ${sim.env.GOCARDLESS_ACCESS_TOKEN}`);
    assert.equal(request.headers['gocardless-version'], GOCARDLESS_API_VERSION);
    assert.equal(request.headers.accept, 'application/json');
  });

  it('keeps the path of an API URL that has one', async () => {
    const prefixed = clientWith({ apiUrl: `${sim.url}/` });
    assert.equal(
      (await prefixed.fetchInstruction('MD000SIMACTIVE', 'DIRECT_DEBIT')).reference,
      'MD000SIMACTIVE',
    );
  });

  it('accepts mandates on their way to active as active', async () => {
    for (const status of ['pending_customer_approval', 'pending_submission', 'submitted']) {
      sim.setMandate(simulatedMandate('MD000PENDING', { status }));
      const instruction = await client.fetchInstruction('MD000PENDING', 'DIRECT_DEBIT');
      assert.equal(instruction.active, true, status);
      assert.equal(instruction.status, status);
    }
  });

  it('accepts a mandate suspended by the payer, but not as active', async () => {
    const instruction = await client.fetchInstruction('MD000SIMSUSPENDED', 'DIRECT_DEBIT');
    assert.equal(instruction.status, 'suspended_by_payer');
    assert.equal(instruction.active, false);
  });

  describe('permanent failures', () => {
    it('rejects a mandate GoCardless does not have: payment_instruction_not_found', async () => {
      await assertRejected(
        client.fetchInstruction('MD000NOSUCHONE', 'DIRECT_DEBIT'),
        'payment_instruction_not_found',
      );
      await assertRejected(
        client.fetchInstruction('MD_FAIL_404', 'DIRECT_DEBIT'),
        'payment_instruction_not_found',
      );
    });

    it('rejects when GoCardless refuses our token: vendor_authentication_failed', async () => {
      const wrongToken = clientWith({ accessToken: 'not-the-token' });
      const err = await assertRejected(
        wrongToken.fetchInstruction('MD000SIMACTIVE', 'DIRECT_DEBIT'),
        'vendor_authentication_failed',
      );
      assert.equal(err.vendorStatus, 401);
      await assertRejected(
        client.fetchInstruction('MD_FAIL_403', 'DIRECT_DEBIT'),
        'vendor_authentication_failed',
      );
    });

    it('rejects what GoCardless calls a bad request: payment_instruction_invalid', async () => {
      await assertRejected(
        client.fetchInstruction('MD_FAIL_422', 'DIRECT_DEBIT'),
        'payment_instruction_invalid',
      );
      await assertRejected(
        client.fetchInstruction('MD_FAIL_400', 'DIRECT_DEBIT'),
        'payment_instruction_invalid',
      );
    });

    for (const status of ['cancelled', 'failed', 'expired', 'consumed', 'blocked']) {
      it(`rejects a ${status} mandate: payment_instruction_inactive`, async () => {
        await assertRejected(
          client.fetchInstruction(`MD_STATUS_${status.toUpperCase()}`, 'DIRECT_DEBIT'),
          'payment_instruction_inactive',
        );
      });
    }

    it('rejects a CARD instruction without asking GoCardless: payment_instruction_type_mismatch', async () => {
      await assertRejected(
        client.fetchInstruction('MD000SIMACTIVE', 'CARD'),
        'payment_instruction_type_mismatch',
      );
      assert.equal(sim.requests().length, 0);
    });

    it('asks GoCardless about any reference, in one path segment: the vendor decides (unknown → payment_instruction_not_found)', async () => {
      const references = [
        'THIS-IS-A-FAKE-REFERENCE',
        'md000lower',
        'MD',
        'MD../../customers',
        'MD%2F..',
        'MD0?x=1',
        'MD0/../x',
        'MD0#frag',
        ' MD000SIMACTIVE',
        `MD${'A'.repeat(300)}`,
      ];
      for (const reference of references) {
        sim.reset();
        await assertRejected(
          client.fetchInstruction(reference, 'DIRECT_DEBIT'),
          'payment_instruction_not_found',
        );
        assert.deepEqual(
          sim.requests().map((r) => r.path),
          [`/mandates/${encodeURIComponent(reference)}`],
          reference,
        );
      }
      sim.setMandate(simulatedMandate('THIS-IS-A-FAKE-REFERENCE'));
      const found = await client.fetchInstruction('THIS-IS-A-FAKE-REFERENCE', 'DIRECT_DEBIT');
      assert.equal(found.reference, 'THIS-IS-A-FAKE-REFERENCE');
    });

    it('refuses a dot segment (. or ..) without a request: no URL can name it', async () => {
      for (const reference of ['.', '..']) {
        await assertRejected(
          client.fetchInstruction(reference, 'DIRECT_DEBIT'),
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
      await assertUnavailable(quick.fetchInstruction('MD_SLOW_3000', 'DIRECT_DEBIT'), 'timeout');
      assert.ok(performance.now() - started < 1_000, 'returned soon after its timeout');
    });

    it('waits for a slow answer within its timeout', async () => {
      assert.equal((await client.fetchInstruction('MD_SLOW_100', 'DIRECT_DEBIT')).active, true);
    });

    it('reports a dropped connection: vendor_unavailable (connection_failed)', async () => {
      await assertUnavailable(client.fetchInstruction('MD_RESET', 'DIRECT_DEBIT'), 'connection_failed');
    });

    it('reports a refused connection: vendor_unavailable (connection_failed)', async () => {
      const nowhere = clientWith({ apiUrl: await closedPortUrl() });
      await assertUnavailable(
        nowhere.fetchInstruction('MD000SIMACTIVE', 'DIRECT_DEBIT'),
        'connection_failed',
      );
    });

    it('reports rate limiting with the Retry-After GoCardless sent: vendor_unavailable (throttled)', async () => {
      const err = await assertUnavailable(
        client.fetchInstruction('MD_FAIL_429', 'DIRECT_DEBIT'),
        'throttled',
      );
      assert.equal(err.retryAfterSeconds, 1);
      assert.equal(err.vendorStatus, 429);
    });

    for (const status of [500, 502, 503]) {
      it(`reports HTTP ${status}: vendor_unavailable (vendor_error)`, async () => {
        await assertUnavailable(client.fetchInstruction(`MD_FAIL_${status}`, 'DIRECT_DEBIT'), 'vendor_error');
      });
    }

    it('reports an answer that is not the mandate: vendor_unavailable (unexpected_response)', async () => {
      const answers = [
        new Response('<html>maintenance</html>', { status: 200 }),
        Response.json({ mandates: { status: 'active' } }),
        Response.json({ customers: {} }),
        new Response(null, { status: 302, headers: { location: 'http://elsewhere.invalid/' } }),
      ];
      for (const answer of answers) {
        const stubbed = clientWith({ fetch: async () => answer });
        await assertUnavailable(
          stubbed.fetchInstruction('MD000SIMACTIVE', 'DIRECT_DEBIT'),
          'unexpected_response',
        );
      }
    });

    it('refuses an answer for another mandate for good, naming both: payment_instruction_reference_mismatch', async () => {
      const stubbed = clientWith({
        fetch: async () => Response.json({ mandates: { id: 'MD000OTHER', status: 'active' } }),
      });
      const err = await assertRejected(
        stubbed.fetchInstruction('MD000SIMACTIVE', 'DIRECT_DEBIT'),
        'payment_instruction_reference_mismatch',
      );
      assert.equal(err.reference, 'MD000SIMACTIVE');
      assert.equal(err.vendorReference, 'MD000OTHER');
      assert.match(err.message, /MD000SIMACTIVE.*MD000OTHER/);
    });

    it('succeeds on a retry once GoCardless has recovered', async () => {
      sim.failNext({ kind: 'status', status: 503 }, { reference: 'MD000SIMACTIVE' });
      sim.failNext({ kind: 'reset' }, { reference: 'MD000SIMACTIVE' });
      await assertUnavailable(client.fetchInstruction('MD000SIMACTIVE', 'DIRECT_DEBIT'), 'vendor_error');
      await assertUnavailable(client.fetchInstruction('MD000SIMACTIVE', 'DIRECT_DEBIT'), 'connection_failed');
      assert.equal((await client.fetchInstruction('MD000SIMACTIVE', 'DIRECT_DEBIT')).active, true);
      assert.equal(sim.requests().length, 3, 'one request per call: the client does not retry by itself');
    });
  });
});
