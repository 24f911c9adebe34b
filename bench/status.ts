import type { BenchApp } from './env.ts';
import { SUPPLIER } from './env.ts';
import { comparedResult, compareLoads } from './load.ts';
import type { BenchResult, Scale } from './result.ts';

/**
 * The status-v2 target (docs/product.md, Targets): V2 status polling at 64 connections, each request for the next of the imported accounts
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
  const comparison = await compareLoads(
    (seconds) => spec(url, seconds, true),
    (seconds) => spec(`${baselineBase}/constant/`, seconds, false),
    { seconds: scale.seconds },
  );
  const { ferry: f, baseline: b } = comparison;
  return comparedResult('status-v2', comparison, f.p99Ms < 20, {
    p50_ms: f.p50Ms,
    p99_ms: f.p99Ms,
    baseline_p99_ms: b.p99Ms,
  });
}
