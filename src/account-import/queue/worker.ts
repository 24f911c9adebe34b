/**
 * The import queue: the import_processes table is the queue. A worker (this file, on the lease
 * loop of infra/lease-loop.ts) claims due processes and creates their accounts; queue.queries.ts
 * holds its SQL, process-import.ts the account creation of what it claimed. `ferry worker` (src/worker-process.ts) runs one worker
 * without the API; `ferry serve` runs one beside it.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Registry } from 'prom-client';
import { CONFLICT_CODES } from '../../accounts/payload/unique-identifiers.ts';
import type { FerryConfig } from '../../config.ts';
import { localDate } from '../../infra/clock.ts';
import { statisticsRefresher } from '../../infra/db/analyze.ts';
import { type Db, isTemporaryDbError } from '../../infra/db/db.ts';
import { fleetLease } from '../../infra/fleet-lease.ts';
import { startLeaseLoop } from '../../infra/lease-loop.ts';
import { foldTallyChanges } from '../metrics/import-metrics.queries.ts';
import {
  supplierAutomaticPauses,
  workerBatchDuration,
  workerCatalogueRefusals,
  workerIdentifierConflicts,
} from '../metrics/worker-metrics.ts';
import { type EventProcess, logProcessEvents } from '../process-event-log.ts';
import { recordTransition } from '../process-transitions.queries.ts';
import { pauseWhenErrored } from './automatic-pause.ts';
import { IMPORTS_DUE_CHANNEL } from './due-notice.ts';
import { type ImportOutcome, processImport, processImportBatch } from './process-import.ts';
import {
  type ClaimedProcess,
  claimPendingProcesses,
  expireScheduleWindows,
  lockOwnedProcess,
  type MaintainedProcess,
  releaseExpiredLeases,
  retryProcessesLater,
} from './queue.queries.ts';

export interface WorkerHandle {
  readonly workerId: string;
  stop(): Promise<void>;
}

export interface WorkerOptions {
  db: Db;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** How long a claim stays valid without the worker finishing it. */
  leaseSeconds?: number;
  /** Pause after a claim that found nothing (250 ms unless said)... */
  idlePollMs?: number;
  /**
   * ...doubling with each empty claim in a row up to this (eight times idlePollMs unless said);
   * a notice that accounts were scheduled (due-notice.ts) ends the wait at once.
   */
  idlePollMaxMs?: number;
  /** Where the batch-duration histogram goes (/metrics of the process running the worker). */
  metrics?: Registry;
  /** A batch was settled: its transactions wrote events (the webhooks' fan-out reads them now). */
  onSettled?: () => void;
}

/** The failures the reservations taken at scheduling should have refused. */
const LATE_CONFLICT_CODES = new Set<string>(Object.values(CONFLICT_CODES));

/** Batches a worker has in flight at once: while one is in the database, the next is prepared. */
const LANES = 2;
/**
 * The queue's planner statistics are refreshed by the worker after this many claims, doubling
 * after each refresh (src/infra/db/analyze.ts), or a minute of work: PGlite has no autovacuum
 * and a server may have it off, and with stale statistics the claim sorts every PENDING row
 * instead of reading the first ones in index order.
 */
const ANALYZE_EVERY_CLAIMS = 5_000;
const ANALYZE_EVERY_MS = 60_000;
/**
 * How long the queue-maintenance lease lasts (decision 0102): when the process that maintains
 * the queue stops or dies, another takes over within about this long plus one idle wait.
 */
const MAINTENANCE_LEASE_SECONDS = 5;
/** How often the worker folds the metrics' tally changes (decision 0044). */
const FOLD_TALLIES_EVERY_MS = 5_000;

const asEventProcess = (p: MaintainedProcess | ClaimedProcess): EventProcess => ({
  supplier: p.import_supplier,
  externalAccountNumber: p.external_account_number,
  importProcessId: p.id,
});

/**
 * One account-creation worker: claims due processes in batches of WORKER_CONCURRENCY, creates
 * each batch's accounts in one transaction (docs/decisions/0014), keeps two batches in flight,
 * and keeps the queue healthy (expired leases back to PENDING, expired schedule windows to
 * ERRORED, fresh planner statistics). Any number of workers, in any number of processes, may
 * share one database. stop() finishes the batches in hand, then returns.
 * A failure that is not about the data (the database unavailable, a statement timeout) never
 * ends a process ERRORED: the process is retried later, with backoff (retryLater).
 */
