// `npm run bench -- --map [--accounts N] [--dir DIR]`: the flat-file mapping benchmark
// (docs/product.md, Books from flat files; docs/performance.md). Generates an export shaped like
// examples/legacy-export (six windows-1252 files, each in its own shuffled order; about 8.4 rows an
// account) of N accounts (default 1,500,000) in a temporary folder, then maps it with the example's
// profile in a child process, as `ferry map accounts` does (the book and its sources written), and
// reports accounts per second and the child's peak RSS.
import { spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type FileName, HEADERS } from '../test/flat-files/legacy-export-inverse.ts';

const PROFILE = new URL('../examples/legacy-export/profile.yaml', import.meta.url).pathname;

/** A permutation of 0..n-1 (k ↦ k·step mod n, step coprime with n): the files' rows unsorted. */
function shuffled(n: number, step: number): (k: number) => number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let s = step % n || 1;
  while (gcd(s, n) !== 1) s++;
  return (k) => Number((BigInt(k) * BigInt(s)) % BigInt(n));
}

class CsvFile {
  private readonly fd: number;
  private pending: string[] = [];
  rows = 0;

  constructor(path: string, header: string) {
    this.fd = openSync(path, 'w');
    this.pending.push(header);
  }

  row(line: string) {
    this.rows++;
    this.pending.push(line);
    if (this.pending.length >= 20_000) this.flush();
  }

  flush() {
    writeSync(this.fd, Buffer.from(`${this.pending.join('\r\n')}\r\n`, 'latin1'));
    this.pending = [];
  }

  close() {
    if (this.pending.length > 0) this.flush();
    closeSync(this.fd);
  }
}

/** Writes the export of `n` accounts into `dir`; answers its rows. */
export function generate(dir: string, n: number): number {
  copyFileSync(PROFILE, join(dir, 'profile.yaml'));
  const file = (name: FileName) => new CsvFile(join(dir, name), HEADERS[name].join(';'));
  const accounts = file('ACCOUNTS.CSV');
  const customers = file('CUSTOMERS.CSV');
  const premises = file('PREMISES.CSV');
  const points = file('METER_POINTS.CSV');
  const meters = file('METERS.CSV');
  const readings = file('READINGS.CSV');
  const order = [1, 7_919, 104_729, 1_299_709, 15_485_863, 179_424_673].map((step) => shuffled(n, step));
  const premisesOf = (i: number) => (i % 10 === 0 ? [`P${i}`, `P${i}b`] : [`P${i}`]);
  const pointsOf = (pid: string, i: number) => (i % 2 === 0 ? [`E${pid}`, `G${pid}`] : [`E${pid}`]);
  for (let k = 0; k < n; k++) {
    const i = order[0](k);
    accounts.row(
      `A${i};DOM;Zoë Brontë ${i};${i} Mill Lane;Hebden Bridge;HX7 8AD;31/10/2024;-12,50;31/10/2024`,
    );
  }
  for (let k = 0; k < n; k++) {
    const i = order[1](k);
    customers.row(`A${i};Ms;Zoë;Brontë;zoe${i}@example.org;07911 123456;17/03/1988`);
    if (i % 3 === 0) customers.row(`A${i};Mr;Chinedu;Okafor;;07911 123457;30/11/1976`);
  }
  for (let k = 0; k < n; k++) {
    const i = order[2](k);
    for (const pid of premisesOf(i))
      premises.row(`${pid};A${i};${i} Mill Lane;Hebden Bridge;HX7 8AD;15/04/2021`);
  }
  for (let k = 0; k < n; k++) {
    const i = order[3](k);
    for (const pid of premisesOf(i)) {
      for (const mpxn of pointsOf(pid, i)) {
        if (mpxn[0] === 'E')
          points.row(
            `${mpxn};${pid};E;MERI;;15/04/2021;1;0393;ELEC-VAR-21;15/04/2021;;00001;2900;;;01/04/2024`,
          );
        else points.row(`${mpxn};${pid};G;MER;SHL;15/04/2021;;;GAS-VAR-21;15/04/2021;11250;;;;;01/04/2024`);
      }
    }
  }
  for (let k = 0; k < n; k++) {
    const i = order[4](k);
    for (const pid of premisesOf(i)) {
      for (const mpxn of pointsOf(pid, i)) {
        if (mpxn[0] === 'E') meters.row(`${mpxn};S1;01/06/2015;;1;00001;5;;;`);
        else meters.row(`${mpxn};S1;20/08/2012;5;;;;;;`);
      }
    }
  }
  for (let k = 0; k < n; k++) {
    const i = order[5](k);
    for (const pid of premisesOf(i)) {
      for (const mpxn of pointsOf(pid, i)) {
        readings.row(`${mpxn};S1;${mpxn[0] === 'E' ? '1' : ''};31/10/2024;10432,${i % 100};C`);
      }
    }
  }
  const all = [accounts, customers, premises, points, meters, readings];
  for (const f of all) f.close();
  return all.reduce((sum, f) => sum + f.rows, 0);
}

