/**
 * `--processes N` (FERRY_PROCESSES) for `ferry serve` and `ferry worker`: N processes as one
 * service, under a node:cluster primary that starts them, restarts one that dies, and stops them
 * all on SIGTERM/SIGINT. The API processes share one port: the primary accepts the connections
 * and hands them round the processes. Nothing but PostgreSQL is shared between them, so on the
 * embedded database (held by one process) only 1 is allowed.
 */
import cluster, { type Worker } from 'node:cluster';
import { setTimeout as delay } from 'node:timers/promises';

/** A process that dies sooner than this after its start counts as failing to start. */
const QUICK_DEATH_MS = 5_000;
/** Quick deaths in a row after which the primary gives up (exit 1) instead of restarting forever. */
const MAX_QUICK_DEATHS = 5;
/** How long stopping waits for the processes before it kills them. */
const STOP_GRACE_MS = 30_000;

/** Whether this process is one the primary started (it runs the command itself). */
export const isClusterProcess = (): boolean => cluster.isWorker;

export interface ClusterOptions {
  processes: number;
  /** `serve` or `worker`, for log lines. */
  role: string;
  log(line: string): void;
}

/**
 * Runs in the primary: forks `processes` copies of this command and keeps that many running
 * until a signal. Resolves with the exit code the primary should end with.
 */
export function runClusterPrimary(opts: ClusterOptions): Promise<number> {
  const started = new Map<Worker, number>();
  let quickDeaths = 0;
  let stopping = false;

  const fork = () => {
    const worker = cluster.fork({ FERRY_PROCESS_INDEX: String(started.size) });
    started.set(worker, Date.now());
  };

  return new Promise<number>((resolve) => {
    const stopAll = async (code: number) => {
      if (stopping) return;
      stopping = true;
      for (const w of started.keys()) w.process.kill('SIGTERM');
      const deadline = Date.now() + STOP_GRACE_MS;
      while (started.size > 0 && Date.now() < deadline) await delay(50);
      for (const w of started.keys()) w.process.kill('SIGKILL');
      resolve(code);
    };

    cluster.on('exit', (worker, code, signal) => {
      const since = started.get(worker) ?? Date.now();
      started.delete(worker);
      if (stopping) return;
      const lived = Date.now() - since;
      opts.log(
        `ferry ${opts.role}: process ${worker.process.pid} ended (${signal ?? `exit ${code}`}) after ${Math.round(lived / 1000)} s; starting another`,
      );
      quickDeaths = lived < QUICK_DEATH_MS ? quickDeaths + 1 : 0;
      if (quickDeaths >= MAX_QUICK_DEATHS) {
        opts.log(
          `ferry ${opts.role}: ${quickDeaths} processes in a row ended within seconds of starting; stopping`,
        );
        void stopAll(1);
        return;
      }
      fork();
    });
    process.on('SIGTERM', () => void stopAll(0));
    process.on('SIGINT', () => void stopAll(0));
    for (let i = 0; i < opts.processes; i++) fork();
    opts.log(`ferry ${opts.role}: ${opts.processes} processes (primary ${process.pid})`);
  });
}
