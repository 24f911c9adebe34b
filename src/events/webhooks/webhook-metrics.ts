import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Queryable } from '../../infra/db/db.ts';
import { countPendingDeliveries } from './webhook-deliveries.queries.ts';

export interface WebhookMetrics {
  /** delivered: a 2xx; failed_attempt: an attempt that failed and will be retried; failed: given up. */
  deliveries: Counter<'result'>;
  /** From the event's occurred_at to its delivery. */
  lag: Histogram;
}

const DELIVERIES = 'ferry_webhook_deliveries_total';
const LAG = 'ferry_webhook_delivery_lag_seconds';
const PENDING = 'ferry_webhook_deliveries_pending';

/**
 * The webhook metrics of a registry, registered on first use: one set per registry, shared by
 * every sender on it. The pending gauge is read from the database when scraped (one count over
 * a partial index), so it is right whichever process delivers.
 */
export function webhookMetrics(registry: Registry, db: Queryable): WebhookMetrics {
  const deliveries =
    (registry.getSingleMetric(DELIVERIES) as Counter<'result'> | undefined) ??
    new Counter({
      name: DELIVERIES,
      help: 'Webhook delivery outcomes: delivered, failed_attempt (will be retried), failed (given up after 72 hours).',
      labelNames: ['result'],
      registers: [registry],
    });
  const lag =
    (registry.getSingleMetric(LAG) as Histogram | undefined) ??
    new Histogram({
      name: LAG,
      help: 'Seconds from an event to its webhook delivery (a 2xx), retries included.',
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 21_600, 86_400],
      registers: [registry],
    });
  if (!registry.getSingleMetric(PENDING)) {
    new Gauge({
      name: PENDING,
      help: 'Webhook deliveries waiting to go out (due, retrying later, or in flight).',
      registers: [registry],
      async collect() {
        // A database that cannot answer leaves the last count: the scrape itself must not fail.
        const counted = await db.query<{ n: number }>(countPendingDeliveries).catch(() => null);
        if (counted) this.set(counted.rows[0].n);
      },
    });
  }
  return { deliveries, lag };
}
