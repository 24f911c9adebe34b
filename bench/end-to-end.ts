import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startWorker } from '../src/account-import/queue/worker.ts';
import type { Db } from '../src/infra/db/db.ts';
import { sql } from '../src/infra/db/db.ts';
import { exampleAccount, mpanFor, mprnFor } from '../test/helpers/account-fixtures.ts';
import type { BenchApp } from './env.ts';
import { SUPPLIER } from './env.ts';
import { runLoad } from './load.ts';
import { type BenchResult, round, type Scale, TARGETS } from './result.ts';

const BATCH = 1000;

const progress = sql(
  '',
  `SELECT count(*) FILTER (WHERE status = 'PROCESSED')::int AS processed,
          count(*) FILTER (WHERE status IN ('ERRORED', 'DRY_RUN_ERRORED', 'CANCELLED'))::int AS failed,
          count(*)::int AS total
     FROM import_processes WHERE import_supplier = $1`,
);

const quietLogger = { info() {}, warn() {}, error: (o: unknown) => console.error('worker error', o) };

/**
 * The same accounts the load worker sends, as [supplier, external, payload JSON] rows: n of them
 * numbered from `from` (meter points are unique per number, across suppliers).
 */
export function* accountRows(n: number, supplier = SUPPLIER, from = 1): Generator<[string, string, string]> {
  const a = exampleAccount();
  const [elec, gas] = a.supply_addresses[0].meter_points;
  for (let i = from; i < from + n; i++) {
    a.import_supplier = supplier;
    a.external_account_number = `EXT-${String(i).padStart(7, '0')}`;
    elec.identifier = mpanFor(i);
    gas.identifier = mprnFor(i);
    a.references[0].value = `REF${i}`;
    yield [supplier, a.external_account_number, JSON.stringify(a)];
  }
}

/**
 * Baseline: multi-row INSERTs of the same rows, 1,000 a statement, into a scratch table; rows/s,
 * the median of three runs (one run moved by ±25 % here: docs/performance.md).
 */
export async function rawInsert(db: Db, n: number): Promise<number> {
  const rates: number[] = [];
  for (let i = 0; i < 3; i++) rates.push(await rawInsertOnce(db, n));
  return rates.sort((a, b) => a - b)[1];
}

async function rawInsertOnce(db: Db, n: number): Promise<number> {
  await db.exec(
    'CREATE TABLE bench_raw_accounts (import_supplier text, external_account_number text, status text, payload jsonb)',
  );
  let ms = 0;
  let rows: [string, string, string][] = [];
  const flush = async () => {
    const values = rows.map((_, i) => `($${i * 3 + 1}, $${i * 3 + 2}, 'PENDING', $${i * 3 + 3}::jsonb)`);
    const t0 = performance.now();
    await db.query(sql('', `INSERT INTO bench_raw_accounts VALUES ${values.join(',')}`), rows.flat());
    ms += performance.now() - t0;
    rows = [];
  };
  for (const row of accountRows(n)) {
    rows.push(row);
    if (rows.length === BATCH) await flush();
  }
  if (rows.length) await flush();
  await db.exec('DROP TABLE bench_raw_accounts');
  return n / (ms / 1000);
}

export const FERRY_BIN = fileURLToPath(new URL('../bin/ferry.js', import.meta.url));

export interface BenchWorker {
  /** The `ferry worker` process's pid; undefined when the worker runs in this process. */
  pid?: number;
  /** Rejects if the worker process ends before stop() (it never resolves otherwise). */
  died: Promise<never>;
  stop(): Promise<void>;
}

/**
 * The account-creation worker as a migration would run it: `ferry worker`, its own process (one,
 * whatever FERRY_PROCESSES says here), on a server (so it has a core of its own to use); in this
 * process on PGlite, which only this process can open. stop() waits until it has finished its
 * batches, and kills it after 40 s.
 */
export function startBenchWorker(ferry: BenchApp, db: Db, url: string | undefined): BenchWorker {
  if (!url) {
    const worker = startWorker(ferry.config, { db, logger: quietLogger, idlePollMs: 20 });
    return { died: new Promise<never>(() => {}), stop: () => worker.stop() };
  }
  const child: ChildProcess = spawn(process.execPath, [FERRY_BIN, 'worker'], {
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'error', FERRY_PROCESSES: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let stopping = false;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const died = exited.then(() => {
    throw new Error(stopping ? 'stopped' : `the ferry worker process ended (exit ${child.exitCode})`);
  });
  died.catch(() => {}); // awaited by whoever races it
  return {
    pid: child.pid,
    died,
    async stop() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), 40_000);
      await exited;
      clearTimeout(killed);
    },
  };
}

/**
 * The end-to-end target (docs/product.md, Targets): N accounts scheduled over HTTP (64 connections) while a worker creates them,
 * as in a real migration; the clock stops when the last one is PROCESSED.
 */
export async function benchEndToEnd(
  ferry: BenchApp,
  db: Db,
  url: string | undefined,
  scale: Scale,
  deadlineMs: number,
): Promise<{ result: BenchResult; processed: string[] }> {
  const n = scale.accounts;
  const t0 = performance.now();
  const worker = startBenchWorker(ferry, db, url);
  const load = await runLoad(
    {
      url: `${ferry.base}/v2/data-import/accounts/`,
      connections: 64,
      durationSeconds: 0,
      amount: n,
      method: 'POST',
      headers: ferry.headers,
      generate: { kind: 'accounts', supplier: SUPPLIER, from: 1 },
    },
    deadlineMs,
  );
  const scheduledMs = performance.now() - t0;
  let state = { processed: 0, failed: 0, total: 0 };
  try {
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      state = (await db.query<typeof state>(progress, [SUPPLIER])).rows[0];
      if (state.processed + state.failed >= state.total) break;
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await worker.stop();
  }
  const totalMs = performance.now() - t0;
  const perSec = state.processed / (totalMs / 1000);
  const baseline = await rawInsert(db, n);
  const ratio = perSec / baseline;
  const processed = Array.from(
    { length: Math.min(1000, state.processed) },
    (_, i) => `EXT-${String(i + 1).padStart(7, '0')}`,
  );
  return {
    processed,
    result: {
      name: 'end-to-end',
      value: round(perSec, 0),
      unit: 'accounts/s',
      baseline: round(baseline, 0),
      ratio: round(ratio, 3),
      target: TARGETS['end-to-end'],
      pass: ratio >= 0.3 && state.processed === n,
      detail: {
        accounts: n,
        scheduled: load.ok,
        schedule_non2xx: load.non2xx,
        schedule_s: round(scheduledMs / 1000),
        schedule_req_per_s: round(load.ok / (scheduledMs / 1000), 0),
        drain_after_schedule_s: round((totalMs - scheduledMs) / 1000),
        processed: state.processed,
        failed: state.failed,
        worker_concurrency: ferry.config.workerConcurrency,
        worker: url ? 'ferry worker process' : 'in the service process',
      },
    },
  };
}
