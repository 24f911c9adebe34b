/**
 * Micro-benchmark of account payload validation (not a test: it only prints).
 *   node --import tsx test/accounts/account-checks.bench.ts
 * Validates the reference example account, and 1,000 variants of it with distinct phone numbers,
 * MPANs and MPRNs (so nothing can be served from a cache), on one core, after a warm-up.
 */

import { validateAccountPayload } from '../../src/accounts/account-checks.ts';
import { mpanCheckDigit } from '../../src/accounts/payload/meter-points/mpan.ts';
import { mprnCheckDigits } from '../../src/accounts/payload/meter-points/mprn.ts';
import { exampleAccount, exampleWith, type Json, set, TODAY } from './payload/support/payload-fixtures.ts';

function variant(n: number): Json {
  const payload = exampleAccount();
  const mpanStart = `12${String(n).padStart(10, '0')}`;
  const mprnStart = `7${String(n).padStart(7, '0')}`;
  set(payload, 'supply_addresses.0.meter_points.0.identifier', `${mpanStart}${mpanCheckDigit(mpanStart)}`);
  set(payload, 'supply_addresses.0.meter_points.1.identifier', `${mprnStart}${mprnCheckDigits(mprnStart)}`);
  set(payload, 'customers.0.mobile', `0771${String(2_000_000 + n).padStart(7, '0')}`);
  set(payload, 'customers.0.landline', `0207${String(2_000_000 + n).padStart(7, '0')}`);
  return payload;
}

function measure(label: string, payloads: Json[], expectOk: boolean): void {
  const run = (count: number) => {
    for (let i = 0; i < count; i++) {
      const result = validateAccountPayload(payloads[i % payloads.length], { today: TODAY });
      if (result.ok !== expectOk)
        throw new Error(`${label}: unexpected result ${JSON.stringify(result.ok ? 'ok' : result.errors)}`);
    }
  };
  run(5_000); // warm-up: compile the schema, let V8 optimise
  const iterations = 50_000;
  const started = process.hrtime.bigint();
  run(iterations);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const perSecond = Math.round(iterations / seconds);
  console.log(
    `${label.padEnd(44)} ${((seconds / iterations) * 1e6).toFixed(1).padStart(7)} µs  ${perSecond.toLocaleString('en-GB').padStart(9)} validations/s`,
  );
}

measure('reference example account (valid)', [exampleAccount()], true);
measure(
  '1,000 distinct variants of it (valid)',
  Array.from({ length: 1000 }, (_, n) => variant(n)),
  true,
);
measure(
  'example with 3 errors (invalid)',
  [exampleWith({ 'customers.0.mobile': '07', transfer_balance: '1', not_a_field: 1 })],
  false,
);
