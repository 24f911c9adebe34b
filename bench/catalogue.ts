// `--catalogue N` (with the validate step): a catalogue of N products × 14 regions × 3 payment
// methods uploaded before a second validate load, so the validate ratio is measured with and
// without a catalogue in the same run (the ratio must not fall; decision 0090).
import { accountFor } from '../test/helpers/account-fixtures.ts';
import { adminHeaders } from '../test/helpers/test-app.ts';
import type { BenchApp } from './env.ts';
import { SUPPLIER } from './env.ts';

const REGIONS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'K', 'L', 'M', 'N', 'P'];
const METHODS = ['DIRECT_DEBIT', 'NON_DIRECT_DEBIT', 'PREPAYMENT'];

/**
 * The catalogue as NDJSON: N products, each with a tariff per region and payment method; the first
 * two hold the bench account's tariffs (ELEC-1234-J, 2 registers; GAS-1234-J, prepayment), in
 * region A, its MPAN's distributor (10).
 */
export function benchCatalogue(products: number): string {
  const lines: string[] = [];
  const tariffs = (product: string, registers: number, own?: { code: string; method: string }) =>
    REGIONS.flatMap((region) =>
      METHODS.map((method) => ({
        code:
          own && region === 'A' && method === own.method
            ? own.code
            : `${product}-${region}-${method.slice(0, 2)}`,
        region,
        payment_method: method,
        registers,
        rate_bands: registers === 2 ? ['DAY', 'NIGHT'] : ['STANDARD'],
      })),
    );
  for (let i = 0; i < products; i++) {
    const code = i === 0 ? 'ELEC-1234' : i === 1 ? 'GAS-1234' : `BENCH-${i}`;
    const gas = i === 1;
    const own =
      i === 0
        ? { code: 'ELEC-1234-J', method: 'DIRECT_DEBIT' }
        : i === 1
          ? { code: 'GAS-1234-J', method: 'PREPAYMENT' }
          : undefined;
    lines.push(
      JSON.stringify({
        code,
        fuel: gas ? 'GAS' : 'ELECTRICITY',
        is_variable: i % 2 === 0,
        is_prepay: gas,
        available_from: '2015-01-01',
        tariffs: tariffs(code, gas || i % 2 === 1 ? 1 : 2, own),
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Uploads the catalogue and waits until validation uses it (an account on a tariff it lacks is
 * refused) and the bench's account still validates. Answers how long the upload took.
 */
export async function loadBenchCatalogue(
  ferry: BenchApp,
  products: number,
): Promise<{ upload_s: number; bytes: number; tariffs: number }> {
  const payload = benchCatalogue(products);
  const t0 = performance.now();
  const res = await ferry.app.inject({
    method: 'PUT',
    url: '/admin/v1/products/',
    headers: { ...adminHeaders, 'content-type': 'application/x-ndjson' },
    payload,
  });
  const upload_s = (performance.now() - t0) / 1000;
  if (res.statusCode !== 200)
    throw new Error(`catalogue upload: ${res.statusCode} ${res.body.slice(0, 500)}`);
  const validate = async (account: unknown) => {
    const r = await fetch(`${ferry.base}/v2/data-import/accounts/validate/`, {
      method: 'POST',
      headers: { ...ferry.headers, 'content-type': 'application/json' },
      body: JSON.stringify(account),
    });
    return { status: r.status, body: await r.text() };
  };
  const unknown = accountFor(SUPPLIER, 9_999_001);
  unknown.supply_addresses[0].meter_points[0].agreements[0].tariff_code = 'E-1R-NOT-IN-BENCH-Z';
  const deadline = Date.now() + 10_000;
  while (!(await validate(unknown)).body.includes('tariff_code_not_found')) {
    if (Date.now() > deadline) throw new Error('the catalogue was not in use 10 s after its upload');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const own = await validate(accountFor(SUPPLIER, 9_999_001));
  if (own.status !== 200)
    throw new Error(`the bench account against the catalogue: ${own.status} ${own.body}`);
  return { upload_s: Number(upload_s.toFixed(2)), bytes: payload.length, tariffs: products * 42 };
}
