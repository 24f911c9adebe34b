/**
 * The whole-book checks of `ferry push accounts --validate-only` on a large book: time and peak
 * memory. Writes an N-account NDJSON book (default 1,500,000; each account test/helpers'
 * accountFor, ≈ 5.7 kB a line) with conflicts planted in it, then, in a process of its own (so its
 * peak RSS is the checks' alone), runs what the push does locally: the one pass over the file
 * (checkBook), then the second pass's local part, each line's book errors and digest. The service's
 * validate requests are left out: they are the service's cost, one request per account as before.
 *
 *   node --import tsx bench/preflight.ts [--accounts N] [--file PATH] [--keep]
 *
 * --file reuses a book written before (with --keep) instead of writing one.
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { lineDigest } from '../src/cli/push/push-account-lines.ts';
import { checkBook } from '../src/cli/push/push-book-checks.ts';
import { readInputLines } from '../src/cli/push/push-input.ts';
import { accountFor, mpanFor } from '../test/helpers/account-fixtures.ts';

const SUPPLIER = 'BENCHBOOK';

/**
 * The planted conflicts, by account number n (from 1): each makes one line repeat what an earlier
 * line gives. Every 100,000th account repeats the external number of the account 50,000 before;
 * every 50,000th (offset 25,000) gives the MPAN of the account 1,000 before; every 250,000th
 * (offset 200,001) the reference of the account 7 before.
 */
const repeatsExternalOf = (n: number) => (n % 100_000 === 0 ? n - 50_000 : 0);
const repeatsMpanOf = (n: number) => (n % 50_000 === 25_000 ? n - 1_000 : 0);
const repeatsReferenceOf = (n: number) => (n % 250_000 === 200_001 ? n - 7 : 0);

function plantedConflicts(accounts: number): number {
  let n = 0;
  for (let i = 1; i <= accounts; i++)
    if (repeatsExternalOf(i) || repeatsMpanOf(i) || repeatsReferenceOf(i)) n++;
  return n;
}

function account(n: number) {
  const a = accountFor(SUPPLIER, n);
  if (repeatsExternalOf(n))
    a.external_account_number = accountFor(SUPPLIER, repeatsExternalOf(n)).external_account_number;
  if (repeatsMpanOf(n)) a.supply_addresses[0].meter_points[0].identifier = mpanFor(repeatsMpanOf(n));
  if (repeatsReferenceOf(n)) a.references[0].value = `REF${repeatsReferenceOf(n)}`;
  return a;
}

async function writeBook(path: string, accounts: number): Promise<void> {
  const out = createWriteStream(path);
  let chunk: string[] = [];
  for (let n = 1; n <= accounts; n++) {
    chunk.push(JSON.stringify(account(n)));
    if (chunk.length === 1_000 || n === accounts) {
      if (!out.write(`${chunk.join('\n')}\n`)) await once(out, 'drain');
      chunk = [];
    }
  }
  out.end();
  await finished(out);
}

/** The measured part, in its own process: both passes, then its peak RSS. */
async function measure(file: string, accounts: number, expected: number) {
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const checks = await checkBook(file, accounts);
  const scanned = performance.now();
  let lines = 0;
  let reported = 0;
  for await (const input of readInputLines(file)) {
    lines++;
    lineDigest(input.text);
    if (input.parseError === null) reported += checks.errorsOf(input.line, input.value).length > 0 ? 1 : 0;
  }
  const done = performance.now();
  checks.close();
  const result = {
    accounts: lines,
    conflicts_found: checks.conflicts,
    conflicts_planted: expected,
    lines_with_book_errors: reported,
    first_pass_s: Number(((scanned - started) / 1000).toFixed(1)),
    second_pass_local_s: Number(((done - scanned) / 1000).toFixed(1)),
    rss_before_mib: Math.round(rssBefore / 2 ** 20),
    peak_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  console.log(JSON.stringify(result, null, 2));
  if (checks.conflicts !== expected) {
    console.error(`expected ${expected} conflicts, found ${checks.conflicts}`);
    process.exitCode = 1;
  }
}

const { values } = parseArgs({
  options: {
    accounts: { type: 'string' },
    file: { type: 'string' },
    keep: { type: 'boolean' },
    measure: { type: 'boolean' },
  },
});
const accounts = Number(values.accounts ?? 1_500_000);
if (!Number.isInteger(accounts) || accounts < 1) throw new Error('--accounts must be a whole number');

if (values.measure) {
  await measure(values.file!, accounts, plantedConflicts(accounts));
} else {
  const dir = values.file ? null : mkdtempSync(join(tmpdir(), 'ferry-preflight-'));
  const file = values.file ?? join(dir!, 'book.ndjson');
  try {
    if (!existsSync(file)) {
      const started = performance.now();
      await writeBook(file, accounts);
      console.error(
        `wrote ${accounts} accounts to ${file} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
    }
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        new URL(import.meta.url).pathname,
        '--measure',
        '--file',
        file,
        '--accounts',
        String(accounts),
      ],
      { stdio: 'inherit' },
    );
    process.exitCode = child.status ?? 1;
  } finally {
    if (dir && !values.keep) rmSync(dir, { recursive: true, force: true });
    else console.error(`book kept: ${file}`);
  }
}
