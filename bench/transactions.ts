import type { BenchApp } from './env.ts';
import { SUPPLIER } from './env.ts';
import { runLoad } from './load.ts';
import { type BenchResult, round, type Scale, TARGETS } from './result.ts';

const PER_BATCH = 100;

/** The transactions target (docs/product.md, Targets): batches of 100 valid transactions spread over several imported accounts. */
export async function benchTransactions(
  ferry: BenchApp,
  scale: Scale,
  accounts: string[],
): Promise<BenchResult> {
  const r = await runLoad({
    url: `${ferry.base}/v1/data-import/transactions/create/`,
    connections: Math.min(32, accounts.length * 2),
    durationSeconds: scale.seconds,
    method: 'POST',
    headers: ferry.headers,
    generate: { kind: 'transactions', supplier: SUPPLIER, accounts, perBatch: PER_BATCH },
  });
  if (r.ok === 0) throw new Error(`transactions: no 2xx answers (${r.non2xx} non-2xx, ${r.errors} errors)`);
  const perSec = (r.ok * PER_BATCH) / r.durationSeconds;
  return {
    name: 'transactions',
    value: round(perSec, 0),
    unit: 'tx/s',
    baseline: null,
    ratio: null,
    target: TARGETS.transactions,
    pass: perSec >= 30_000 && r.non2xx === 0 && r.errors === 0,
    detail: {
      batches_per_s: round(r.reqPerSec, 1),
      accounts: accounts.length,
      p99_ms: r.p99Ms,
      non2xx: r.non2xx,
      errors: r.errors,
    },
  };
}
