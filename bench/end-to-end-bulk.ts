import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { Db } from '../src/infra/db/db.ts';
import { sql } from '../src/infra/db/db.ts';
import { tokenFor } from '../test/helpers/test-app.ts';
import { accountRows, FERRY_BIN, rawInsert, startBenchWorker } from './end-to-end.ts';
import type { BenchApp } from './env.ts';
import { type BenchResult, round, type Scale, TARGETS } from './result.ts';

export const BULK_SUPPLIER = 'BENCHBULK';
/** Numbered past the end-to-end accounts, so no meter point is on two accounts. */
const FIRST = 1_000_001;

const countByStatus = sql(
  '',
  `SELECT status, count(*)::int AS n FROM import_processes WHERE import_supplier = $1 GROUP BY status`,
);

/** The book a supplier would prepare: one account a line. */
async function writeBook(path: string, n: number): Promise<void> {
  const out = createWriteStream(path);
  for (const [, , payload] of accountRows(n, BULK_SUPPLIER, FIRST)) {
    if (!out.write(`${payload}\n`)) await once(out, 'drain');
  }
  out.end();
  await finished(out);
}

/**
 * The end-to-end-bulk target (docs/product.md, Targets): `ferry push accounts` as its own process sends the book to
 * the service (bulk requests, its default concurrency) while a worker creates the accounts; the
 * clock runs from the push's start until it exits, which it does once every account is final.
 */
export async function benchEndToEndBulk(
  ferry: BenchApp,
  db: Db,
  url: string | undefined,
  scale: Scale,
  options: { deadlineMs: number; baseline?: number },
): Promise<BenchResult> {
  const n = scale.accounts;
  const dir = await mkdtemp(join(tmpdir(), 'ferry-bench-bulk-'));
  try {
    const book = join(dir, 'book.ndjson');
    const report = join(dir, 'report.ndjson');
    await writeBook(book, n);
    const { apiKey } = await tokenFor(ferry.app, [BULK_SUPPLIER]);

    const t0 = performance.now();
    const worker = startBenchWorker(ferry, db, url);
    let code: number | null;
    let output = '';
    try {
      const push = spawn(
        process.execPath,
        [FERRY_BIN, 'push', 'accounts', book, '--url', ferry.base, '--api-key', apiKey, '--report', report],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      push.stdout.setEncoding('utf8').on('data', (s: string) => {
        output = (output + s).slice(-2_000);
      });
      push.stderr.setEncoding('utf8').on('data', (s: string) => {
        output = (output + s).slice(-2_000);
      });
      const timer = setTimeout(() => push.kill('SIGKILL'), options.deadlineMs);
      [code] = (await once(push, 'exit')) as [number | null];
      clearTimeout(timer);
    } finally {
      await worker.stop();
    }
    const totalMs = performance.now() - t0;

    const counts = Object.fromEntries(
      (await db.query<{ status: string; n: number }>(countByStatus, [BULK_SUPPLIER])).rows.map((r) => [
        r.status,
        r.n,
      ]),
    );
    const processed = counts.PROCESSED ?? 0;
    const reported = (await readFile(report, 'utf8'))
      .split('\n')
      .filter((l) => l.includes('"PROCESSED"')).length;
    if (code !== 0)
      throw new Error(`ferry push exited ${code}: ${output.trim().split('\n').slice(-3).join(' | ')}`);

    const perSec = processed / (totalMs / 1000);
    const baseline = options.baseline ?? (await rawInsert(db, n));
    const ratio = perSec / baseline;
    return {
      name: 'end-to-end-bulk',
      value: round(perSec, 0),
      unit: 'accounts/s',
      baseline: round(baseline, 0),
      ratio: round(ratio, 3),
      target: TARGETS['end-to-end-bulk'],
      pass: ratio >= 0.5 && processed === n && reported === n,
      detail: {
        accounts: n,
        processed,
        reported_processed: reported,
        other_states:
          Object.entries(counts)
            .filter(([s]) => s !== 'PROCESSED')
            .map(([s, c]) => `${s}:${c}`)
            .join(' ') || 'none',
        push_s: round(totalMs / 1000),
        worker_concurrency: ferry.config.workerConcurrency,
        worker: url ? 'ferry worker process' : 'in the service process',
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
