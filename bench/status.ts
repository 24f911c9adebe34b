import type { BenchApp } from './env.ts';
import { SUPPLIER } from './env.ts';
import { runLoad } from './load.ts';
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
  await runLoad(spec(url, 1, true));
  const f = await runLoad(spec(url, scale.seconds, true));
  await runLoad(spec(`${baselineBase}/constant/`, 1, false));
  const b = await runLoad(spec(`${baselineBase}/constant/`, scale.seconds, false));
  if (f.ok === 0) throw new Error(`status: no 2xx answers (${f.non2xx} non-2xx, ${f.errors} errors)`);
  return {
    name: 'status-v2',
    value: round(f.reqPerSec, 0),
    unit: 'req/s',
    baseline: round(b.reqPerSec, 0),
    ratio: round(f.reqPerSec / b.reqPerSec),
    target: TARGETS['status-v2'],
    pass: f.reqPerSec / b.reqPerSec >= 0.5 && f.p99Ms < 20 && f.non2xx === 0 && f.errors === 0,
    detail: {
      p50_ms: f.p50Ms,
      p99_ms: f.p99Ms,
      baseline_p99_ms: b.p99Ms,
      non2xx: f.non2xx,
      errors: f.errors,
    },
  };
}
