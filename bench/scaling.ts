/**
 * `npm run bench -- --scaling`: the service as it is deployed on a big machine (docs/decisions/0075-processes.md),
 * measured at 1, 2, 4 and 8 processes: `ferry serve --no-worker --processes N` and
 * `ferry worker --processes N` on one PostgreSQL server, each N on a fresh schema. For each N:
 * end-to-end through the bulk path (N `ferry push accounts` at once, each with its share of the
 * book; the clock runs until the last exits, when every account is final), then validate and V2
 * status polling against the N API processes, sent by one autocannon process per four cores. The
 * series is printed with the machine's cores.
 * With `--webhooks`, a webhook endpoint receives every event of the push (the worker processes
 * deliver them) and each point also reports the lag from an event's commit to its delivery.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from '../src/infra/db/db.ts';
import { accountFor } from '../test/helpers/account-fixtures.ts';
import { freePort } from '../test/helpers/ports.ts';
import { createFreshDb } from '../test/helpers/test-db.ts';
import { type Service, startService, writeBooks } from './ferry-service.ts';
import { type LagFigures, type LagProbe, startLagProbe } from './lag-probe.ts';
import { runLoads } from './load.ts';
import { whileSampling } from './push-sampler.ts';
import { type BenchResult, round, type Scale } from './result.ts';

const SUPPLIER = 'SCALE';
const countProcessed = sql(
  '',
  `SELECT count(*)::int AS n FROM import_processes WHERE import_supplier = $1 AND status = 'PROCESSED'`,
);

export interface ScalingPoint {
  processes: number;
  bulkPerSec: number;
  validatePerSec: number;
  statusPerSec: number;
  statusP99Ms: number;
  /** How busy the busiest load generator's thread was during validate and status (near 1: it was the limit). */
  validateGeneratorBusy: number;
  statusGeneratorBusy: number;
  pushSeconds: number;
  /** What the database's active backends waited on during the push (whileSampling). */
  waits: string;
  /** Cores busy during the push, by role (push-sampler.ts). */
  cpu: string;
  /** With --webhooks: commit → delivery of the push's events. */
  webhooks: LagFigures | null;
}

/** One point of the series: N API and N worker processes on a fresh schema. */
async function measure(
  url: string,
  n: number,
  scale: Scale,
  log: (m: string) => void,
  webhooks: boolean,
  generators: number,
): Promise<ScalingPoint> {
  const fresh = await createFreshDb({ url, schemaPrefix: 'bench', poolSize: 2 });
  const dir = await mkdtemp(join(tmpdir(), 'ferry-bench-scaling-'));
  let service: Service | null = null;
  let probe: LagProbe | null = null;
  try {
    service = await startService({
      url: fresh.url!,
      processes: n,
      dir,
      port: await freePort(),
      supplier: SUPPLIER,
    });
    const { base, headers } = service;
    if (webhooks) {
      probe = await startLagProbe(fresh.db, SUPPLIER);
      await service.addWebhook(probe.url);
    }

    // End to end through the bulk path: N pushes at once, each with its share of the book.
    const books = await writeBooks({ dir, n: scale.accounts, parts: n, supplier: SUPPLIER });
    const t0 = performance.now();
    const sampled = await whileSampling(fresh.db, service.push(books));
    const pushSeconds = (performance.now() - t0) / 1000;
    const { rows } = await fresh.db.query<{ n: number }>(countProcessed, [SUPPLIER]);
    const count = rows[0].n;
    if (count !== scale.accounts) throw new Error(`${count} of ${scale.accounts} accounts PROCESSED`);
    const bulkPerSec = scale.accounts / pushSeconds;
    log(
      `  ${n} processes: end-to-end-bulk ${Math.round(bulkPerSec)} accounts/s (${pushSeconds.toFixed(1)} s)`,
    );
    log(`  ${n} processes: the database's active backends during the push: ${sampled.waits}`);
    for (const line of sampled.waiting) log(`    waiting: ${line}`);
    for (const line of sampled.statements) log(`    ${line}`);
    log(`  ${n} processes: CPU during the push, ${sampled.cpu}`);
    let lag: LagFigures | null = null;
    if (probe) {
      await probe.settled(120_000);
      lag = await probe.stop();
      probe = null;
      log(
        `  ${n} processes: webhooks ${lag.events} events, commit → delivery p50 ${lag.p50_ms} ms, p99 ${lag.p99_ms} ms (receiver at ${lag.receiver_priority} priority)`,
      );
    }

    const connections = 64;
    const validate = await runLoads(
      {
        url: `${base}/v2/data-import/accounts/validate/`,
        connections,
        durationSeconds: scale.seconds,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(accountFor(SUPPLIER, 9_999_001)),
      },
      generators,
    );
    const paths = Array.from({ length: Math.min(scale.accounts, 10_000) }, (_, i) => {
      const ext = accountFor(SUPPLIER, 2_000_001 + i).external_account_number;
      return `/v2/data-import/accounts/${SUPPLIER}/${ext}/`;
    });
    const status = await runLoads(
      {
        url: `${base}${paths[0]}`,
        connections,
        durationSeconds: scale.seconds,
        method: 'GET',
        headers,
        generate: { kind: 'paths', paths },
      },
      generators,
    );
    log(
      `  ${n} processes: validate ${Math.round(validate.reqPerSec)} req/s, status-v2 ${Math.round(status.reqPerSec)} req/s (${generators} load generator${generators === 1 ? '' : 's'}, the busiest ${round(validate.generatorBusy * 100, 0)} % and ${round(status.generatorBusy * 100, 0)} % busy)`,
    );
    return {
      processes: n,
      bulkPerSec,
      validatePerSec: validate.reqPerSec,
      statusPerSec: status.reqPerSec,
      statusP99Ms: status.p99Ms,
      validateGeneratorBusy: validate.generatorBusy,
      statusGeneratorBusy: status.generatorBusy,
      pushSeconds,
      waits: sampled.waits,
      cpu: sampled.cpu,
      webhooks: lag,
    };
  } finally {
    await probe?.stop();
    await service?.stop();
    await rm(dir, { recursive: true, force: true });
    await fresh.cleanup().catch(() => {});
  }
}

