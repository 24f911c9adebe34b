/**
 * Runs the fuzzer on one endpoint with fast-check: sends each generated request through
 * app.inject, checks the oracles, counts what came back, and on a violation lets fast-check
 * shrink the request to a small counterexample, written out as a curl reproducer. With
 * `maxFailures` above one, a violation already reported stops counting as a failure and the run
 * goes on (with a derived seed) to look for violations of other kinds.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { sql } from '../../src/infra/db/db.ts';
import { adminHeaders } from '../helpers/test-app.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';
import type { EndpointSpec, FuzzRequest } from './fuzz-endpoints.ts';
import {
  type Answer,
  causeClass,
  checkAnswer,
  sideEffects,
  snapshot,
  type Violation,
} from './fuzz-oracles.ts';
import { FUZZ_SUPPLIER, type FuzzWorld } from './fuzz-world.ts';

export interface EndpointStats {
  bodies: number;
  s2xx: number;
  s4xx: number;
  s5xx: number;
  other: number;
  format: number;
  attr: number;
  effects: number;
  /** Processes a 201 scheduled that the worker then ended ERRORED for a value's form. */
  errored: number;
  misc: number;
  /** Wall-clock milliseconds, shrinking included. */
  ms: number;
}

export interface Failure {
  endpoint: string;
  signature: string;
  violations: Violation[];
  request: FuzzRequest;
  answer: Answer;
  seed: number;
  numRuns: number;
  numShrinks: number;
  reproducer: string;
}

export interface EndpointResult {
  spec: EndpointSpec;
  stats: EndpointStats;
  failures: Failure[];
}

export interface FuzzOptions {
  runs: number;
  seed: number;
  /** Distinct violations to find before stopping (1: stop at the first). */
  maxFailures?: number;
  /** Where reproducers too long for a terminal are written. */
  reproDir?: string;
  /** After the last failure sought, send the remaining runs anyway, only counting (the long run's table). */
  finish?: boolean;
}

const WRITES = new Set(['POST', 'PATCH', 'DELETE']);
/** FUZZ_TRACE=<ms>: print every request that took at least that long (0: every request). */
const TRACE_MS = process.env.FUZZ_TRACE === undefined ? null : Number(process.env.FUZZ_TRACE);

/** Sends one request and checks it; database checks for refused writes included. */
export async function exchange(
  w: FuzzWorld,
  spec: EndpointSpec,
  req: FuzzRequest,
): Promise<{ answer: Answer; violations: Violation[] }> {
  const headers: Record<string, string> = {};
  if (spec.auth === 'token') Object.assign(headers, w.tokenHeaders);
  if (spec.auth === 'operator') Object.assign(headers, adminHeaders);
  if (req.contentType) headers['content-type'] = req.contentType;
  const write = WRITES.has(req.method);
  const before = write ? await snapshot(w.t.db) : '';
  let answer: Answer;
  const started = Date.now();
  try {
    const res = await w.t.app.inject({
      method: req.method,
      url: req.url,
      headers,
      ...(req.body !== undefined ? { payload: req.body } : {}),
      ...(req.remoteAddress ? { remoteAddress: req.remoteAddress } : {}),
    });
    const id = res.headers['x-request-id'];
    answer = {
      status: res.statusCode,
      body: res.body,
      ms: Date.now() - started,
      cause: typeof id === 'string' ? w.causes.get(id) : undefined,
    };
  } catch (err) {
    // The server never answered (inject itself failed): as bad as a 500.
    answer = { status: 599, body: '', cause: `inject failed: ${(err as Error).message}` };
  }
  if (TRACE_MS !== null && (answer.ms ?? 0) >= TRACE_MS) {
    process.stderr.write(
      `[fuzz] ${spec.name} ${answer.ms} ms ${answer.status} ${req.method} ${req.url.slice(0, 80)} ${req.body?.length ?? 0} bytes\n`,
    );
  }
  const violations = checkAnswer(spec, req, answer);
  if (write && answer.status >= 400 && answer.status < 500) {
    violations.push(...sideEffects(before, await snapshot(w.t.db), answer.status));
  }
  return { answer, violations };
}

export const emptyStats = (): EndpointStats => ({
  bodies: 0,
  s2xx: 0,
  s4xx: 0,
  s5xx: 0,
  other: 0,
  format: 0,
  attr: 0,
  effects: 0,
  errored: 0,
  misc: 0,
  ms: 0,
});

