/**
 * Webhook fan-out: the feed's events become deliveries, one per event and endpoint that wants it
 * (its suppliers, its types). Each endpoint has a cursor into the feed; a round reads one page
 * after it with readEvents, which never passes over an event of a transaction that commits late,
 * and writes the page's deliveries and the new cursor in one transaction under the endpoint's row
 * lock. A worker killed mid-round loses nothing: its transaction rolls back, cursor included, and
 * the next round (in any worker) reads the same page again.
 */
import type { Db, Queryable } from '../../infra/db/db.ts';
import type { FleetLease } from '../../infra/fleet-lease.ts';
import { type LeaseLoop, type LeaseLoopOptions, startLeaseLoop } from '../../infra/lease-loop.ts';
import { type FeedEvent, MAX_PAGE, parseCursor, readEvents } from '../event-feed.ts';
import {
  advanceEndpointCursor,
  type FanOutEndpoint,
  insertDeliveries,
  lockEndpointForFanOut,
  selectEndpointsBehind,
} from './webhook-deliveries.queries.ts';

/** One endpoint's share of a round: events read from the feed, deliveries written for it. */
export interface FanOutResult {
  endpointId: string;
  read: number;
  queued: number;
}

/** The key whose events go out in feed order: one account of one supplier (its process's events). */
export const orderingKeyOf = (e: FeedEvent) => `${e.import_supplier}/${e.external_account_number ?? ''}`;

const wants = (endpoint: FanOutEndpoint, e: FeedEvent) =>
  (endpoint.import_suppliers.includes('*') || endpoint.import_suppliers.includes(e.import_supplier)) &&
  (endpoint.types === null || endpoint.types.includes(e.type));

/** Fans one page out to one endpoint; null when another worker holds it (or it was disabled). */
async function fanOutEndpoint(
  tx: Queryable,
  endpointId: string,
  pageSize: number,
): Promise<FanOutResult | null> {
  const endpoint = (await tx.query<FanOutEndpoint>(lockEndpointForFanOut, [endpointId])).rows[0];
  if (!endpoint) return null;
  // Every supplier's events: the cursor moves past the ones this endpoint does not want too.
  const page = await readEvents(tx, {
    supplier: null,
    after: { xid: endpoint.cursor_xid, id: endpoint.cursor_id },
    limit: pageSize,
  });
  const wanted = page.events.filter((e) => wants(endpoint, e));
  if (wanted.length > 0) {
    const seq = wanted.map((e) => parseCursor(e.id)!);
    await tx.query(insertDeliveries, [
      endpoint.id,
      seq.map((c) => c.id),
      seq.map((c) => c.xid),
      wanted.map((e) => e.id),
      wanted.map((e) => e.type),
      wanted.map(orderingKeyOf),
      wanted.map((e) => e.occurred_at),
    ]);
  }
  await tx.query(advanceEndpointCursor, [endpoint.id, page.next.xid, page.next.id]);
  return { endpointId: endpoint.id, read: page.events.length, queued: wanted.length };
}

/**
 * One fan-out round: a page for each enabled endpoint the feed has news for, each in a
 * transaction of its own. Answers the endpoints that read something.
 */
export async function fanOutRound(db: Db, pageSize = MAX_PAGE): Promise<FanOutResult[]> {
  const behind = (await db.query<{ id: string }>(selectEndpointsBehind)).rows;
  const results: FanOutResult[] = [];
  for (const { id } of behind) {
    const result = await db.transaction((tx) => fanOutEndpoint(tx, id, pageSize));
    if (result && result.read > 0) results.push(result);
  }
  return results;
}

export interface FanOutOptions {
  db: Db;
  logger: LeaseLoopOptions['logger'];
  /** About how long the loop waits after a round that found nothing new. */
  idlePollMs: number;
  /** Doubling with each such round in a row, up to this (lease-loop.ts); no doubling unless said. */
  idlePollMaxMs?: number;
  pageSize?: number;
  /** A round queued deliveries (the sender has work now). */
  onQueued?: () => void;
  /**
   * Rounds run only while this process holds it (decision 0102): one process of the fleet fans
   * out, the others stand by. Without it every round runs.
   */
  lease?: FleetLease;
}

/**
 * Fan-out on the lease loop. Its "claim" is the round itself: the row lock lasts only as long as
 * the round's transactions, so there is nothing to lease and nothing to settle afterwards; a
 * round that read nothing makes the loop wait, one that read something runs the next at once.
 */
export function startWebhookFanOut(opts: FanOutOptions): LeaseLoop {
  return startLeaseLoop<FanOutResult>(
    {
      claim: async () => {
        if (opts.lease && !(await opts.lease.held())) return [];
        const results = await fanOutRound(opts.db, opts.pageSize);
        if (results.some((r) => r.queued > 0)) opts.onQueued?.();
        return results;
      },
      settle: async () => {},
    },
    {
      name: 'webhook fan-out',
      logger: opts.logger,
      idlePollMs: opts.idlePollMs,
      idlePollMaxMs: opts.idlePollMaxMs,
    },
  );
}
