import { accountFor } from '../test/helpers/account-fixtures.ts';
import type { BenchApp } from './env.ts';
import { SUPPLIER } from './env.ts';
import { compareLoads } from './load.ts';
import { type BenchResult, round, type Scale, TARGETS } from './result.ts';

/** §7 validate: a realistic GB account, against a bare Fastify route that parses the same body. */
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
  const {
    ferry: f,
    baseline: b,
    ratio,
    ratios,
    failures,
  } = await compareLoads(
    (seconds) => spec(ferryUrl, seconds),
    (seconds) => spec(`${baselineBase}/parse/`, seconds),
    { seconds: scale.seconds },
  );
  if (f.ok === 0) throw new Error(`validate: no 2xx answers (${f.non2xx} non-2xx, ${f.errors} errors)`);
  return {
    name: 'validate',
    value: round(f.reqPerSec, 0),
    unit: 'req/s',
    baseline: round(b.reqPerSec, 0),
    ratio: round(ratio),
    target: TARGETS.validate,
    pass: ratio >= 0.5 && failures === 0,
    detail: {
      body_bytes: body.length,
      p99_ms: f.p99Ms,
      non2xx: f.non2xx,
      errors: f.errors,
      pair_ratios: ratios.map((r) => round(r)).join(' '),
    },
  };
}
