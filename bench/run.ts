// `npm run bench [-- --quick] [--json] [--db pglite] [--only a,b]`: the six benchmarks of docs/product.md (Targets),
// each with its baseline from the same run; `-- --scaling [--processes 1,2,4,8] [--webhooks] [--accounts N] [--generators N]` runs the
// series of N API and N worker processes instead (bench/scaling.ts); `-- --webhook-cost` measures
// the machine's CPU per webhook delivery (bench/webhook-cost.ts); `-- --map [--accounts N]` maps a
// generated legacy export of N accounts (bench/map.ts); `--catalogue N` runs the validate step
// again once a catalogue of N products × 14 regions × 3 payment methods is loaded (bench/catalogue.ts);
// `-- --cost [--accounts N] [--processes 1,2,4,8]` counts what an account costs PostgreSQL and each
// Ferry process through the bulk path, with and without webhooks, on a private cluster (bench/cost.ts).
// See docs/performance.md.
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { loadBenchCatalogue } from './catalogue.ts';
import { benchCost } from './cost.ts';
import { CostUnavailable } from './cost-cluster.ts';
import { costJson, costTable } from './cost-report.ts';
import { benchEndToEnd } from './end-to-end.ts';
import { benchEndToEndBulk } from './end-to-end-bulk.ts';
import {
  type BenchApp,
  type BenchDb,
  DEFAULT_DATABASE_URL,
  openBenchDb,
  startBaseline,
  startFerry,
} from './env.ts';
import { benchList } from './list.ts';
import { type BenchResult, type Scale, TARGETS } from './result.ts';
import { benchScaling } from './scaling.ts';
import { benchStatus } from './status.ts';
import { benchTransactions } from './transactions.ts';
import { benchValidate } from './validate.ts';
import { benchWebhookCost } from './webhook-cost.ts';
import { benchWebhookLag } from './webhook-lag.ts';

// `-- --map [--accounts N] [--dir DIR]`: the flat-file mapping benchmark alone (bench/map.ts).
if (process.argv.includes('--map')) {
  const { runMapBench } = await import('./map.ts');
  process.exit(await runMapBench(process.argv.slice(2)));
}

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    db: { type: 'string', default: 'postgres' },
    scaling: { type: 'boolean', default: false },
    cost: { type: 'boolean', default: false },
    processes: { type: 'string' },
    accounts: { type: 'string' },
    webhooks: { type: 'boolean', default: false },
    generators: { type: 'string' },
    'webhook-cost': { type: 'boolean', default: false },
    only: { type: 'string' },
    catalogue: { type: 'string' },
  },
});
const catalogueProducts = args.catalogue === undefined ? null : Number(args.catalogue);
if (catalogueProducts !== null && !(Number.isInteger(catalogueProducts) && catalogueProducts >= 2))
  throw new Error('--catalogue N: a whole number of products, 2 or more');
if (args.scaling && args.db !== 'postgres') throw new Error('--scaling needs a PostgreSQL server');
if (args.db !== 'postgres' && args.db !== 'pglite') throw new Error('--db must be postgres or pglite');
const dbKind: 'postgres' | 'pglite' = args.db;
/** `--only webhook-lag,list`: those of the six only (transactions and status-v2 need end-to-end). */
const only = args.only ? args.only.split(',').map((s) => s.trim()) : null;
const unknown = only?.filter((name) => !(name in TARGETS)) ?? [];
if (unknown.length > 0)
  throw new Error(
    `--only: no benchmark is called ${unknown.join(', ')} (${Object.keys(TARGETS).join(', ')})`,
  );
if (args.webhooks && !args.scaling) throw new Error('--webhooks is a part of --scaling');
if (only && (args.scaling || args['webhook-cost'] || args.cost))
  throw new Error('--only chooses among the six');
if (args.cost && (args.scaling || args['webhook-cost'])) throw new Error('--cost runs on its own');
/** A whole-number option of `--scaling` (`--accounts N`, `--generators N`), or undefined when not given. */
function scalingCount(
  name: string,
  value: string | undefined,
  max = Number.MAX_SAFE_INTEGER,
  what = 'a whole number',
) {
  if (value === undefined) return undefined;
  if (!((args.scaling || args.cost) && /^[1-9]\d*$/.test(value) && Number(value) <= max))
    throw new Error(`--${name} N (${what}) is a part of --scaling or --cost`);
  return Number(value);
}
const accounts = scalingCount('accounts', args.accounts);
const generators = scalingCount('generators', args.generators, 64, '1 to 64, one connection each at least');

const scale: Scale = args.quick
  ? { quick: true, seconds: 3, accounts: 2_000, listRows: 100_000 }
  : { quick: false, seconds: 10, accounts: 100_000, listRows: 1_000_000 };
