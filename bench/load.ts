import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type BenchResult, round, TARGETS } from './result.ts';

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
  /**
   * How busy the load generator's thread was while it sent (its event loop's utilization, 0 to
   * 1): near 1, autocannon's one thread was the limit and the figure is the generator's.
   */
  generatorBusy: number;
}

/** When a load starts: once its generator is ready, at `go` (runLoads starts several together). */
interface Start {
  ready(): void;
  go: Promise<void>;
}
const AT_ONCE: Start = { ready() {}, go: Promise.resolve() };

/**
 * autocannon against loopback, in a child process; bounded by the spec's duration or amount,
 * and by a hard deadline after which the worker is terminated.
 */
export function runLoad(spec: LoadSpec, deadlineMs = 15 * 60_000, start = AT_ONCE): Promise<LoadSummary> {
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
    worker.on('message', (m: LoadSummary | { ready: true }) => {
      if ('ready' in m) {
        start.ready();
        void start.go.then(() => worker.connected && worker.send('go'));
        return;
      }
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

/**
 * One load from `generators` autocannon processes, started together once all are ready, the
 * connections shared out among them (each at least one; at most as many generators as
 * connections): for a service that answers more than one generator's thread can send. A load of
 * fixed requests (paths) only, each generator starting at another place in them; not an amount,
 * and not generated accounts or transactions, which would repeat across generators. Requests
 * and answers add up; the latencies and `generatorBusy` are the largest of any one generator's
 * (for the latencies, an upper bound for the whole).
 */
export async function runLoads(spec: LoadSpec, generators: number): Promise<LoadSummary> {
  if (spec.amount !== undefined) throw new Error('runLoads: a duration only, not an amount');
  if (spec.generate && spec.generate.kind !== 'paths')
    throw new Error(`runLoads: ${spec.generate.kind} would repeat across generators`);
  const g = Math.max(1, Math.min(generators, spec.connections));
  if (g === 1) return runLoad(spec);
  let waiting = g;
  let release = () => {};
  const start: Start = {
    ready: () => {
      if (--waiting === 0) release();
    },
    go: new Promise<void>((r) => {
      release = r;
    }),
  };
  const paths = spec.generate?.kind === 'paths' ? spec.generate.paths : undefined;
  const all = await Promise.all(
    Array.from({ length: g }, (_, i) => {
      const offset = paths ? Math.floor((i * paths.length) / g) : 0;
      return runLoad(
        {
          ...spec,
          connections: Math.floor(spec.connections / g) + (i < spec.connections % g ? 1 : 0),
          ...(paths && {
            generate: { kind: 'paths' as const, paths: [...paths.slice(offset), ...paths.slice(0, offset)] },
          }),
        },
        undefined,
        start,
      ).catch((err) => {
        release(); // a generator that failed before it was ready holds none of the others back
        throw err;
      });
    }),
  );
  const sum = (k: 'reqPerSec' | 'total' | 'ok' | 'non2xx' | 'errors' | 'timeouts') =>
    all.reduce((n, s) => n + s[k], 0);
  const max = (k: 'p50Ms' | 'p99Ms' | 'durationSeconds' | 'generatorBusy') =>
    Math.max(...all.map((s) => s[k]));
  return {
    reqPerSec: sum('reqPerSec'),
    total: sum('total'),
    ok: sum('ok'),
    non2xx: sum('non2xx'),
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    p50Ms: max('p50Ms'),
    p99Ms: max('p99Ms'),
    durationSeconds: max('durationSeconds'),
    generatorBusy: max('generatorBusy'),
  };
}

/** Ferry's load and its baseline's, measured in alternation; the ratio is the median pair's. */
export interface Comparison {
  ferry: LoadSummary;
  baseline: LoadSummary;
  ratio: number;
  /** Every pair's ratio, in the order measured. */
  ratios: number[];
  /** Ferry's non-2xx answers and errors over every segment. */
  failures: number;
}

/**
 * After a one-second warm-up of each, measures `ferry` and `baseline` in `pairs` alternating
 * segments that share `seconds` between them (each at least 2 s), and answers the pair with the median ratio. On a machine shared with
 * the load generator, one long run of each compares two different moments: the baseline alone
 * moved by a factor 2.5 from run to run here (docs/performance.md), and the ratio with it.
 */
export async function compareLoads(
  ferry: (seconds: number) => LoadSpec,
  baseline: (seconds: number) => LoadSpec,
  opts: { seconds: number; pairs?: number },
): Promise<Comparison> {
  const pairs = opts.pairs ?? 3;
  const segment = Math.max(2, Math.round(opts.seconds / pairs));
  // A second of each first: the JIT warm on both sides before anything counts.
  await runLoad(ferry(1));
  await runLoad(baseline(1));
  const measured: { ferry: LoadSummary; baseline: LoadSummary; ratio: number }[] = [];
  for (let i = 0; i < pairs; i++) {
    const f = await runLoad(ferry(segment));
    const b = await runLoad(baseline(segment));
    measured.push({ ferry: f, baseline: b, ratio: b.reqPerSec > 0 ? f.reqPerSec / b.reqPerSec : 0 });
  }
  const ratios = measured.map((m) => m.ratio);
  const median = [...measured].sort((x, y) => x.ratio - y.ratio)[Math.floor(pairs / 2)];
  const failures = measured.reduce((n, m) => n + m.ferry.non2xx + m.ferry.errors, 0);
  return { ...median, ratios, failures };
}

/**
 * The result of a comparison against a same-run baseline (validate, status): req/s, the median
 * pair's ratio (≥ 0.5 to pass, with `alsoPasses`), every pair's ratio and Ferry's failures.
 */
export function comparedResult(
  name: 'validate' | 'status-v2',
  { ferry: f, baseline: b, ratio, ratios, failures }: Comparison,
  alsoPasses: boolean,
  detail: Record<string, number | string>,
): BenchResult {
  if (f.ok === 0) throw new Error(`${name}: no 2xx answers (${f.non2xx} non-2xx, ${f.errors} errors)`);
  return {
    name,
    value: round(f.reqPerSec, 0),
    unit: 'req/s',
    baseline: round(b.reqPerSec, 0),
    ratio: round(ratio),
    target: TARGETS[name],
    pass: ratio >= 0.5 && alsoPasses && failures === 0,
    detail: {
      ...detail,
      non2xx: f.non2xx,
      errors: f.errors,
      pair_ratios: ratios.map((r) => round(r)).join(' '),
    },
  };
}
