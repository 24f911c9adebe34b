/**
 * The lag from an event's commit to its webhook delivery, under the end-to-end-bulk load.
 * A push of its own supplier's book runs as in end-to-end-bulk (`ferry push` → bulk scheduling → a
 * `ferry worker` process, which also delivers webhooks) with one webhook endpoint for that
 * supplier, pointing at the lag probe's receiver (bench/lag-probe.ts). The p99 target is 1 s.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { type Db, sql } from '../src/infra/db/db.ts';
import { adminHeaders, tokenFor } from '../test/helpers/test-app.ts';
import { failedAttemptWhy, isFailedAttempt } from './cost-stats.ts';
import { accountRows, FERRY_BIN, startBenchWorker } from './end-to-end.ts';
import type { BenchApp } from './env.ts';
import { type LagFigures, startLagProbe } from './lag-probe.ts';
import { type BenchResult, type Scale, TARGETS } from './result.ts';

const SUPPLIER = 'BENCHHOOK';
/**
 * How long deliveries waited between fan-out writing them and their first attempt: a head's is
 * stamped when a sender claims it, one claimed behind it when it is posted (decision 0107). The
 * part of the lag that is the sender keeping up (the rest is fan-out, the POST and recording it).
 */
const selectQueued = sql(
  'bench.webhookQueued',
  `SELECT round(1000 * extract(epoch FROM percentile_cont(0.5) WITHIN GROUP (ORDER BY first_attempt_at - created_at)))::int AS p50,
          round(1000 * extract(epoch FROM percentile_cont(0.99) WITHIN GROUP (ORDER BY first_attempt_at - created_at)))::int AS p99
     FROM webhook_deliveries WHERE endpoint_id = $1`,
);
/**
 * The attempts that failed (each holds its delivery and its key's later events back by a
 * backoff), and the most common reason.
 */
const selectFailed = sql(
  'bench.webhookFailedAttempts',
  `SELECT count(*)::int AS n, mode() WITHIN GROUP (ORDER BY ${failedAttemptWhy('a')}) AS why
     FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
    WHERE d.endpoint_id = $1 AND ${isFailedAttempt('a')}`,
);
/** Numbered past the other benchmarks' accounts. */
const FIRST = 3_000_001;

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
  const probe = await startLagProbe(db, SUPPLIER);
  let figures: LagFigures;
  let queued = { p50: 0, p99: 0 };
  let failed: { n: number; why: string | null } = { n: 0, why: null };
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
      payload: { url: probe.url, import_suppliers: [SUPPLIER] },
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
    await probe.settled(120_000);
    const endpointId = (created.json() as { id: string }).id;
    queued = (await db.query<{ p50: number; p99: number }>(selectQueued, [endpointId])).rows[0];
    failed = (await db.query<typeof failed>(selectFailed, [endpointId])).rows[0];
  } finally {
    figures = await probe.stop();
    await worker.stop();
    await rm(dir, { recursive: true, force: true });
  }

  const { p99_ms, complete, ...detail } = figures;
  return {
    name: 'webhook-lag',
    value: p99_ms,
    unit: 'ms p99',
    baseline: null,
    ratio: null,
    target: TARGETS['webhook-lag'],
    pass: p99_ms < 1_000 && complete,
    detail: {
      accounts: n,
      ...detail,
      queued_p50_ms: queued.p50,
      queued_p99_ms: queued.p99,
      failed_attempts: failed.n,
      ...(failed.why ? { failed_attempts_mostly: failed.why } : {}),
    },
  };
}