/**
 * Load generators for validate and status: one autocannon process sends from one thread, which on
 * 16 cores may answer fewer requests than 8 API processes can serve. A core's worth of generator
 * for every four cores, the same at every point of a series so its ratios compare like with like.
 */
const defaultGenerators = () => Math.max(1, Math.floor(availableParallelism() / 4));

/** The series, and the many-core targets (docs/product.md, Targets) read from it (they count on a many-core machine only). */
export async function benchScaling(
  url: string,
  scale: Scale,
  counts: number[],
  log: (m: string) => void,
  webhooks = false,
  generators = defaultGenerators(),
): Promise<{ points: ScalingPoint[]; results: BenchResult[]; cores: number }> {
  const points: ScalingPoint[] = [];
  for (const n of counts) {
    log(`scaling: ${n} API + ${n} worker processes…`);
    points.push(await measure(url, n, scale, log, webhooks, generators));
  }
  const one = points[0];
  const results: BenchResult[] = points.map((p) => {
    const bulkX = p.bulkPerSec / one.bulkPerSec;
    const validateX = p.validatePerSec / one.validatePerSec;
    const statusX = p.statusPerSec / one.statusPerSec;
    const at8 = p.processes === 8;
    const lagOk = p.webhooks === null || (p.webhooks.p99_ms < 1_000 && p.webhooks.complete);
    return {
      name: `scaling-${p.processes}`,
      value: round(p.bulkPerSec, 0),
      unit: 'accounts/s',
      baseline: round(one.bulkPerSec, 0),
      ratio: round(bulkX, 2),
      target: at8
        ? `bulk ≥ 3 × and ≥ 8,000/s; validate, status ≥ 5 ×${p.webhooks ? '; webhook p99 < 1 s' : ''}`
        : 'series',
      pass: !at8 || (bulkX >= 3 && p.bulkPerSec >= 8_000 && validateX >= 5 && statusX >= 5 && lagOk),
      detail: {
        validate_req_s: round(p.validatePerSec, 0),
        validate_x: round(validateX, 2),
        status_req_s: round(p.statusPerSec, 0),
        status_x: round(statusX, 2),
        status_p99_ms: p.statusP99Ms,
        load_generators: generators,
        generator_busy: `${round(p.validateGeneratorBusy, 2)} ${round(p.statusGeneratorBusy, 2)}`,
        push_s: round(p.pushSeconds, 1),
        waits: p.waits,
        cpu: p.cpu,
        ...(p.webhooks && {
          webhook_p50_ms: p.webhooks.p50_ms,
          webhook_p99_ms: p.webhooks.p99_ms,
          webhook_events: p.webhooks.events,
        }),
      },
    };
  });
  return { points, results, cores: availableParallelism() };
}