/** The child: maps the export in `dir` and prints what it measured as one JSON line. */
async function child(dir: string) {
  const { planProfileFile, writeBook } = await import('../src/flat-files/write-book.ts');
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = await writeBook(planProfileFile(join(dir, 'profile.yaml')), join(dir, 'book.ndjson'), {
    tempDir: dir,
  });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  process.stdout.write(
    `${JSON.stringify({ seconds, cpuSeconds, accounts: result.accounts, rows: result.rows, buckets: result.buckets, problems: result.problems.lines().slice(0, 5), maxRssKb: process.resourceUsage().maxRSS })}\n`,
  );
}

export async function runMapBench(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      map: { type: 'boolean' },
      accounts: { type: 'string' },
      dir: { type: 'string' },
      child: { type: 'string' },
    },
  });
  if (values.child) {
    await child(values.child);
    return 0;
  }
  const n = Number(values.accounts ?? 1_500_000);
  if (!Number.isInteger(n) || n < 1) throw new Error('--accounts N: a whole number of accounts');
  const dir = mkdtempSync(join(values.dir ?? tmpdir(), 'ferry-bench-map-'));
  const log = (msg: string) => process.stderr.write(`[bench map] ${msg}\n`);
  try {
    const t0 = performance.now();
    const rows = generate(dir, n);
    const bytes = ['ACCOUNTS', 'CUSTOMERS', 'PREMISES', 'METER_POINTS', 'METERS', 'READINGS'].reduce(
      (s, f) => s + statSync(join(dir, `${f}.CSV`)).size,
      0,
    );
    log(
      `generated ${n} accounts, ${rows} rows, ${(bytes / 2 ** 20).toFixed(0)} MiB in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', new URL(import.meta.url).pathname, '--child', dir],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    if (run.status !== 0) throw new Error(`the mapping child failed: ${run.stderr}`);
    const m = JSON.parse(run.stdout.trim().split('\n').at(-1) as string);
    if (m.problems.length > 0) throw new Error(`the generated export has problems: ${m.problems.join('; ')}`);
    const result = {
      name: 'map',
      accounts: m.accounts,
      rows: m.rows,
      csv_mib: Math.round(bytes / 2 ** 20),
      buckets: m.buckets,
      seconds: Number(m.seconds.toFixed(1)),
      accounts_per_second: Math.round(m.accounts / m.seconds),
      // Wall time depends on what else the machine runs; CPU time does much less.
      cpu_seconds: Number(m.cpuSeconds.toFixed(1)),
      accounts_per_cpu_second: Math.round(m.accounts / m.cpuSeconds),
      peak_rss_mib: Math.round(m.maxRssKb / 1024),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run directly as the child (`--child DIR`).
if (process.argv.includes('--child')) process.exitCode = await runMapBench(process.argv.slice(2));
