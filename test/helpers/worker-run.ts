import type { Registry } from 'prom-client';
import { startWorker, type WorkerOptions } from '../../src/account-import/queue/worker.ts';
import type { FerryConfig } from '../../src/config.ts';
import { type Db, sql } from '../../src/infra/db/db.ts';

const silent = {
  info() {},
  warn: (o: unknown) => console.error('WARN', o),
  error: (o: unknown) => console.error('ERR', o),
};

const countActive = sql(
  '',
  "SELECT count(*)::int AS n FROM import_processes p JOIN import_suppliers s ON s.code = p.import_supplier WHERE s.status = 'Ongoing' AND ((p.status = 'PENDING' AND p.schedule_window_start <= now()) OR p.status = 'IN_PROGRESS')",
);

/** Runs a worker until no due work remains for Ongoing suppliers (or the timeout), then stops it. */
export async function runWorkerUntilIdle(
  config: FerryConfig,
  db: Db,
  opts: {
    timeoutMs?: number;
    leaseSeconds?: number;
    logger?: WorkerOptions['logger'];
    metrics?: Registry;
  } = {},
) {
  const worker = startWorker(config, {
    db,
    logger: opts.logger ?? silent,
    idlePollMs: 20,
    leaseSeconds: opts.leaseSeconds,
    metrics: opts.metrics,
  });
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  try {
    for (;;) {
      await new Promise((r) => setTimeout(r, 30));
      const { rows } = await db.query<{ n: number }>(countActive);
      if (rows[0].n === 0) return;
      if (Date.now() > deadline)
        throw new Error(`worker still busy after ${opts.timeoutMs} ms (${rows[0].n} left)`);
    }
  } finally {
    await worker.stop();
  }
}
