import { request } from 'node:http';
import { type Db, sql } from '../src/infra/db/db.ts';
import type { BenchApp } from './env.ts';
import { BIG_SUPPLIER } from './env.ts';
import { type BenchResult, round, type Scale, TARGETS } from './result.ts';

const MB = 1024 * 1024;

/** The list target (docs/product.md, Targets): the all-list of a supplier with many processes, downloaded over a real socket. */
export async function benchList(
  ferry: BenchApp,
  db: Db,
  scale: Scale,
  deadlineMs: number,
): Promise<BenchResult> {
  const rows = scale.listRows;
  await db.query(
    sql(
      '',
      `INSERT INTO import_processes (import_supplier, external_account_number, status, payload, latest_event)
       SELECT $2, 'ext-' || lpad(g::text, 7, '0'), 'PENDING', '{}', '{"event":"EVENT_ACCOUNT_IMPORT_PROCESS_CREATED","occurred_at":"2026-01-01T00:00:00Z","data":null}'
         FROM generate_series(1, $1) g`,
    ),
    [rows, BIG_SUPPLIER],
  );
  await db.exec('ANALYZE import_processes');

  // The bench process has run the other benchmarks first: collect their garbage now, so the
  // growth measured is the list's (run 3 of 2026-11-24 measured +94.6 MB here without this, and
  // +6.5 to +8.7 MB for the same list in a fresh process; docs/performance.md).
  (globalThis as { gc?: () => void }).gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const started = performance.now();
  let firstByteMs = 0;
  let bytes = 0;
  let last = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: new URL(ferry.base).port,
          path: `/v1/data-import/all-account-import-processes/${BIG_SUPPLIER}/`,
          headers: ferry.headers,
          signal: AbortSignal.timeout(deadlineMs),
        },
        (res) => {
          if (res.statusCode !== 200) reject(new Error(`list: HTTP ${res.statusCode}`));
          res.on('data', (c: Buffer) => {
            if (bytes === 0) firstByteMs = performance.now() - started;
            bytes += c.length;
            last = c.subarray(-1).toString();
          });
          res.on('end', resolve);
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
  } finally {
    clearInterval(sampler);
  }
  const totalMs = performance.now() - started;
  const rssAfter = process.memoryUsage().rss;
  peak = Math.max(peak, rssAfter);
  const growthMb = (peak - rssBefore) / MB;
  const complete = last === ']';
  const streams = firstByteMs < totalMs / 2;
  return {
    name: 'list',
    value: round(growthMb, 1),
    unit: 'MB RSS growth',
    baseline: null,
    ratio: null,
    target: `${TARGETS.list} (${rows} rows)`,
    pass: complete && streams && growthMb < 50,
    detail: {
      rows,
      ttfb_ms: round(firstByteMs, 1),
      total_s: round(totalMs / 1000),
      rows_per_s: round(rows / (totalMs / 1000), 0),
      body_mb: round(bytes / MB, 1),
      rss_before_mb: round(rssBefore / MB, 1),
      rss_after_mb: round(rssAfter / MB, 1),
      rss_peak_mb: round(peak / MB, 1),
      complete: String(complete),
    },
  };
}
