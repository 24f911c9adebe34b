import { accountFor } from '../test/helpers/account-fixtures.ts';
import type { BenchApp } from './env.ts';
import { SUPPLIER } from './env.ts';
import { comparedResult, compareLoads } from './load.ts';
import type { BenchResult, Scale } from './result.ts';

/** The validate target (docs/product.md, Targets): a realistic GB account, against a bare Fastify route that parses the same body. */
export async function benchValidate(
  ferry: BenchApp,
  baselineBase: string,
  scale: Scale,
): Promise<BenchResult> {
  const body = JSON.stringify(accountFor(SUPPLIER, 9_999_001));
  const spec = (url: string, seconds: number) => ({
    url,
    connections: 16,
    durationSeconds: seconds,
    method: 'POST' as const,
    headers: ferry.headers,
    body,
  });
  const ferryUrl = `${ferry.base}/v2/data-import/accounts/validate/`;
  const comparison = await compareLoads(
    (seconds) => spec(ferryUrl, seconds),
    (seconds) => spec(`${baselineBase}/parse/`, seconds),
    { seconds: scale.seconds },
  );
  return comparedResult('validate', comparison, true, {
    body_bytes: body.length,
    p99_ms: comparison.ferry.p99Ms,
  });
}
