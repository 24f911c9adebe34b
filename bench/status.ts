import type { BenchApp } from './env.ts';
import { SUPPLIER } from './env.ts';
import { runLoad } from './load.ts';
import { type BenchResult, round, type Scale } from './result.ts';

/** §7 V2 status polling at 64 connections, against a bare Fastify route returning a constant JSON. */
export async function benchStatus(
  ferry: BenchApp,
  baselineBase: string,
  scale: Scale,
  external: string,
): Promise<BenchResult> {
  const spec = (url: string, seconds: number) => ({
    url,
    connections: 64,
    durationSeconds: seconds,
    method: 'GET' as const,
    headers: ferry.headers,
  });
  const url = `${ferry.base}/v2/data-import/accounts/${SUPPLIER}/${external}/`;
  await runLoad(spec(url, 1));
  const f = await runLoad(spec(url, scale.seconds));
  await runLoad(spec(`${baselineBase}/constant/`, 1));
  const b = await runLoad(spec(`${baselineBase}/constant/`, scale.seconds));
  if (f.ok === 0) throw new Error(`status: no 2xx answers (${f.non2xx} non-2xx, ${f.errors} errors)`);
  return {
    name: 'status-v2',
    value: round(f.reqPerSec, 0),
    unit: 'req/s',
    baseline: round(b.reqPerSec, 0),
    ratio: round(f.reqPerSec / b.reqPerSec),
    target: '>= 10000 req/s, p99 < 20 ms @64 conn',
    pass: f.reqPerSec >= 10_000 && f.p99Ms < 20 && f.non2xx === 0 && f.errors === 0,
    detail: {
      p50_ms: f.p50Ms,
      p99_ms: f.p99Ms,
      baseline_p99_ms: b.p99Ms,
      non2xx: f.non2xx,
      errors: f.errors,
    },
  };
}