function count(stats: EndpointStats, answer: Answer, violations: Violation[]) {
  stats.bodies++;
  if (answer.status >= 200 && answer.status < 300) stats.s2xx++;
  else if (answer.status >= 400 && answer.status < 500) stats.s4xx++;
  else if (answer.status >= 500) stats.s5xx++;
  else stats.other++;
  if (violations.some((v) => v.kind === 'format')) stats.format++;
  if (violations.some((v) => v.kind === 'attr')) stats.attr++;
  if (violations.some((v) => v.kind === 'side-effect')) stats.effects++;
  if (violations.some((v) => v.kind === 'pollution' || v.kind === 'content-type' || v.kind === 'slow'))
    stats.misc++;
}

/** Fuzzes one endpoint: `runs` generated requests, counted, with shrunk counterexamples. */
export async function fuzzEndpoint(
  w: FuzzWorld,
  spec: EndpointSpec,
  opts: FuzzOptions,
): Promise<EndpointResult> {
  const stats = emptyStats();
  const started = Date.now();
  const failures: Failure[] = [];
  const known = new Set<string>();
  const maxFailures = opts.maxFailures ?? 1;
  let remaining = opts.runs;
  for (let round = 0; remaining > 0 && failures.length < maxFailures; round++) {
    const seed = (opts.seed + round * 7_919) | 0;
    let shrinking = false;
    let last: { request: FuzzRequest; answer: Answer; violations: Violation[] } | null = null;
    const property = fc.asyncProperty(spec.request, async (request) => {
      const { answer, violations } = await exchange(w, spec, request);
      if (!shrinking) count(stats, answer, violations);
      const fresh = violations.filter((v) => !known.has(v.signature));
      if (fresh.length === 0) return true;
      shrinking = true;
      last = { request, answer, violations: fresh };
      return false;
    });
    // Find without shrinking, then replay the counterexample's path to shrink it, unless it is
    // only slow: every shrinking step of a request that takes seconds would take seconds too.
    const details = await fc.check(property, { seed, numRuns: remaining, endOnFailure: true });
    remaining -= details.numRuns;
    if (!details.failed || !last) break;
    let found = last as { request: FuzzRequest; answer: Answer; violations: Violation[] };
    let numShrinks = 0;
    if (details.counterexamplePath && found.violations.some((v) => v.kind !== 'slow')) {
      last = null;
      const shrunk = await fc.check(property, { seed, path: details.counterexamplePath, numRuns: 1 });
      if (shrunk.failed && last) {
        found = last;
        numShrinks = shrunk.numShrinks;
      }
    }
    for (const v of found.violations) known.add(v.signature);
    const failure: Failure = {
      endpoint: spec.name,
      signature: found.violations[0].signature,
      violations: found.violations,
      request: found.request,
      answer: found.answer,
      seed,
      numRuns: details.numRuns,
      numShrinks,
      reproducer: '',
    };
    failure.reproducer = reproducer(spec, failure, opts.reproDir);
    failures.push(failure);
  }
  if (opts.finish && remaining > 0) {
    const counting = fc.asyncProperty(spec.request, async (request) => {
      const { answer, violations } = await exchange(w, spec, request);
      count(stats, answer, violations);
    });
    await fc.check(counting, { seed: (opts.seed + 104_729) | 0, numRuns: remaining });
  }
  if (spec.settlesThroughWorker) {
    const errored = await settleScheduled(w, spec, opts);
    stats.errored = errored.count;
    failures.push(...errored.failures.slice(0, Math.max(1, maxFailures - failures.length)));
  }
  stats.ms = Date.now() - started;
  return { spec, stats, failures };
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A ready-to-paste curl command (body inline when short, else in a file) and what it answered. */
export function reproducer(spec: EndpointSpec, f: Failure, dir = '.tmp/fuzz'): string {
  const r = f.request;
  const lines = [
    `# ${spec.name} (${spec.route.method} ${spec.route.path}): seed ${f.seed}, failed after ${f.numRuns} runs, shrunk ${f.numShrinks} times`,
    ...f.violations.map((v) => `# ${v.kind}: ${v.message.replace(/\n/g, '\n#   ')}`),
  ];
  const auth =
    spec.auth === 'token'
      ? ` -H "Authorization: Token $FERRY_TOKEN"`
      : spec.auth === 'operator'
        ? ` -H "Authorization: Bearer $FERRY_OPERATOR_API_KEY"`
        : '';
  const type = r.contentType ? ` -H ${shellQuote(`Content-Type: ${r.contentType}`)}` : '';
  let cmd = `curl -sS -X ${r.method} "\${FERRY_URL:-http://127.0.0.1:8080}"${shellQuote(r.url)}${auth}${type}`;
  if (r.body !== undefined) {
    if (r.body.length <= 4_000 && !r.body.includes('\nJSON\n')) {
      cmd += ` --data-binary @- <<'JSON'\n${r.body}\nJSON`;
    } else {
      mkdirSync(dir, { recursive: true });
      const tag = createHash('sha256').update(f.signature).digest('hex').slice(0, 8);
      const file = `${dir}/${spec.name.replace(/[^A-Za-z0-9.-]+/g, '_')}-${f.seed}-${f.violations[0].kind}-${tag}.json`;
      writeFileSync(file, r.body);
      cmd += ` --data-binary @${file}   # ${r.body.length} bytes`;
    }
  }
  lines.push(
    cmd,
    `# → ${f.answer.status} ${f.answer.body.length > 400 ? `${f.answer.body.slice(0, 400)}…` : f.answer.body}`,
  );
  return lines.join('\n');
}

/** One line of the per-endpoint table. */
export function statsLine(name: string, s: EndpointStats): string {
  const cells = [s.bodies, s.s2xx, s.s4xx, s.s5xx, s.format, s.attr, s.effects, s.errored, s.misc].map((n) =>
    String(n).padStart(8),
  );
  return `${name.padEnd(34)}${cells.join('')}${(s.ms / 1000).toFixed(1).padStart(8)}`;
}

export const STATS_HEADER = `${'endpoint'.padEnd(34)}${[
  'bodies',
  '2xx',
  '4xx',
  '5xx',
  'format',
  'attr',
  'effect',
  'errored',
  'other',
  's',
]
  .map((h) => h.padStart(8))
  .join('')}`;

/** Errors about the data's relation to stored data or to time: allowed after a 201 (docs/product.md). */
const RELATIONAL_ERRORS = [
  'meter_point_on_another_account',
  'reference_already_exists',
  'account_already_exists',
  'schedule_window_expired',
];

const erroredProcesses = sql(
  'fuzzErroredProcesses',
  `SELECT id::text AS id, external_account_number, status, latest_error, payload::text AS payload
     FROM import_processes
    WHERE import_supplier = $1 AND status IN ('ERRORED', 'DRY_RUN_ERRORED')
      AND NOT (coalesce(latest_error->>'code', '') = ANY($2::text[]))
    ORDER BY id`,
);

/**
 * "A create that answered 201 may end ERRORED only for a reason about the data's relation to
 * stored data, never for a value's form": runs the worker over everything the create fuzz
 * scheduled and reports each other kind of failure once, its stored payload as the reproducer.
 */
async function settleScheduled(w: FuzzWorld, spec: EndpointSpec, opts: FuzzOptions) {
  const causes = new Map<string, string>();
  const logger = {
    info() {},
    warn() {},
    error(o: unknown) {
      const e = o as { err?: Error; importProcessId?: unknown };
      if (e.importProcessId !== undefined)
        causes.set(String(e.importProcessId), e.err?.message ?? String(e.err));
    },
  };
  await runWorkerUntilIdle(w.t.config, w.t.db, { logger, timeoutMs: 600_000 });
  const rows = (
    await w.t.db.query<{
      id: string;
      status: string;
      latest_error: { code?: string } | null;
      payload: string;
    }>(erroredProcesses, [FUZZ_SUPPLIER, RELATIONAL_ERRORS])
  ).rows;
  const seen = new Set<string>();
  const failures: Failure[] = [];
  for (const row of rows) {
    const cause = causes.get(row.id) ?? '';
    const signature = `worker ${row.status} ${row.latest_error?.code ?? '-'} (${causeClass(cause)})`;
    if (seen.has(signature)) continue;
    seen.add(signature);
    const violation: Violation = {
      kind: 'errored',
      signature,
      message: `answered 201, then the worker ended the process ${row.status}: ${JSON.stringify(row.latest_error)}${cause ? `\n  logged cause: ${cause}` : ''}`,
    };
    const failure: Failure = {
      endpoint: spec.name,
      signature,
      violations: [violation],
      request: {
        method: 'POST',
        url: spec.route.path,
        params: {},
        query: {},
        body: row.payload,
        contentType: 'application/json',
      },
      answer: { status: 201, body: '{}' },
      seed: opts.seed,
      numRuns: opts.runs,
      numShrinks: 0,
      reproducer: '',
    };
    failure.reproducer = reproducer(spec, failure, opts.reproDir);
    failures.push(failure);
  }
  return { count: rows.length, failures };
}
