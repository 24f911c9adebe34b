/**
 * `npm run bench -- --cost`: what an account costs, counted (docs/product.md, Targets). N
 * accounts through the bulk path (`ferry push accounts` → bulk scheduling → worker processes, as
 * the scaling series runs it, bench/ferry-service.ts), once without and once with a webhook
 * endpoint, at each number of API + worker processes; per account, and per webhook delivery (the
 * difference of the two runs over the deliveries the receiver got), the statements, rows, WAL,
 * buffers and transactions PostgreSQL counted, its CPU, and each Ferry role's CPU.
 *
 * The counts come from PostgreSQL's own statistics, so they mean the same on every machine; the
 * shared server does not load pg_stat_statements, so the step makes a private cluster
 * (bench/cost-cluster.ts) with a fresh database for every run.
 */
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from '../test/helpers/ports.ts';
import { createFreshDb } from '../test/helpers/test-db.ts';
import {
  CLOCK_TICKS,
  type Cluster,
  CostUnavailable,
  childPids,
  reapedTicks,
  startCluster,
  treeTicks,
  type WalRecordType,
} from './cost-cluster.ts';
import {
  type Counts,
  type FailedAttempts,
  FERRY_ROLE,
  ferrySessionsEnded,
  Probe,
  readCounts,
  readFailedAttempts,
  readTableWrites,
  readWalByTable,
  resetStats,
  type Statement,
  type TableWrites,
  type WalByTable,
} from './cost-stats.ts';
import { type FerryProcess, type Service, startService, writeBooks } from './ferry-service.ts';
import { startReceiver } from './lag-probe.ts';

const SUPPLIER = 'COST';

export interface CostRun {
  processes: number;
  webhooks: boolean;
  accounts: number;
  push_s: number;
  /** Events the receiver got (each once), and the requests that carried them. */
  deliveries: number;
  posts: number;
  /** Totals over the run (not per account). */
  counts: Counts;
  byCalls: Statement[];
  byBuffers: Statement[];
  byTime: Statement[];
  /** The tables written most, and how. */
  tables: TableWrites[];
  /** Webhook attempts that failed, by reason (empty without webhooks). */
  failed: FailedAttempts[];
  /** The run's WAL by record type (the whole cluster's, as pg_stat_wal); null when unreadable. */
  wal: WalRecordType[] | null;
  /** The same WAL by the table it changed (heap, indexes, TOAST); null when unreadable. */
  walByTable: WalByTable[] | null;
}

export interface CostOptions {
  accounts: number;
  processes: number[];
  /** Runs without a webhook endpoint too (the per-delivery figures need them). */
  withoutWebhooks: boolean;
  log: (m: string) => void;
}

const µs = (ticks: number) => Math.round((ticks * 1e6) / CLOCK_TICKS);

/** Ferry's processes still running, killed if the bench is stopped before it stops them. */
const live = new Set<FerryProcess>();
/** The runs' directories (books, reports, the service's data), removed then too. */
const dirs = new Set<string>();

interface RunContext {
  cluster: Cluster;
  admin: pg.Client;
  accounts: number;
  log: (m: string) => void;
}

