/**
 * The lag from an event's commit to its webhook delivery, as the webhook-lag benchmark and the
 * scaling series measure it: a receiver on loopback in this process, and a reader of the feed.
 * An event's commit is when the reader, asking every 20 ms, first sees it (the feed shows an
 * event once its transaction and every earlier one have ended); its delivery is when the
 * receiver first gets it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { type Db, sql } from '../src/infra/db/db.ts';
import { round } from './result.ts';

const FEED_POLL_MS = 20;

const selectNew = sql(
  'bench.feedPoll',
  `WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon)
   SELECT e.xid::text || '_' || e.id AS id, e.xid::text AS xid, e.id::text AS rid
     FROM h CROSS JOIN LATERAL (
       SELECT xid, id FROM events e
        WHERE e.import_supplier = $1 AND (e.xid, e.id) > ($2::xid8, $3::bigint) AND e.xid < h.horizon
        ORDER BY e.xid, e.id LIMIT 5000) e`,
);
const countEvents = sql('', 'SELECT count(*)::int AS n FROM events WHERE import_supplier = $1');

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export interface LagFigures {
  events: number;
  posts: number;
  p50_ms: number;
  p90_ms: number;
  p99_ms: number;
  max_ms: number;
  /** Every delivered event was also seen in the feed (its lag is known). */
  complete: boolean;
}

export interface LagProbe {
  /** Where the endpoint points. */
  readonly url: string;
  /** Waits until every event of the supplier is seen and delivered; throws after `ms`. */
  settled(ms: number): Promise<void>;
  /** Stops the reader and the receiver and answers the figures. */
  stop(): Promise<LagFigures>;
}

export async function startLagProbe(db: Db, supplier: string): Promise<LagProbe> {
  const delivered = new Map<string, number>();
  let posts = 0;
  const receiver = createServer((req, res) => {
    const id = String(req.headers['ferry-event-id'] ?? '');
    req.resume().on('end', () => {
      posts++;
      if (!delivered.has(id)) delivered.set(id, performance.now());
      res.writeHead(204).end();
    });
  });
  // The senders keep many connections open: none may wait for the default backlog.
  receiver.maxConnections = 4_096;
  await new Promise<void>((r) => receiver.listen({ port: 0, host: '127.0.0.1', backlog: 4_096 }, r));

  const seen = new Map<string, number>();
  let reading = true;
  /** Why the reader stopped early, if it did: settled() says so instead of waiting it out. */
  let failed: unknown = null;
  let cursor = { xid: '0', id: '0' };
  const reader = (async () => {
    while (reading) {
      const { rows } = await db.query<{ id: string; xid: string; rid: string }>(selectNew, [
        supplier,
        cursor.xid,
        cursor.id,
      ]);
      const at = performance.now();
      for (const r of rows) seen.set(r.id, at);
      if (rows.length > 0) cursor = { xid: rows.at(-1)!.xid, id: rows.at(-1)!.rid };
      else await delay(FEED_POLL_MS);
    }
  })().catch((err) => {
    failed = err;
  });

  return {
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
    async settled(ms) {
      const until = Date.now() + ms;
      for (;;) {
        if (failed) throw new Error(`the feed reader failed: ${failed}`);
        const total = (await db.query<{ n: number }>(countEvents, [supplier])).rows[0].n;
        if (delivered.size >= total && seen.size >= total) return;
        if (Date.now() > until)
          throw new Error(`${delivered.size} of ${total} events delivered after ${ms / 1000} s`);
        await delay(100);
      }
    },
    async stop() {
      if (!reading) throw new Error('the lag probe has stopped already');
      reading = false;
      await reader;
      receiver.closeAllConnections();
      receiver.close();
      const lags = [...delivered].flatMap(([id, at]) => {
        const visible = seen.get(id);
        return visible === undefined ? [] : [Math.max(0, at - visible)];
      });
      lags.sort((a, b) => a - b);
      return {
        events: delivered.size,
        posts,
        p50_ms: round(percentile(lags, 50), 0),
        p90_ms: round(percentile(lags, 90), 0),
        p99_ms: round(percentile(lags, 99), 0),
        max_ms: round(lags.at(-1) ?? 0, 0),
        complete: lags.length === delivered.size,
      };
    },
  };
}
