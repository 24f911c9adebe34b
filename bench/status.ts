import type { BenchApp } from './env.ts';
import { SUPPLIER } from './env.ts';
import { compareLoads } from './load.ts';
import { type BenchResult, round, type Scale, TARGETS } from './result.ts';

/**
 * §7 V2 status polling at 64 connections, each request for the next of the imported accounts
 * in turn, against a bare Fastify route returning a constant JSON.
 */
export async function benchStatus(
  ferry: BenchApp,
  baselineBase: string,
  scale: Scale,
  externals: string[],
): Promise<BenchResult> {
  const paths = externals.map((e) => `/v2/data-import/accounts/${SUPPLIER}/${e}/`);
  const spec = (url: string, seconds: number, rotate: boolean) => ({
    url,
    connections: 64,
    durationSeconds: seconds,
    method: 'GET' as const,
    headers: ferry.headers,
    ...(rotate ? { generate: { kind: 'paths' as const, paths } } : {}),
  });
  const url = `${ferry.base}${paths[0]}`;
  const {
    ferry: f,
    baseline: b,
    ratio,
    ratios,
    failures,
  } = await compareLoads(
    (seconds) => spec(url, seconds, true),
    (seconds) => spec(`${baselineBase}/constant/`, seconds, false),
    { seconds: scale.seconds },
  );
  if (f.ok === 0) throw new Error(`status: no 2xx answers (${f.non2xx} non-2xx, ${f.errors} errors)`);
  return {
    name: 'status-v2',
    value: round(f.reqPerSec, 0),
    unit: 'req/s',
    baseline: round(b.reqPerSec, 0),
    ratio: round(ratio),
    target: TARGETS['status-v2'],
    pass: ratio >= 0.5 && f.p99Ms < 20 && failures === 0,
    detail: {
      p50_ms: f.p50Ms,
      p99_ms: f.p99Ms,
      baseline_p99_ms: b.p99Ms,
      pair_ratios: ratios.map((r) => round(r)).join(' '),
      non2xx: f.non2xx,
      errors: f.errors,
    },
  };
}
