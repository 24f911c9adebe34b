/**
 * `npm run bench -- --webhook-cost`: what one webhook delivery costs the machine, with nothing else
 * running. N events (three for each of N/3 accounts, as a push writes them) are in the feed; an
 * endpoint is pointed at a receiver in this process with its cursor at the feed's start, and a
 * `ferry worker` process, already started and idle, fans them out and delivers them. The clock
 * and the CPU counters run from the cursor's move until every delivery is recorded: the
 * machine's busy time (/proc/stat, Linux), the PostgreSQL processes' (all of the machine's: run
 * it where the server is the only one) and the worker process's, each divided by N. A target for the webhook lag at a rate of accounts is a budget
 * of CPU per event: this says what it is spent on (docs/performance.md).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { type Db, sql } from '../src/infra/db/db.ts';
import { adminHeaders } from '../test/helpers/test-app.ts';
import { type BenchWorker, startBenchWorker } from './end-to-end.ts';
import type { BenchApp } from './env.ts';
import { machineTicks, processTicks, spent, TICKS_PER_SECOND } from './proc.ts';
import { type BenchResult, round } from './result.ts';

const SUPPLIER = 'BENCHCOST';
const insertEvents = sql(
  'bench.costEvents',
  `INSERT INTO events (import_supplier, external_account_number, type, occurred_at, data)
   SELECT $1, 'COST-' || lpad((g / 3)::text, 7, '0'),
          (ARRAY['EVENT_ACCOUNT_IMPORT_PROCESS_CREATED', 'EVENT_ACCOUNT_IMPORT_PROCESS_STARTED',
                 'EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED'])[g % 3 + 1],
          now(), jsonb_build_object('import_process_id', (g / 3)::text, 'status', 'PROCESSED')
     FROM generate_series(0, $2 - 1) g`,
);
const rewind = sql('', `UPDATE webhook_endpoints SET cursor_xid = '0', cursor_id = 0 WHERE id = $1`);
/** Through the pending deliveries' partial index: asked only once every event has been posted. */
const pending = sql(
  '',
  `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND state = 'pending'`,
);

export async function benchWebhookCost(
  ferry: BenchApp,
  db: Db,
  url: string | undefined,
  events: number,
  deadlineMs: number,
): Promise<BenchResult> {
  if (!url) throw new Error('needs a PostgreSQL server (webhooks are delivered by a `ferry worker` process)');
  let received = 0;
  const receiver = createServer((req, res) => {
    req.resume().on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  let worker: BenchWorker | null = null;
  try {
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    worker = startBenchWorker(ferry, db, url);
    const { pid, died } = worker;
    await db.query(insertEvents, [SUPPLIER, events]);
    await ferry.app.inject({
      method: 'POST',
      url: '/admin/v1/import-suppliers/',
      headers: adminHeaders,
      payload: { code: SUPPLIER },
    });
    const created = await ferry.app.inject({
      method: 'POST',
      url: '/admin/v1/webhook-endpoints/',
      headers: adminHeaders,
      payload: {
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cost`,
        import_suppliers: [SUPPLIER],
      },
    });
    if (created.statusCode !== 201)
      throw new Error(`webhook endpoint: ${created.statusCode} ${created.body}`);
    const endpointId = (created.json() as { id: string }).id;
    await Promise.race([delay(2_000), died]); // the worker has started and is idle
    // Every PostgreSQL process on the machine: run it on a machine where this server is the only one.
    const isServer = (_: number, name: string) => name === 'postgres';
    const isWorker = (p: number) => p === pid;
    const [m0, s0, w0] = [machineTicks(), processTicks(isServer), processTicks(isWorker)];
    const t0 = performance.now();
    await db.query(rewind, [endpointId]);
    const deadline = Date.now() + deadlineMs;
    // The progress is watched from here, not by asking the database what the worker is doing.
    while (received < events || (await db.query<{ n: number }>(pending, [endpointId])).rows[0].n > 0) {
      if (Date.now() > deadline) throw new Error(`${received} of ${events} posted before the deadline`);
      await Promise.race([delay(received < events ? 20 : 5), died]);
    }
    const seconds = (performance.now() - t0) / 1000;
    const [m1, s1, w1] = [machineTicks(), processTicks(isServer), processTicks(isWorker)];
    const perEvent = (ticks: number) => round(((ticks / TICKS_PER_SECOND) * 1000) / events, 3);
    return {
      name: 'webhook-cost',
      value: perEvent(m1 - m0),
      unit: 'CPU ms/event',
      baseline: null,
      ratio: null,
      target: 'measured (no target)',
      pass: true,
      detail: {
        events,
        posts: received,
        per_second: round(events / seconds, 0),
        postgres_ms: perEvent(spent(s0, s1)),
        worker_ms: perEvent(spent(w0, w1)),
      },
    };
  } finally {
    await worker?.stop();
    receiver.close();
  }
}