async function measureOnce(ctx: RunContext, n: number, webhooks: boolean): Promise<CostRun> {
  const { cluster, admin, accounts } = ctx;
  const database = `cost_${n}_${webhooks ? 'webhooks' : 'plain'}`;
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.query(`ALTER DATABASE ${database} OWNER TO ${FERRY_ROLE}`);
  // CREATE DATABASE logs megabytes of WAL, and this session reports it only when it next flushes
  // its counts, which can come after the reset below: flushed now, so none of it is an account's.
  await admin.query('SELECT pg_stat_force_next_flush()');
  await admin.query('SELECT 1');
  const dir = await mkdtemp(join(tmpdir(), 'ferry-bench-cost-'));
  dirs.add(dir);
  let service: Service | null = null;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | null = null;
  let probe: Probe | null = null;
  try {
    const fresh = await createFreshDb({
      url: cluster.url('postgres', database),
      schemaPrefix: 'cost',
      poolSize: 1,
    });
    // Closed before the reset: a session flushes its counts up to seconds late, after the reset.
    await fresh.db.close();
    const url = new URL(fresh.url!);
    url.username = FERRY_ROLE;
    service = await startService({
      url: url.href,
      processes: n,
      dir,
      port: await freePort(),
      supplier: SUPPLIER,
    });
    live.add(service.api).add(service.workers);
    if (webhooks) {
      // Raised, as the lag probe raises it: a real receiver has a machine of its own. Starved
      // among the service's processes on 2 cores, its posts timed out, and each failure (an
      // attempt row, a retry, a look whether to disable the endpoint) was counted as Ferry's.
      receiver = await startReceiver(true);
      await service.addWebhook(receiver.url);
    }
    const books = await writeBooks({ dir, n: accounts, parts: n, supplier: SUPPLIER });
    probe = await new Probe(fresh.url!).connect();
    await resetStats(probe);
    const walFrom = await walPosition(probe);
    const api = service.api.child.pid!;
    const worker = service.workers.child.pid!;
    const before = {
      pg: treeTicks(cluster.pid()),
      api: treeTicks(api),
      worker: treeTicks(worker),
      push: reapedTicks(),
    };

    const t0 = performance.now();
    await service.push(books);
    const pushSeconds = (performance.now() - t0) / 1000;
    const pushTicks = reapedTicks() - before.push;
    const [{ n: processed }] = await probe.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM import_processes WHERE import_supplier = $1 AND status = 'PROCESSED'`,
      [SUPPLIER],
    );
    if (processed !== accounts) throw new Error(`${processed} of ${accounts} accounts PROCESSED`);
    if (receiver) await deliveriesSettled(probe, receiver, 120_000);
    const apiTicks = treeTicks(api) - before.api;
    const workerTicks = treeTicks(worker) - before.worker;

    // Every session ended, so that every one has flushed its statistics; then the reading.
    await service.stop();
    live.delete(service.api);
    live.delete(service.workers);
    service = null;
    await receiver?.stop();
    await probe.end();
    const probeTransactions = probe.transactions;
    probe = null;
    await ferrySessionsEnded(admin, 30_000);
    const pgTicks = treeTicks(cluster.pid()) - before.pg;
    const read = await readCounts(admin, database, probeTransactions);
    const tables = await readTableWrites(fresh.url!);
    const failed = webhooks ? await readFailedAttempts(fresh.url!) : [];
    const walTo = (await admin.query(WAL_POSITION)).rows[0].lsn;
    const wal = cluster.walByRecordType(walFrom, walTo);
    const shares = await cluster.walByRelation(walFrom, walTo);
    const walByTable = shares && (await readWalByTable(fresh.url!, shares));
    const run: CostRun = {
      processes: n,
      webhooks,
      accounts,
      push_s: Math.round(pushSeconds * 10) / 10,
      deliveries: receiver?.delivered.size ?? 0,
      posts: receiver?.posts() ?? 0,
      counts: {
        ...read.counts,
        pg_cpu_us: µs(pgTicks),
        api_cpu_us: µs(apiTicks),
        worker_cpu_us: µs(workerTicks),
        push_cpu_us: µs(pushTicks),
      },
      byCalls: read.byCalls,
      byBuffers: read.byBuffers,
      byTime: read.byTime,
      tables,
      failed,
      wal,
      walByTable,
    };
    ctx.log(
      `  ${n} process${n === 1 ? '' : 'es'}${webhooks ? ', webhooks' : ''}: ${accounts} accounts in ${run.push_s} s${receiver ? `, ${run.deliveries} deliveries in ${run.posts} requests (receiver at ${receiver.priority} priority)` : ''}`,
    );
    return run;
  } finally {
    await probe?.end().catch(() => {});
    if (service) {
      await service.stop();
      live.delete(service.api);
      live.delete(service.workers);
    }
    await receiver?.stop();
    await rm(dir, { recursive: true, force: true });
    dirs.delete(dir);
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => {});
  }
}

const WAL_POSITION = 'SELECT pg_current_wal_lsn()::text AS lsn';
const walPosition = async (probe: Probe) => (await probe.query<{ lsn: string }>(WAL_POSITION))[0].lsn;

/** Waits until the receiver has every event of the supplier; each check is one of the probe's statements. */
async function deliveriesSettled(
  probe: Probe,
  receiver: { delivered: Map<string, number>; gone(): string | null },
  ms: number,
): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const gone = receiver.gone();
    if (gone) throw new Error(gone);
    const [{ n }] = await probe.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM events WHERE import_supplier = $1',
      [SUPPLIER],
    );
    if (receiver.delivered.size >= n) return;
    if (Date.now() > until)
      throw new Error(`${receiver.delivered.size} of ${n} events delivered after ${ms / 1000} s`);
    await delay(250);
  }
}

/** Kills what a stopped bench leaves: Ferry's processes and the cluster. Synchronous, for 'exit'. */
function emergency(cluster: Cluster) {
  // Every child: Ferry's processes (those still starting too), the pushes, the receiver.
  for (const pid of childPids(process.pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  cluster.remove();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

/** The runs, in order: for each number of processes, without (when asked) and with webhooks. */
export async function benchCost(
  opts: CostOptions,
): Promise<{ postgres: string; runs: CostRun[]; error?: string }> {
  const cluster = startCluster(await freePort());
  const onExit = () => emergency(cluster);
  const onSignal = (signal: NodeJS.Signals) => {
    opts.log(`${signal}: removing the private cluster`);
    emergency(cluster);
    process.exit(130);
  };
  process.once('exit', onExit);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const admin = new pg.Client({ connectionString: cluster.url('postgres', 'postgres') });
  try {
    await admin.connect();
    try {
      await admin.query('CREATE EXTENSION pg_stat_statements');
    } catch (err) {
      throw new CostUnavailable(`--cost: pg_stat_statements could not be loaded (${(err as Error).message})`);
    }
    await admin.query(`CREATE ROLE ${FERRY_ROLE} SUPERUSER LOGIN`);
    opts.log(`cost: a private PostgreSQL ${cluster.version}; ${opts.accounts} accounts a run`);
    const runs: CostRun[] = [];
    const ctx: RunContext = { cluster, admin, accounts: opts.accounts, log: opts.log };
    // A run that fails ends the count, but the runs before it are still reported.
    try {
      for (const n of opts.processes) {
        if (opts.withoutWebhooks) runs.push(await measureOnce(ctx, n, false));
        runs.push(await measureOnce(ctx, n, true));
      }
    } catch (err) {
      return { postgres: cluster.version, runs, error: err instanceof Error ? err.message : String(err) };
    }
    return { postgres: cluster.version, runs };
  } finally {
    await admin.end().catch(() => {});
    for (const p of live) await p.stop();
    cluster.remove();
    process.off('exit', onExit);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
