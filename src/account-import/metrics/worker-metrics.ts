import { Histogram, type Registry } from 'prom-client';

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
