import { Counter, Histogram, type Registry } from 'prom-client';

const NAME = 'ferry_worker_batch_duration_seconds';

/**
 * The worker's batch latency: from claiming a batch to every process of it settled (created,
 * errored, or left for a later attempt). One histogram per registry, shared by its workers.
 */
export function workerBatchDuration(registry: Registry): Histogram {
  const existing = registry.getSingleMetric(NAME);
  if (existing) return existing as Histogram;
  return new Histogram({
    name: NAME,
    help: 'Time from claiming a batch of import processes to all of them settled, per batch.',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
}

/** The registry's counter of that name, registered on first use: one per registry, shared by its workers. */
function sharedCounter<L extends string>(registry: Registry, name: string, help: string, labelNames: L[]) {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name, help, labelNames, registers: [registry] });
}

/**
 * Accounts the worker failed because another account held one of their identifiers: the
 * worker's check behind the reservations taken at scheduling (decision 0064). It should stay 0;
 * anything else means a path scheduled an account without reserving.
 */
export const workerIdentifierConflicts = (registry: Registry): Counter<'supplier' | 'code'> =>
  sharedCounter(
    registry,
    'ferry_worker_identifier_conflicts_total',
    'Accounts the worker failed on an identifier another account holds (reservations should make this 0).',
    ['supplier', 'code'],
  );

/** Suppliers the worker paused because too many of their latest processes ERRORED (decision 0068). */
export const supplierAutomaticPauses = (registry: Registry): Counter<'supplier'> =>
  sharedCounter(
    registry,
    'ferry_supplier_automatic_pauses_total',
    'Times the worker paused a supplier because its config pause_when_errored was met.',
    ['supplier'],
  );

/**
 * Accounts the worker failed because, at creation, they no longer passed the catalogue or code
 * list checks (decision 0091). It should stay 0: what accounts or processes use cannot be removed.
 */
export const workerCatalogueRefusals = (registry: Registry): Counter<'supplier'> =>
  sharedCounter(
    registry,
    'ferry_worker_catalogue_refusals_total',
    'Accounts the worker failed at creation on the catalogue or code lists (should stay 0).',
    ['supplier'],
  );