// `--scaling --accounts N`: a point's book of N accounts instead of the scale's.
if (accounts !== undefined) scale.accounts = accounts;
/** The whole run stops by itself: each step has a deadline, and so does the run. */
// The cost count starts up to 8 + 8 processes for each run: on a 2-vCPU machine that is busy
// with other work that alone can take minutes.
const RUN_DEADLINE_MS = args.cost ? (args.quick ? 10 : 90) * 60_000 : args.quick ? 4 * 60_000 : 60 * 60_000;
const STEP_DEADLINE_MS = args.quick ? 90_000 : 30 * 60_000;

const log = (msg: string) => process.stderr.write(`[bench] ${msg}\n`);

let bdb: BenchDb | null = null;
let ferry: BenchApp | null = null;
let baseline: Awaited<ReturnType<typeof startBaseline>> | null = null;

async function teardown() {
  await ferry?.app.close().catch(() => {});
  await baseline?.app.close().catch(() => {});
  await bdb?.cleanup().catch((e) => log(`cleanup failed: ${e}`));
}

const watchdog = setTimeout(() => {
  log(`run exceeded ${RUN_DEADLINE_MS / 1000} s; stopping`);
  const bail = setTimeout(() => process.exit(2), 10_000);
  bail.unref();
  void teardown().finally(() => process.exit(2));
}, RUN_DEADLINE_MS);
watchdog.unref();

function failed(name: string, target: string, err: unknown): BenchResult {
  log(`${name} failed: ${err instanceof Error ? err.stack : err}`);
  return {
    name,
    value: 0,
    unit: '',
    baseline: null,
    ratio: null,
    target,
    pass: false,
    detail: { error: String(err instanceof Error ? err.message : err) },
  };
}

