import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { recordTransition } from './account-import/import-process.queries.ts';
import { IMPORT_PROCESS_EVENTS } from './account-import/import-process-status.ts';
import { processImport, processImportBatch } from './account-import/worker/process-import.ts';
import {
  type ClaimedProcess,
  claimPendingProcesses,
  expireScheduleWindows,
  lockOwnedProcess,
  releaseExpiredLeases,
} from './account-import/worker/worker.queries.ts';
import type { FerryConfig } from './config.ts';
import { localDate } from './infra/clock.ts';
import { type Db, isDbUnavailableError } from './infra/db/db.ts';

export interface WorkerHandle {
  readonly workerId: string;
  stop(): Promise<void>;
}

export interface WorkerOptions {
  db: Db;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** How long a claim stays valid without the worker finishing it. */
  leaseSeconds?: number;
  /** Pause between claims when there is nothing to do. */
  idlePollMs?: number;
}

/** Batches a worker has in flight at once: while one is in the database, the next is prepared. */
const LANES = 2;
/**
 * The queue's planner statistics are refreshed by the worker after this many claims (or a
 * minute of work): PGlite has no autovacuum and a server may have it off, and with stale
 * statistics the claim sorts every PENDING row instead of reading the first ones in index order.
 */
const ANALYZE_EVERY_CLAIMS = 5_000;
const ANALYZE_EVERY_MS = 60_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One account-creation worker: claims due processes in batches of WORKER_CONCURRENCY, creates
 * each batch's accounts in one transaction (docs/decisions/0014), keeps two batches in flight,
 * and keeps the queue healthy (expired leases back to PENDING, expired schedule windows to
 * ERRORED, fresh planner statistics). Any number of workers, in any number of processes, may
 * share one database. stop() finishes the batches in hand, then returns.
 */
export function startWorkers(config: FerryConfig, opts: WorkerOptions): WorkerHandle {
  const { db, logger } = opts;
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const leaseSeconds = opts.leaseSeconds ?? config.workerLeaseSeconds;
  const idlePollMs = opts.idlePollMs ?? 250;
  let running = true;
  let lastMaintenance = 0;
  let claimedSinceAnalyze = 0;
  let lastAnalyze = Date.now();
  let analyzing: Promise<void> | null = null;

  /** In the background: the lanes go on claiming meanwhile. */
  function refreshQueueStatistics() {
    const due =
      claimedSinceAnalyze >= ANALYZE_EVERY_CLAIMS ||
      (claimedSinceAnalyze > 0 && Date.now() - lastAnalyze >= ANALYZE_EVERY_MS);
    if (!due || analyzing) return;
    claimedSinceAnalyze = 0;
    lastAnalyze = Date.now();
    analyzing = db
      .exec('ANALYZE import_processes')
      .catch((err) => logger.warn({ err }, 'could not refresh the queue statistics'))
      .finally(() => {
        analyzing = null;
      });
  }

  async function settleUnexpected(p: ClaimedProcess, err: unknown) {
    logger.error({ err, importProcessId: p.id }, 'account creation failed unexpectedly');
    if (isDbUnavailableError(err)) return; // the lease expires and the process is tried again
    const dryRun = p.is_dry_run || p.dry_run_only;
    await db.transaction(async (tx) => {
      if ((await tx.query(lockOwnedProcess, [p.id, workerId])).rowCount === 0) return;
      await recordTransition(tx, p.id, {
        status: dryRun ? 'DRY_RUN_ERRORED' : 'ERRORED',
        event: dryRun ? IMPORT_PROCESS_EVENTS.DRY_RUN_ERRORED : IMPORT_PROCESS_EVENTS.ERRORED,
        error: {
          code: 'account_creation_failed',
          detail: 'The account could not be created; the operator can retry it.',
          domain: 'account_import',
        },
      });
    });
  }

  async function tick(): Promise<number> {
    if (Date.now() - lastMaintenance > 1000) {
      lastMaintenance = Date.now();
      await db.query(releaseExpiredLeases);
      await db.query(expireScheduleWindows);
    }
    const claimed = (
      await db.query<ClaimedProcess>(claimPendingProcesses, [
        workerId,
        config.workerConcurrency,
        leaseSeconds,
      ])
    ).rows;
    claimedSinceAnalyze += claimed.length;
    refreshQueueStatistics();
    const today = localDate(new Date(), config.serviceTimezone);
    const one = (p: ClaimedProcess) =>
      processImport(db, p, { workerId, today }).catch((err) => settleUnexpected(p, err).catch(() => {}));
    // Real creations go together in one transaction. A batch that fails is split in halves,
    // earlier-staged half first, so a few bad accounts cost a few more transactions, not one
    // each, and of two accounts claiming one meter point the first staged gets it.
    const settle = async (batch: ClaimedProcess[]): Promise<void> => {
      if (batch.length === 0) return;
      if (batch.length === 1) {
        await one(batch[0]);
        return;
      }
      if (await processImportBatch(db, batch, { workerId, today })) return;
      const half = Math.ceil(batch.length / 2);
      await settle(batch.slice(0, half));
      await settle(batch.slice(half));
    };
    const creations = claimed
      .filter((p) => !p.is_dry_run && !p.dry_run_only)
      .sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
    const dryRuns = claimed.filter((p) => p.is_dry_run || p.dry_run_only);
    await Promise.all([settle(creations), ...dryRuns.map(one)]);
    return claimed.length;
  }

  const lane = async () => {
    while (running) {
      try {
        if ((await tick()) === 0) await sleep(idlePollMs);
      } catch (err) {
        logger.warn({ err }, 'worker loop error; backing off');
        await sleep(1000);
      }
    }
  };
  logger.info(
    { workerId, concurrency: config.workerConcurrency, lanes: LANES },
    'account-creation worker started',
  );
  const loop = Promise.all(Array.from({ length: LANES }, lane));

  return {
    workerId,
    async stop() {
      running = false;
      await loop;
      await analyzing;
    },
  };
}
