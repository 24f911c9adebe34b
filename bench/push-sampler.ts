/**
 * Where the machine's time goes while the scaling series pushes a book (bench/scaling.ts):
 *
 * - the database's active backends, every 50 ms: what each waits on (`running` when on a CPU or
 *   waiting for one), as shares of all samples, and for the waits on a lock which statements
 *   were waiting (the statement's first words);
 * - where the server has pg_stat_statements loaded, the statements that took the most execution
 *   time meanwhile;
 * - the CPU of every process on the machine, every 500 ms from /proc (Linux), summed by role:
 *   the API processes, the worker processes, the pushes, this bench process (the lag probe's
 *   feed reader, these samplers), the webhook receiver (lag-receiver.ts), PostgreSQL, everything
 *   else. In cores: 2.0 is two cores busy for the whole push.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { type Db, sql } from '../src/infra/db/db.ts';
import { processTicks, TICKS_PER_SECOND } from './proc.ts';

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

type Role = 'api' | 'worker' | 'push' | 'bench' | 'receiver' | 'postgres' | 'other';

function roleOf(pid: number, name: string): Role {
  if (pid === process.pid) return 'bench';
  if (name === 'postgres') return 'postgres';
  let args: string[];
  try {
    args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return 'other';
  }
  if (args.some((a) => a.endsWith('lag-receiver.ts'))) return 'receiver';
  const i = args.findIndex((a) => a.endsWith('ferry.js'));
  const verb = i < 0 ? undefined : args[i + 1];
  return verb === 'serve' ? 'api' : verb === 'worker' ? 'worker' : verb === 'push' ? 'push' : 'other';
}

/**
 * Samples every process's CPU until stopped; answers the cores busy by role over the time
 * sampled. A process that starts meanwhile counts from zero; one that ends loses its last half
 * second.
 */
function sampleCpu(): { stop(): Promise<string> } {
  const roles = new Map<string, Role>();
  const used = new Map<Role, number>();
  let done = false;
  const t0 = performance.now();
  let seconds = 0;
  const run = (async () => {
    let last = processTicks();
    while (!done) {
      await delay(500);
      const now = processTicks();
      for (const [key, p] of now) {
        const role = roles.get(key) ?? roleOf(p.pid, p.name);
        roles.set(key, role);
        used.set(role, (used.get(role) ?? 0) + p.ticks - (last.get(key)?.ticks ?? 0));
      }
      last = now;
    }
    seconds = (performance.now() - t0) / 1000;
  })();
  return {
    async stop() {
      done = true;
      await run;
      const total = [...used.values()].reduce((a, b) => a + b, 0);
      const cores = (ticks: number) => (ticks / TICKS_PER_SECOND / seconds).toFixed(1);
      const parts = [...used].sort((a, b) => b[1] - a[1]).map(([role, t]) => `${role} ${cores(t)}`);
      return `${cores(total)} cores: ${parts.join(', ')}`;
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
  const cpuUsed = (await cpu?.stop()) ?? 'not sampled (Linux only)';
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
    cpu: cpuUsed,
  };
}