async function step<T>(name: string, target: string, fn: () => Promise<T>): Promise<T | BenchResult> {
  log(`${name}…`);
  const t0 = performance.now();
  try {
    const r = await fn();
    log(`${name} done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return r;
  } catch (err) {
    return failed(name, target, err);
  }
}

function table(results: BenchResult[]): string {
  const head = ['name', 'value', 'unit', 'baseline', 'ratio', 'target', 'pass'];
  const rows = results.map((r) => [
    r.name,
    String(r.value),
    r.unit,
    r.baseline === null ? '-' : String(r.baseline),
    r.ratio === null ? '-' : String(r.ratio),
    r.target,
    r.pass ? 'PASS' : 'FAIL',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  const out = [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)];
  for (const r of results) {
    if (r.detail)
      out.push(
        `  ${r.name}: ${Object.entries(r.detail)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')}`,
      );
  }
  return out.join('\n');
}

const machine = {
  cpus: cpus().length,
  model: cpus()[0]?.model ?? 'unknown',
  memory: `${Math.round(totalmem() / 1024 ** 3)} GiB`,
  node: process.version,
};
const results: BenchResult[] = [];
let exitCode = 0;
/** The six benchmarks of docs/product.md (Targets), each with its baseline. */
async function runSix(): Promise<void> {
  bdb = await openBenchDb(dbKind, process.env.DATABASE_URL || DEFAULT_DATABASE_URL);
  log(`db: ${bdb.label}; ${scale.quick ? 'quick' : 'full'} run`);
  ferry = await startFerry(bdb.db);
  baseline = await startBaseline();
  const f = ferry;
  const b = baseline;
  const db = bdb.db;

  /** A step of those asked for (`--only a,b`; all by default), or null. */
  const wanted = <T>(name: string, target: string, fn: () => Promise<T>) =>
    only === null || only.includes(name) ? step(name, target, fn) : Promise.resolve(null);
  const record = (r: BenchResult | { result: BenchResult } | null) => {
    if (r) results.push('result' in r ? r.result : r);
  };
  record(await wanted('validate', TARGETS.validate, () => benchValidate(f, b.base, scale)));
  // `--catalogue N`: the same load again with a catalogue loaded; a catalogue stays for the steps after.
  if (catalogueProducts !== null)
    record(
      await wanted('validate', TARGETS.validate, async () => {
        const loaded = await loadBenchCatalogue(f, catalogueProducts);
        log(
          `catalogue: ${catalogueProducts} products, ${loaded.tariffs} tariffs uploaded in ${loaded.upload_s} s`,
        );
        const r = await benchValidate(f, b.base, scale);
        return {
          ...r,
          name: 'validate-catalogue',
          detail: { ...r.detail, catalogue_products: catalogueProducts, ...loaded },
        };
      }),
    );
  const e2e = await wanted('end-to-end', TARGETS['end-to-end'], () =>
    benchEndToEnd(f, db, bdb?.url, scale, STEP_DEADLINE_MS),
  );
  record(e2e);
  const rawInsertBaseline = e2e && 'result' in e2e ? (e2e.result.baseline ?? undefined) : undefined;
  record(
    await wanted('end-to-end-bulk', TARGETS['end-to-end-bulk'], () =>
      benchEndToEndBulk(f, db, bdb?.url, scale, {
        deadlineMs: STEP_DEADLINE_MS,
        baseline: rawInsertBaseline,
      }),
    ),
  );
  record(
    await wanted('webhook-lag', TARGETS['webhook-lag'], () =>
      benchWebhookLag(f, db, bdb?.url, scale, STEP_DEADLINE_MS),
    ),
  );
  const accounts = e2e && 'processed' in e2e ? e2e.processed : [];
  record(
    await wanted('transactions', TARGETS.transactions, async () => {
      if (accounts.length === 0) throw new Error('no imported accounts (end-to-end failed or not run)');
      return benchTransactions(f, scale, accounts.slice(0, 16));
    }),
  );
  record(
    await wanted('status-v2', TARGETS['status-v2'], async () => {
      if (accounts.length === 0) throw new Error('no imported accounts (end-to-end failed or not run)');
      return benchStatus(f, b.base, scale, accounts);
    }),
  );
  record(await wanted('list', TARGETS.list, () => benchList(f, db, scale, STEP_DEADLINE_MS)));
}

/** `--webhook-cost`: the machine's CPU per webhook delivery, nothing else running (bench/webhook-cost.ts). */
async function runWebhookCost(): Promise<void> {
  bdb = await openBenchDb(dbKind, process.env.DATABASE_URL || DEFAULT_DATABASE_URL);
  log(`db: ${bdb.label}`);
  ferry = await startFerry(bdb.db);
  const f = ferry;
  const db = bdb.db;
  const events = scale.quick ? 3_000 : 30_000;
  results.push(
    await step('webhook-cost', 'measured', () => benchWebhookCost(f, db, bdb?.url, events, STEP_DEADLINE_MS)),
  );
}

/** `--scaling`: the scaling series (N API and N worker processes need a PostgreSQL server). */
async function runScaling(): Promise<void> {
  const counts = (args.processes ?? (scale.quick ? '1,2' : '1,2,4,8')).split(',').map(Number);
  log(`scaling: ${counts.join(', ')} processes; ${scale.accounts} accounts a point`);
  const series = await benchScaling(
    process.env.DATABASE_URL || DEFAULT_DATABASE_URL,
    scale,
    counts,
    log,
    args.webhooks,
    generators,
  );
  results.push(...series.results);
}

/** `--cost`: what an account costs, counted on a private cluster (bench/cost.ts). */
let costReport: Awaited<ReturnType<typeof benchCost>> | null = null;
async function runCost(): Promise<void> {
  const counts = (args.processes ?? (scale.quick ? '1,8' : '1,2,4,8')).split(',').map(Number);
  if (!counts.every((n) => Number.isInteger(n) && n >= 1 && n <= 64))
    throw new Error('--processes: whole numbers from 1 to 64, comma-separated');
  // --accounts overrides the scale's; the count's own default is 20,000 (2,000 quick).
  const n = accounts ?? (scale.quick ? 2_000 : 20_000);
  // Quick (CI): the runs with a webhook endpoint only, so no per-delivery figures, to stay near a minute.
  costReport = await benchCost({ accounts: n, processes: counts, withoutWebhooks: !scale.quick, log });
  if (costReport.error) {
    log(`cost: a run failed, the table has the runs before it: ${costReport.error}`);
    exitCode = 1;
  }
}

try {
  await (args.cost
    ? runCost()
    : args.scaling
      ? runScaling()
      : args['webhook-cost']
        ? runWebhookCost()
        : runSix());
} catch (err) {
  log(
    err instanceof CostUnavailable
      ? `bench could not run: ${err.message}`
      : `bench could not run: ${err instanceof Error ? err.stack : err}`,
  );
  exitCode = 1;
} finally {
  await teardown();
}

const dbLabel = (bdb as BenchDb | null)?.label ?? (args.scaling ? 'postgres (a schema per point)' : args.db);
if (args.cost) {
  if (costReport)
    process.stdout.write(
      args.json
        ? `${JSON.stringify({ machine, cost: costJson(costReport) }, null, 2)}\n`
        : `machine: ${machine.cpus} × ${machine.model}, ${machine.memory}, node ${machine.node}\n\n${costTable(costReport)}\n`,
    );
} else if (args.json) {
  process.stdout.write(`${JSON.stringify({ machine, db: dbLabel, results }, null, 2)}\n`);
} else {
  process.stdout.write(
    `machine: ${machine.cpus} × ${machine.model}, ${machine.memory}, node ${machine.node}\ndb: ${dbLabel}\n\n${table(results)}\n`,
  );
}
// A benchmark that could not run (as opposed to one that missed its target) fails the command,
// so CI's quick run catches a broken bench.
const broken = results.filter((r) => r.detail?.error !== undefined).map((r) => r.name);
if (broken.length > 0) {
  log(`could not run: ${broken.join(', ')}`);
  exitCode = 1;
}
process.exit(exitCode);
