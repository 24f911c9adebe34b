/**
 * Where the machine's time goes while the scaling series pushes a book (bench/scaling.ts):
 *
 * - the database's active backends, every 50 ms: what each waits on (`running` when on a CPU or
 *   waiting for one), as shares of all samples, and for the waits on a lock which statements
 *   were waiting (the statement's first words);
 * - where the server has pg_stat_statements loaded, the statements that took the most execution
 *   time meanwhile;
 * - the CPU of every process on the machine, every 500 ms from /proc (Linux), summed by role:
 *   the API processes, the worker processes, the pushes, this bench process (the feed reader),
 *   the webhook receiver (lag-receiver.ts), PostgreSQL, everything else. In cores: 2.0 is two cores busy
 *   for the whole push. A process's last half second before it exits is not counted.
 */
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { type Db, sql } from '../src/infra/db/db.ts';

const sampleWaits = sql(
  '',
  `SELECT coalesce(wait_event_type || ':' || wait_event, 'running') AS w,
          CASE WHEN wait_event_type IN ('Lock', 'LWLock')
               THEN left(regexp_replace(query, '\\s+', ' ', 'g'), 70) END AS q,
          count(*)::int AS n
     FROM pg_stat_activity
    WHERE datname = current_database() AND backend_type = 'client backend'
      AND state = 'active' AND pid <> pg_backend_pid()
    GROUP BY 1, 2`,
);
const topStatements = sql(
  '',
  `SELECT round(100 * total_exec_time / sum(total_exec_time) OVER ())::int AS share, calls::text,
          round(mean_exec_time::numeric, 3)::text AS mean_ms,
          left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS q
     FROM pg_stat_statements
    WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
    ORDER BY total_exec_time DESC LIMIT 5`,
);

/** Clock ticks a second in /proc/<pid>/stat: 100 on every Linux this runs on. */
const TICKS = 100;

type Role = 'api' | 'worker' | 'push' | 'bench' | 'receiver' | 'postgres' | 'other';

async function roleOf(pid: string): Promise<Role> {
  if (pid === String(process.pid)) return 'bench';
  const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  const args = cmd.split('\0');
  if (args[0].includes('postgres')) return 'postgres';
  if (args.some((a) => a.endsWith('lag-receiver.ts'))) return 'receiver';
  const i = args.findIndex((a) => a.endsWith('ferry.js'));
  if (i < 0) return 'other';
  const verb = args[i + 1];
  return verb === 'serve' ? 'api' : verb === 'worker' ? 'worker' : verb === 'push' ? 'push' : 'other';
}

/** Busy ticks so far of every process, with its role (looked up once a pid). */
async function readTicks(roles: Map<string, Role>): Promise<Map<string, number>> {
  const ticks = new Map<string, number>();
  for (const pid of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(pid)) continue;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    if (stat === null) continue;
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks.set(pid, Number(f[11]) + Number(f[12]));
    if (!roles.has(pid)) roles.set(pid, await roleOf(pid));
  }
  return ticks;
}

/** Samples the processes' CPU until stopped; answers cores busy by role over the time sampled. */
function sampleCpu(): { stop(): Promise<string> } {
  const roles = new Map<string, Role>();
  const used = new Map<Role, number>();
  let done = false;
  const t0 = performance.now();
  const run = (async () => {
    let last = await readTicks(roles);
    while (!done) {
      await delay(500);
      const now = await readTicks(roles);
      for (const [pid, t] of now) {
        const role = roles.get(pid) ?? 'other';
        used.set(role, (used.get(role) ?? 0) + t - (last.get(pid) ?? t));
      }
      last = now;
    }
  })();
  return {
    async stop() {
      done = true;
      await run;
      const seconds = (performance.now() - t0) / 1000;
      const total = [...used.values()].reduce((a, b) => a + b, 0);
      const parts = [...used]
        .sort((a, b) => b[1] - a[1])
        .map(([role, t]) => `${role} ${(t / TICKS / seconds).toFixed(1)}`);
      return `${(total / TICKS / seconds).toFixed(1)} cores: ${parts.join(', ')}`;
    },
  };
}

export interface Sampled<T> {
  result: T;
  /** The backends' waits, as shares of all samples. */
  waits: string;
  /** The waits on a lock with the statements waiting (shares of all samples), most sampled first. */
  waiting: string[];
  /** The statements that took the most execution time (pg_stat_statements), when loaded. */
  statements: string[];
  /** Cores busy by role, on Linux. */
  cpu: string;
}

/** The most sampled of `counts`, each as a share of `total` samples. */
const shares = (counts: Map<string, number>, take: number, total: number) => {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, take)
    .map(([w, n]) => `${w} ${Math.round((100 * n) / total)}%`);
};

/** Runs the samplers while `work` runs. */
export async function whileSampling<T>(db: Db, work: Promise<T>): Promise<Sampled<T>> {
  const statements = await db
    .exec('CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset()')
    .then(
      () => true,
      () => false,
    );
  const cpu = process.platform === 'linux' ? sampleCpu() : null;
  const counts = new Map<string, number>();
  const locks = new Map<string, number>();
  let done = false;
  const sampler = (async () => {
    while (!done) {
      // A sample lost (the pool busy, a timeout) is only a sample: the push goes on.
      const rows = await db.query<{ w: string; q: string | null; n: number }>(sampleWaits).then(
        (r) => r.rows,
        () => [],
      );
      for (const { w, q, n } of rows) {
        counts.set(w, (counts.get(w) ?? 0) + n);
        if (q !== null) locks.set(`${w} ${q}`, (locks.get(`${w} ${q}`) ?? 0) + n);
      }
      await delay(50);
    }
  })();
  const result = await work.finally(() => {
    done = true;
  });
  await sampler;
  const top = statements
    ? (await db.query<{ q: string; share: number; calls: string; mean_ms: string }>(topStatements)).rows
    : [];
  const total = [...counts.values()].reduce((a, b) => a + b, 0) || 1;
  return {
    result,
    waits: shares(counts, 6, total).join(', '),
    waiting: shares(locks, 5, total),
    statements: top.map((r) => `${r.share}% ${r.calls} calls, ${r.mean_ms} ms each: ${r.q}`),
    cpu: (await cpu?.stop()) ?? 'not sampled (Linux only)',
  };
}
