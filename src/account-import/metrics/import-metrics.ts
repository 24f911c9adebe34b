/**
 * The migration's own families on /metrics (docs/product.md, Observability), read from the
 * database at scrape time so they are the same whichever process serves them and survive
 * restarts (decision 0044): the tallies the import_processes triggers keep, and the queue lag.
 * One scrape runs two small queries whatever the number of processes.
 */
import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Queryable } from '../../infra/db/db.ts';
import { IMPORT_PROCESS_STATUSES } from '../../vocabulary/import-process-states.ts';
import { readScheduleRefusals, splitRefusals } from '../refusals/schedule-refusals.ts';
import { foldTallyChanges, readQueueLag, readTallies, type TallyRow } from './import-metrics.queries.ts';

/** A scrape folds the changes itself when this many wait (no worker has folded them lately). */
const FOLD_AT_SCRAPE = 1_000;
/** The states whose entries count as import errors. */
const ERROR_STATES = new Set(['ERRORED', 'DRY_RUN_ERRORED']);

interface Snapshot {
  /** Supplier → state → processes now. Every supplier with processes is here. */
  processes: Map<string, Map<string, number>>;
  /** Supplier → entries into PROCESSED. */
  accountsCreated: Map<string, number>;
  /** Supplier → error code → entries into an error state. */
  errors: Map<string, Map<string, number>>;
  queueLagSeconds: number;
  /** Refusals at scheduling: supplier, code, how many. */
  refusals: { import_supplier: string; code: string; refusals: string }[];
}

async function readSnapshot(db: Queryable, log: Pick<FastifyBaseLogger, 'warn'>): Promise<Snapshot> {
  const [tallies, lag, refusals] = await Promise.all([
    db.query<TallyRow & { changes: number }>(readTallies),
    db.query<{ seconds: number }>(readQueueLag),
    db.query<Snapshot['refusals'][number]>(readScheduleRefusals),
  ]);
  const snapshot: Snapshot = {
    processes: new Map(),
    accountsCreated: new Map(),
    errors: new Map(),
    queueLagSeconds: Number(lag.rows[0]?.seconds ?? 0),
    refusals: refusals.rows,
  };
  let changes = 0;
  for (const row of tallies.rows) {
    changes += row.changes;
    const bySupplier = snapshot.processes.get(row.import_supplier) ?? new Map<string, number>();
    bySupplier.set(row.status, (bySupplier.get(row.status) ?? 0) + Number(row.processes));
    snapshot.processes.set(row.import_supplier, bySupplier);
    const supplier = row.import_supplier;
    if (row.status === 'PROCESSED') {
      snapshot.accountsCreated.set(
        supplier,
        (snapshot.accountsCreated.get(supplier) ?? 0) + Number(row.entered),
      );
    }
    if (ERROR_STATES.has(row.status)) {
      const byCode = snapshot.errors.get(supplier) ?? new Map<string, number>();
      byCode.set(row.error_code, (byCode.get(row.error_code) ?? 0) + Number(row.entered));
      snapshot.errors.set(supplier, byCode);
    }
  }
  if (changes >= FOLD_AT_SCRAPE) {
    db.query(foldTallyChanges).catch((err) => log.warn({ err }, 'could not fold the import tallies'));
  }
  return snapshot;
}

/**
 * Registers ferry_import_processes{supplier,status}, ferry_accounts_created_total{supplier},
 * ferry_import_errors_total{supplier,code}, ferry_schedule_refusals_total{supplier,code},
 * ferry_supplier_state_refusals_total{supplier,code} and
 * ferry_import_queue_lag_seconds on `registry`. The
 * families of one scrape share one read; a read that fails (the database away) leaves the last
 * values. A supplier with processes has an accounts-created sample, zero included.
 */
export function registerImportMetrics(
  registry: Registry,
  db: Queryable,
  log: Pick<FastifyBaseLogger, 'warn'>,
): void {
  let reading: Promise<Snapshot | null> | null = null;
  const read = () => {
    reading ??= readSnapshot(db, log)
      .catch((err) => {
        log.warn({ err }, 'could not read the import metrics');
        return null;
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  };

  /** A collect function that refills the metric from this scrape's snapshot (kept as it was when the read fails). */
  const refill = <M extends { reset(): void }>(fill: (metric: M, s: Snapshot) => void) =>
    async function collect(this: M) {
      const s = await read();
      if (!s) return;
      this.reset();
      fill(this, s);
    };

  new Gauge({
    name: 'ferry_import_processes',
    help: 'Import processes by supplier and state, now.',
    labelNames: ['supplier', 'status'],
    registers: [registry],
    collect: refill((gauge, s) => {
      for (const [supplier, byStatus] of s.processes) {
        for (const status of IMPORT_PROCESS_STATUSES)
          gauge.set({ supplier, status }, byStatus.get(status) ?? 0);
      }
    }),
  });
  const counters: {
    name: string;
    help: string;
    labelNames: string[];
    fill: (c: Counter, s: Snapshot) => void;
  }[] = [
    {
      name: 'ferry_accounts_created_total',
      help: 'Accounts created by imports (processes that reached PROCESSED), by supplier.',
      labelNames: ['supplier'],
      fill: (counter, s) => {
        for (const supplier of s.processes.keys())
          counter.inc({ supplier }, s.accountsCreated.get(supplier) ?? 0);
      },
    },
    {
      name: 'ferry_import_errors_total',
      help: 'Import processes that ended in error (ERRORED or DRY_RUN_ERRORED), by supplier and error code.',
      labelNames: ['supplier', 'code'],
      fill: (counter, s) => {
        for (const [supplier, byCode] of s.errors) {
          for (const [code, n] of byCode) counter.inc({ supplier, code }, n);
        }
      },
    },
    {
      name: 'ferry_schedule_refusals_total',
      help: "Accounts refused when they were to be scheduled (no process was created) for their data, by supplier and code; a validation refusal counts once per distinct item code. Refusals for the supplier's state are ferry_supplier_state_refusals_total.",
      labelNames: ['supplier', 'code'],
      fill: (counter, s) => {
        for (const r of splitRefusals(s.refusals).data)
          counter.inc({ supplier: r.import_supplier, code: r.code }, Number(r.refusals));
      },
    },
    {
      name: 'ferry_supplier_state_refusals_total',
      help: 'Scheduling requests refused because the supplier was Paused or Complete, by supplier and code: about the supplier, not the data, and repeated by every retry of a push waiting out a pause.',
      labelNames: ['supplier', 'code'],
      fill: (counter, s) => {
        for (const r of splitRefusals(s.refusals).supplierState)
          counter.inc({ supplier: r.import_supplier, code: r.code }, Number(r.refusals));
      },
    },
  ];
  for (const { fill, ...family } of counters)
    new Counter({ ...family, registers: [registry], collect: refill(fill) });
  new Gauge({
    name: 'ferry_import_queue_lag_seconds',
    help: 'How long the due PENDING process a worker would claim next has been waiting (0: none due).',
    registers: [registry],
    async collect() {
      const s = await read();
      if (s) this.set(s.queueLagSeconds);
    },
  });
}
