/**
 * The lag from an event's commit to its webhook delivery, under the end-to-end-bulk load.
 * A push of its own supplier's book runs as in end-to-end-bulk (`ferry push` → bulk scheduling → a
 * `ferry worker` process, which also delivers webhooks) with one webhook endpoint for that
 * supplier, pointing at a receiver in this process on loopback. An event's commit is when a feed
 * reader here, asking every 20 ms, first sees it (the feed shows an event once its transaction and
 * every earlier one have ended); its delivery is when the receiver gets it. The p99 target is 1 s.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import type { Db } from '../src/infra/db/db.ts';
import { sql } from '../src/infra/db/db.ts';
import { adminHeaders, tokenFor } from '../test/helpers/test-app.ts';
import { accountRows, FERRY_BIN, startBenchWorker } from './end-to-end.ts';
import type { BenchApp } from './env.ts';
import { type BenchResult, round, type Scale, TARGETS } from './result.ts';

const SUPPLIER = 'BENCHHOOK';
/** Numbered past the other benchmarks' accounts. */
const FIRST = 3_000_001;
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

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export async function benchWebhookLag(
  ferry: BenchApp,
  db: Db,
  url: string | undefined,
  scale: Scale,
  deadlineMs: number,
): Promise<BenchResult> {
  if (!url) throw new Error('needs a PostgreSQL server (webhooks are delivered by a `ferry worker` process)');
  const n = Math.min(scale.accounts, 20_000);
  const dir = await mkdtemp(join(tmpdir(), 'ferry-bench-hooks-'));
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
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

  const seen = new Map<string, number>();
  let polling = true;
  let cursor = { xid: '0', id: '0' };
  const poller = (async () => {
    while (polling) {
      const { rows } = await db.query<{ id: string; xid: string; rid: string }>(selectNew, [
        SUPPLIER,
        cursor.xid,
        cursor.id,
      ]);
      const at = performance.now();
      for (const r of rows) seen.set(r.id, at);
      if (rows.length > 0) cursor = { xid: rows.at(-1)!.xid, id: rows.at(-1)!.rid };
      else await delay(FEED_POLL_MS);
    }
  })();

  const worker = startBenchWorker(ferry, db, url);
  try {
    const book = join(dir, 'book.ndjson');
    const out = createWriteStream(book);
    for (const [, , payload] of accountRows(n, SUPPLIER, FIRST)) {
      if (!out.write(`${payload}\n`)) await once(out, 'drain');
    }
    out.end();
    await finished(out);
    const { apiKey } = await tokenFor(ferry.app, [SUPPLIER]);
    const created = await ferry.app.inject({
      method: 'POST',
      url: '/admin/v1/webhook-endpoints/',
      headers: adminHeaders,
      payload: { url: receiverUrl, import_suppliers: [SUPPLIER] },
    });
    if (created.statusCode !== 201)
      throw new Error(`webhook endpoint: ${created.statusCode} ${created.body}`);

    const push = spawn(
      process.execPath,
      [
        FERRY_BIN,
        'push',
        'accounts',
        book,
        '--url',
        ferry.base,
        '--api-key',
        apiKey,
        '--report',
        join(dir, 'report.ndjson'),
      ],
      { stdio: 'ignore' },
    );
    const timer = setTimeout(() => push.kill('SIGKILL'), deadlineMs);
    const [code] = await once(push, 'exit');
    clearTimeout(timer);
    if (code !== 0) throw new Error(`ferry push exited ${code}`);
    // Every event of the supplier delivered (or the deadline).
    const until = Date.now() + 120_000;
    for (;;) {
      const total = (
        await db.query<{ n: number }>(
          sql('', 'SELECT count(*)::int AS n FROM events WHERE import_supplier = $1'),
          [SUPPLIER],
        )
      ).rows[0].n;
      if (delivered.size >= total && seen.size >= total) break;
      if (Date.now() > until)
        throw new Error(`${delivered.size} of ${total} events delivered after 2 minutes`);
      await delay(100);
    }
  } finally {
    polling = false;
    await poller.catch(() => {});
    await worker.stop();
    receiver.close();
    await rm(dir, { recursive: true, force: true });
  }

  const lags = [...delivered].flatMap(([id, at]) => {
    const visible = seen.get(id);
    return visible === undefined ? [] : [Math.max(0, at - visible)];
  });
  lags.sort((a, b) => a - b);
  const p99 = percentile(lags, 99);
  return {
    name: 'webhook-lag',
    value: round(p99, 0),
    unit: 'ms p99',
    baseline: null,
    ratio: null,
    target: TARGETS['webhook-lag'],
    pass: p99 < 1_000 && lags.length === delivered.size,
    detail: {
      accounts: n,
      events: delivered.size,
      posts,
      p50_ms: round(percentile(lags, 50), 0),
      p90_ms: round(percentile(lags, 90), 0),
      max_ms: round(lags.at(-1) ?? 0, 0),
    },
  };
}
