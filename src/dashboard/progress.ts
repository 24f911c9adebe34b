import { supplierProgress } from '../account-import/operator/supplier-activity.queries.ts';
import type { Db } from '../infra/db/db.ts';
import { listSuppliersWithCounts, type SupplierWithCounts } from '../suppliers/suppliers.queries.ts';
import { IMPORT_PROCESS_STATUSES, type ImportProcessStatus } from '../vocabulary/import-process-states.ts';

/** Minutes of the chart, and of the recent rate the ETA is drawn from. */
export const CHART_MINUTES = 60;
export const RATE_MINUTES = 5;

/** States a worker will still take without the operator: what the ETA waits for. */
export const REMAINING_STATES = ['PENDING', 'IN_PROGRESS'] as const satisfies readonly ImportProcessStatus[];

export interface Estimate {
  remaining: number;
  /** Accounts created per minute over the last RATE_MINUTES minutes; null with no series. */
  ratePerMinute: number;
  /** Minutes until nothing remains at that rate: 0 when done, null when it cannot be told. */
  etaMinutes: number | null;
  eta: string;
}

/**
 * The recent rate and the time left. The series' last minute is the current one, still running:
 * the rate counts the last RATE_MINUTES buckets over the time they really span (four whole minutes
 * and the part of this one), so a new minute does not halve the rate.
 */
export function estimate(opts: {
  perMinute: { minute: string; created: number }[];
  remaining: number;
  paused: boolean;
  now: Date;
}): Estimate {
  const { perMinute, remaining, paused, now } = opts;
  const recent = perMinute.slice(-RATE_MINUTES);
  const created = recent.reduce((sum, m) => sum + m.created, 0);
  const intoMinute = (now.getTime() % 60_000) / 60_000;
  const span = Math.max(recent.length - 1, 0) + intoMinute;
  const ratePerMinute = span > 0 ? created / span : 0;
  if (remaining === 0) return { remaining, ratePerMinute, etaMinutes: 0, eta: 'done: nothing waiting' };
  if (paused) return { remaining, ratePerMinute, etaMinutes: null, eta: 'paused' };
  if (ratePerMinute === 0) {
    return {
      remaining,
      ratePerMinute,
      etaMinutes: null,
      eta: `unknown: nothing created in the last ${RATE_MINUTES} minutes`,
    };
  }
  const etaMinutes = remaining / ratePerMinute;
  return { remaining, ratePerMinute, etaMinutes, eta: describeMinutes(etaMinutes) };
}

export function describeMinutes(minutes: number): string {
  if (minutes < 1) return 'under a minute';
  if (minutes < 90) return `about ${Math.round(minutes)} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `about ${hours} h ${Math.round(minutes - hours * 60)} min`;
  return `about ${Math.round(hours / 24)} days`;
}

export interface SupplierSnapshot {
  code: string;
  status: SupplierWithCounts['status'];
  /** The automatic pause the supplier is in (decision 0068), for the page's banner. */
  automatic_pause: SupplierWithCounts['automatic_pause'];
  counts: Record<ImportProcessStatus, number>;
  per_minute: { minute: string; created: number }[];
  created_in_chart: number;
  rate_per_minute: number;
  remaining: number;
  eta: string;
}

/** A supplier's live progress (what the page shows and its script polls); null for no such supplier. */
export async function supplierSnapshot(
  db: Db,
  code: string,
  now = new Date(),
): Promise<SupplierSnapshot | null> {
  const [supplier] = await listSuppliersWithCounts(db, code);
  if (!supplier) return null;
  const progress = await supplierProgress(db, code, CHART_MINUTES, now);
  const counts = supplier.import_processes;
  const remaining = REMAINING_STATES.reduce((sum, s) => sum + counts[s], 0);
  const e = estimate({
    perMinute: progress.per_minute,
    remaining,
    paused: supplier.status === 'Paused',
    now,
  });
  return {
    code,
    status: supplier.status,
    automatic_pause: supplier.automatic_pause,
    counts: Object.fromEntries(IMPORT_PROCESS_STATUSES.map((s) => [s, counts[s] ?? 0])) as Record<
      ImportProcessStatus,
      number
    >,
    per_minute: progress.per_minute,
    created_in_chart: progress.created,
    rate_per_minute: Math.round(e.ratePerMinute * 10) / 10,
    remaining,
    eta: e.eta,
  };
}
