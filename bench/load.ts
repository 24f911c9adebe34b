import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface LoadSpec {
  url: string;
  connections: number;
  /** Run for this long, unless amount is set. */
  durationSeconds: number;
  /** Send exactly this many requests. */
  amount?: number;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Distinct bodies generated in the load worker. */
  generate?:
    | { kind: 'accounts'; supplier: string; from: number }
    | { kind: 'transactions'; supplier: string; accounts: string[]; perBatch: number }
    | { kind: 'paths'; paths: string[] };
}

export interface LoadSummary {
  /** Mean of autocannon's per-second samples. */
  reqPerSec: number;
  total: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  p50Ms: number;
  p99Ms: number;
  durationSeconds: number;
}

/**
 * autocannon against loopback, in a child process; bounded by the spec's duration or amount,
 * and by a hard deadline after which the worker is terminated.
 */
export function runLoad(spec: LoadSpec, deadlineMs = 15 * 60_000): Promise<LoadSummary> {
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(spec.url)) throw new Error(`loopback only: ${spec.url}`);
  return new Promise((resolve, reject) => {
    // A child process, not a worker thread: autocannon behaves differently off the main thread.
    const worker = fork(fileURLToPath(new URL('./load-worker.ts', import.meta.url)), {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    worker.send(spec);
    const timer = setTimeout(() => {
      worker.kill();
      reject(new Error(`load on ${spec.url} did not finish within ${deadlineMs} ms`));
    }, deadlineMs);
    worker.once('message', (m: LoadSummary) => {
      clearTimeout(timer);
      resolve(m);
    });
    worker.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`load worker exited with ${code}`));
    });
  });
}