export function startWorker(config: FerryConfig, opts: WorkerOptions): WorkerHandle {
  const { db, logger } = opts;
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const leaseSeconds = opts.leaseSeconds ?? config.workerLeaseSeconds;
  const idlePollMs = opts.idlePollMs ?? 250;
  let lastMaintenance = 0;
  const maintenanceLease = fleetLease(db, 'import-queue-maintenance', { seconds: MAINTENANCE_LEASE_SECONDS });
  let lastFold = Date.now();
  const batchDuration = opts.metrics ? workerBatchDuration(opts.metrics) : null;
  const lateConflicts = opts.metrics ? workerIdentifierConflicts(opts.metrics) : null;
  const catalogueRefusals = opts.metrics ? workerCatalogueRefusals(opts.metrics) : null;
  const automaticPauses = opts.metrics ? supplierAutomaticPauses(opts.metrics) : null;
  /** Suppliers with a process ended ERRORED since their last automatic-pause check. */
  const erroredSince = new Set<string>();
  /** Suppliers whose last check found fewer than `window` finished processes. */
  const windowsFilling = new Set<string>();
  /** Processes to leave for a later attempt that could not be handed back yet (database down). */
  const toRetry = new Set<string>();

  /** In the background: the lanes go on claiming meanwhile. */
  const queueStatistics = statisticsRefresher(db, {
    table: 'import_processes',
    everyClaims: ANALYZE_EVERY_CLAIMS,
    everyMs: ANALYZE_EVERY_MS,
    atFirstClaim: false,
    logger,
    failureMessage: 'could not refresh the queue statistics',
  });

  /** Hands the processes in toRetry back with a backoff; throws while the database is down. */
  async function handBack() {
    if (toRetry.size === 0) return;
    const ids = [...toRetry];
    await db.query(retryProcessesLater, [ids, workerId]);
    for (const id of ids) toRetry.delete(id);
  }

  /**
   * Leaves processes for a later attempt. While the database is down the hand-back waits for
   * the next round that reaches it (or, if this worker stops first, for the lease to expire).
   */
  async function retryLater(ids: string[], err: unknown) {
    logger.warn({ err, importProcessIds: ids }, 'database unavailable; the accounts will be retried');
    for (const id of ids) toRetry.add(id);
    await handBack().catch(() => {});
  }

  async function settleUnexpected(p: ClaimedProcess, err: unknown) {
    if (isTemporaryDbError(err)) return retryLater([p.id], err);
    logger.error({ err, importProcessId: p.id }, 'account creation failed unexpectedly');
    const dryRun = p.is_dry_run || p.dry_run_only;
    const code = 'account_creation_failed';
    const outcome = await db.transaction(async (tx): Promise<ImportOutcome | null> => {
      if ((await tx.query(lockOwnedProcess, [p.id, workerId])).rowCount === 0) return null;
      const trigger = dryRun ? 'dry_run_fail' : 'fail';
      await recordTransition(tx, p.id, trigger, {
        error: {
          code,
          detail: 'The account could not be created; the operator can retry it.',
          domain: 'account_import',
        },
      });
      return { trigger, errorCode: code };
    });
    logOutcome(p, outcome);
  }

  function logOutcome(p: ClaimedProcess, outcome: ImportOutcome | null) {
    if (!outcome) return;
    if (outcome.trigger === 'fail') erroredSince.add(p.import_supplier);
    if (outcome.trigger === 'fail' && LATE_CONFLICT_CODES.has(outcome.errorCode ?? '')) {
      lateConflicts?.inc({ supplier: p.import_supplier, code: outcome.errorCode });
    }
    if (outcome.errorCode === 'catalogue_check_failed')
      catalogueRefusals?.inc({ supplier: p.import_supplier });
    logProcessEvents(logger, outcome.trigger, [{ ...asEventProcess(p), errorCode: outcome.errorCode }], {
      workerId,
    });
  }

  /**
   * After a round: each supplier of it with `pause_when_errored` is checked (decision 0068) when
   * one of its processes has ended ERRORED since its last check, the only way the share of ERRORED
   * among its last `window` can rise, and then after every round until `window` have finished
   * (the process that fills the window may be PROCESSED). A failed check is tried again after
   * the next round.
   */
  async function checkAutomaticPauses(claimed: readonly ClaimedProcess[]) {
    const settings = new Map(
      claimed.flatMap((p) =>
        p.pause_when_errored ? [[p.import_supplier, p.pause_when_errored] as const] : [],
      ),
    );
    for (const [supplier, setting] of settings) {
      if (!erroredSince.has(supplier) && !windowsFilling.has(supplier)) continue;
      erroredSince.delete(supplier);
      try {
        const { finished } = await pauseWhenErrored(db, supplier, setting, {
          logger,
          pauses: automaticPauses,
        });
        if (finished < setting.window) windowsFilling.add(supplier);
        else windowsFilling.delete(supplier);
      } catch (err) {
        erroredSince.add(supplier);
        logger.warn({ err, importSupplier: supplier }, 'could not check the automatic pause');
      }
    }
  }

  /** Once a second: leases that expired, windows that closed; every few seconds, the tallies. */
  async function maintain() {
    lastMaintenance = Date.now();
    const released = (await db.query<MaintainedProcess>(releaseExpiredLeases)).rows;
    logProcessEvents(logger, 'release_lease', released.map(asEventProcess), { reason: 'lease_expired' });
    const expired = (await db.query<MaintainedProcess>(expireScheduleWindows)).rows;
    const errorCode = 'schedule_window_expired';
    for (const trigger of ['expire_window', 'expire_dry_run_window'] as const) {
      const these = expired.filter((p) => p.is_dry_run === (trigger === 'expire_dry_run_window'));
      logProcessEvents(
        logger,
        trigger,
        these.map((p) => ({ ...asEventProcess(p), errorCode })),
      );
    }
    if (Date.now() - lastFold >= FOLD_TALLIES_EVERY_MS) {
      lastFold = Date.now();
      await db
        .query(foldTallyChanges)
        .catch((err) => logger.warn({ err }, 'could not fold the import tallies'));
    }
  }

  /**
   * Before each claim: the hand-backs that wait, and the queue's upkeep once a second, in the one
   * worker process of the fleet that holds the maintenance lease (decision 0102): done by every
   * process, it was the same statements once a second each, finding the same rows.
   */
  async function prepare() {
    await handBack();
    if (Date.now() - lastMaintenance <= 1000) return;
    // Set before the lease is asked: the other lane must not pass this check meanwhile.
    lastMaintenance = Date.now();
    if (await maintenanceLease.held()) await maintain();
  }

  async function claim(): Promise<ClaimedProcess[]> {
    const claimed = (
      await db.query<ClaimedProcess>(claimPendingProcesses, [
        workerId,
        config.workerConcurrency,
        leaseSeconds,
      ])
    ).rows;
    queueStatistics.claimed(claimed.length);
    return claimed;
  }

  async function settleClaimed(claimed: readonly ClaimedProcess[]): Promise<void> {
    const today = localDate(new Date(), config.serviceTimezone);
    const one = (p: ClaimedProcess) =>
      processImport(db, p, { workerId, today }).then(
        (outcome) => logOutcome(p, outcome),
        (err) => settleUnexpected(p, err).catch(() => {}),
      );
    // Real creations go together in one transaction. A batch that fails is split in halves,
    // earlier-staged half first, so a few bad accounts cost a few more transactions, not one
    // each, and of two accounts claiming one meter point the first staged gets it.
    const settle = async (batch: ClaimedProcess[]): Promise<void> => {
      if (batch.length === 0) return;
      if (batch.length === 1) {
        await one(batch[0]);
        return;
      }
      let created: ClaimedProcess[] | false;
      try {
        created = await processImportBatch(db, batch, { workerId, today });
      } catch (err) {
        // Only an unavailable database is thrown. Should the commit have landed all the same,
        // the processes are PROCESSED and the hand-back leaves them alone.
        await retryLater(
          batch.map((p) => p.id),
          err,
        );
        return;
      }
      if (created) {
        logProcessEvents(logger, 'create', created.map(asEventProcess), { workerId });
        return;
      }
      const half = Math.ceil(batch.length / 2);
      await settle(batch.slice(0, half));
      await settle(batch.slice(half));
    };
    const creations = claimed
      .filter((p) => !p.is_dry_run && !p.dry_run_only)
      .sort((a, b) => Number(BigInt(a.id) - BigInt(b.id)));
    const dryRuns = claimed.filter((p) => p.is_dry_run || p.dry_run_only);
    await Promise.all([settle(creations), ...dryRuns.map(one)]);
    await checkAutomaticPauses(claimed);
  }

  logger.info(
    { workerId, concurrency: config.workerConcurrency, lanes: LANES },
    'account-creation worker started',
  );
  // Two lanes: while one batch is in the database, the next is claimed and prepared.
  const loop = startLeaseLoop(
    { prepare, claim, settle: settleClaimed },
    {
      name: 'worker',
      logger,
      idlePollMs,
      idlePollMaxMs: opts.idlePollMaxMs ?? idlePollMs * 8,
      lanes: LANES,
      onRound: (_claimed, ms) => {
        batchDuration?.observe(ms / 1000);
        opts.onSettled?.();
      },
    },
  );

  // Scheduled accounts are claimed at once, however long the idle wait had grown.
  const listening = db
    .listen(IMPORTS_DUE_CHANNEL, {
      onMessage: () => loop.wake(),
      // Listening again after a lost connection: what was scheduled meanwhile is claimed now.
      onLive: (live) => {
        if (live) loop.wake();
      },
    })
    .catch((err) => {
      logger.warn({ err }, 'worker: could not listen for scheduled accounts; polling only');
      return null;
    });

  return {
    workerId,
    async stop() {
      // Stopping the loop does not wait on the notices' connection, nor fails with it.
      await Promise.all([loop.stop(), listening.then((unlisten) => unlisten?.()).catch(() => {})]);
      await maintenanceLease
        .release()
        .catch((err) => logger.warn({ err }, 'worker: could not hand the maintenance lease on'));
      await queueStatistics.pending;
    },
  };
}
