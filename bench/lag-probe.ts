/**
 * The lag from an event's commit to its webhook delivery, as the webhook-lag benchmark and the
 * scaling series measure it: a receiver on loopback in a process of its own (lag-receiver.ts),
 * and a reader of the feed in this one.
 * An event's commit is when the reader, asking every 20 ms, first sees it (the feed shows an
 * event once its transaction and every earlier one have ended); its delivery is when the
 * receiver first gets it.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { setPriority } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { type Db, sql } from '../src/infra/db/db.ts';
import { round } from './result.ts';

const FEED_POLL_MS = 20;
/** The receiver's nice value where it may be raised (-20 is the highest priority). */
const RECEIVER_PRIORITY = -10;

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
  /** Whether the receiver's process ran at a raised priority (lag-receiver.ts). */
  receiver_priority: 'raised' | 'normal';
}

export interface LagProbe {
  /** Where the endpoint points. */
  readonly url: string;
  /** Waits until every event of the supplier is seen and delivered; throws after `ms`. */
  settled(ms: number): Promise<void>;
  /** Stops the reader and the receiver and answers the figures. */
  stop(): Promise<LagFigures>;
}

/** The webhook receiver (lag-receiver.ts) in a process of its own: each event's first delivery, by id. */
export interface Receiver {
  readonly url: string;
  /** Event id → when it was first delivered (Date.now()). */
  readonly delivered: Map<string, number>;
  /** Requests received, repeated deliveries included. */
  posts(): number;
  /** Why the receiver is gone, once it is. */
  gone(): string | null;
  readonly priority: 'raised' | 'normal';
  /** Takes its last batch and ends it. */
  stop(): Promise<void>;
}

/** Starts the receiver; `raise`: at a raised priority where that is allowed (lag-receiver.ts says why). */
export async function startReceiver(raise: boolean): Promise<Receiver> {
  const delivered = new Map<string, number>();
  let posts = 0;
  const receiver = fork(fileURLToPath(new URL('./lag-receiver.ts', import.meta.url)), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  let receiverGone: string | null = null;
  const exited = new Promise<void>((resolve) => {
    receiver.on('exit', (code, signal) => {
      receiverGone = `the receiver exited (${signal ?? code})`;
      resolve();
    });
    receiver.on('error', (err) => {
      receiverGone = `the receiver failed: ${err.message}`;
      resolve();
    });
  });
  let done = () => {};
  const lastBatch = new Promise<void>((r) => {
    done = r;
  });
  receiver.on('message', (m: { got?: [string, number][]; posts?: number; done?: boolean }) => {
    for (const [id, at] of m.got ?? []) if (!delivered.has(id)) delivered.set(id, at);
    posts = m.posts ?? posts;
    if (m.done) done();
  });
  const started = await Promise.race([
    once(receiver, 'message') as Promise<[{ port: number }]>,
    exited.then(() => null),
  ]);
  if (!started) throw new Error(receiverGone ?? 'the receiver did not start');
  const [{ port }] = started;
  // Raising a priority needs the right to (root, CAP_SYS_NICE); without it the receiver shares.
  // On Linux it is the receiver's main thread that gets it, where its HTTP server runs.
  const priority = (() => {
    if (!raise) return 'normal';
    try {
      setPriority(receiver.pid!, RECEIVER_PRIORITY);
      return 'raised';
    } catch {
      return 'normal';
    }
  })();
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    delivered,
    posts: () => posts,
    gone: () => receiverGone,
    priority,
    async stop() {
      if (receiver.connected) {
        receiver.send('stop');
        // Its last batch, then its exit; or its exit alone, if it died.
        await Promise.race([lastBatch.then(() => exited), exited, delay(10_000, undefined, { ref: false })]);
      }
      receiver.kill('SIGKILL');
    },
  };
}

export async function startLagProbe(db: Db, supplier: string): Promise<LagProbe> {
  const receiver = await startReceiver(true);
  const { delivered } = receiver;
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
      const at = Date.now();
      for (const r of rows) seen.set(r.id, at);
      if (rows.length > 0) cursor = { xid: rows.at(-1)!.xid, id: rows.at(-1)!.rid };
      else await delay(FEED_POLL_MS);
    }
  })().catch((err) => {
    failed = err;
  });

  return {
    url: receiver.url,
    async settled(ms) {
      const until = Date.now() + ms;
      for (;;) {
        if (failed) throw new Error(`the feed reader failed: ${failed}`);
        const gone = receiver.gone();
        if (gone) throw new Error(gone);
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
      await receiver.stop();
      const lags = [...delivered].flatMap(([id, at]) => {
        const visible = seen.get(id);
        return visible === undefined ? [] : [Math.max(0, at - visible)];
      });
      lags.sort((a, b) => a - b);
      return {
        events: delivered.size,
        posts: receiver.posts(),
        p50_ms: round(percentile(lags, 50), 0),
        p90_ms: round(percentile(lags, 90), 0),
        p99_ms: round(percentile(lags, 99), 0),
        max_ms: round(lags.at(-1) ?? 0, 0),
        complete: lags.length === delivered.size,
        receiver_priority: receiver.priority,
      };
    },
  };
}
