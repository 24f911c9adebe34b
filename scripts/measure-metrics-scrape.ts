/**
 * What a /metrics scrape costs with many import processes, and what the tally triggers cost the
 * hot statements (decision 0044). On a schema of its own on DATABASE_URL (dropped after):
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx scripts/measure-metrics-scrape.ts [processes]
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { claimPendingProcesses } from '../src/account-import/queue/queue.queries.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { sql } from '../src/infra/db/db.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { openPgDb } from '../src/infra/db/pg-db.ts';
import { FileObjectStore } from '../src/infra/storage/file-object-store.ts';
import { createPaymentVendors } from '../src/infra/vendors/vendor-registry.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('set DATABASE_URL');
const total = Number(process.argv[2] ?? 200_000);
const schema = `measure_metrics_${randomBytes(4).toString('hex')}`;
const adminClient = new pg.Client({ connectionString: url });
await adminClient.connect();
await adminClient.query(`CREATE SCHEMA ${schema}`);
const db = await openPgDb({ connectionString: url, schema, max: 4 });

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Processes in batches of 200 through one INSERT each, as the create endpoint's group commit does.
const insertBatch = sql(
  'measureInsertProcesses',
  `INSERT INTO import_processes (import_supplier, external_account_number, status, payload, latest_event, latest_error)
   SELECT 'S' || (g % 5), $3 || g,
          (ARRAY['PENDING','PROCESSED','PROCESSED','PROCESSED','ERRORED','CANCELLED','DRY_RUN_SUCCEEDED'])[1 + g % 7],
          '{"import_supplier": "x"}'::jsonb,
          '{"event": "EVENT_ACCOUNT_IMPORT_PROCESS_CREATED"}'::jsonb,
          CASE WHEN g % 7 = 4 THEN jsonb_build_object('code', 'code_' || (g % 11)) END
     FROM generate_series($1::int, $2::int) g`,
);

// The hot path's rows: PENDING, with a payload the size of the reference example account.
const insertPending = sql(
  'measureInsertPending',
  `INSERT INTO import_processes (import_supplier, external_account_number, status, payload, latest_event)
   SELECT 'S' || (g % 5), $3 || g, 'PENDING', $4::jsonb, '{"event": "EVENT_ACCOUNT_IMPORT_PROCESS_CREATED"}'::jsonb
     FROM generate_series($1::int, $2::int) g`,
);
const payload = readFileSync('test/fixtures/reference-examples/account.json', 'utf8');

async function timeInserts(n: number, prefix: string, pending = false): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i += 200) {
    const range = [i, Math.min(n, i + 200) - 1, prefix];
    await (pending ? db.query(insertPending, [...range, payload]) : db.query(insertBatch, range));
  }
  return ms(t0);
}

try {
  await migrate(db);
  for (let s = 0; s < 5; s++)
    await db.exec(`INSERT INTO import_suppliers (code, document_root) VALUES ('S${s}', 's${s}')`);

  // The triggers' cost on the hot statements, as PostgreSQL times them (EXPLAIN ANALYZE): a claim
  // of 100 and a staging INSERT of 200 realistic PENDING processes, median of 20 each.
  await timeInserts(20_000, 'hot-', true);
  await db.exec('ANALYZE');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`SET search_path = ${schema}`);
  const explain = async (text: (i: number) => string, params: unknown[], trigger: string) => {
    const total: number[] = [];
    const inTrigger: number[] = [];
    for (let i = 0; i < 20; i++) {
      const plan = (await client.query(`EXPLAIN (ANALYZE, FORMAT TEXT) ${text(i)}`, params)).rows
        .map((r: Record<string, string>) => r['QUERY PLAN'])
        .join('\n');
      total.push(Number(/Execution Time: ([\d.]+)/.exec(plan)?.[1]));
      inTrigger.push(Number(new RegExp(`Trigger ${trigger}[^:]*: time=([\\d.]+)`).exec(plan)?.[1]));
    }
    return `${median(total).toFixed(2)} ms, of which the tally trigger ${median(inTrigger).toFixed(2)} ms`;
  };
  const claimText = claimPendingProcesses.text
    .replace('$1', "'measure'")
    .replace('$2', '100')
    .replace('$3', '60');
  console.log(`claim of 100: ${await explain(() => claimText, [], 'import_process_tallies_update')}`);
  const insertText = (i: number) =>
    insertPending.text
      .replace('$4', '$1')
      .replace('$3', `'explain-${i}-'`)
      .replace('$1::int', '0')
      .replace('$2::int', '199');
  console.log(`insert of 200: ${await explain(insertText, [payload], 'import_process_tallies_insert')}`);
  await client.end();
  await db.exec(
    'DELETE FROM import_process_events; DELETE FROM import_processes; DELETE FROM import_process_tally_changes; DELETE FROM import_process_tallies;',
  );

  await timeInserts(total, 'p-');
  const changes = (
    await db.query<{ n: number }>(sql('', 'SELECT count(*)::int AS n FROM import_process_tally_changes'))
  ).rows[0].n;
  await db.exec('ANALYZE');

  const config = loadConfig({ DATA_DIR: '.tmp/measure-metrics' });
  const app = await buildApp(config, {
    db,
    objectStore: new FileObjectStore('.tmp/measure-metrics/documents'),
    paymentVendors: createPaymentVendors(config),
    operatorKey: 'measure-operator-key-0123456789',
  });
  const scrape = async () => {
    const t0 = process.hrtime.bigint();
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    if (res.statusCode !== 200) throw new Error(res.body);
    return ms(t0);
  };
  const times = async (n: number, f: () => Promise<number>) => {
    const xs: number[] = [];
    for (let i = 0; i < n; i++) xs.push(await f());
    return xs;
  };
  // The first scrape reads every change not folded yet, and folds them (FOLD_AT_SCRAPE).
  await app.inject({ method: 'GET', url: '/healthz' });
  const t2 = process.hrtime.bigint();
  await db.query(
    sql(
      '',
      'SELECT import_supplier, status, error_code, sum(processes) FROM import_process_tally_changes GROUP BY 1, 2, 3',
    ),
  );
  console.log(`reading the changes alone: ${ms(t2).toFixed(1)} ms`);
  const first = await scrape();
  await new Promise((r) => setTimeout(r, 2000));
  const left = (
    await db.query<{ n: number }>(sql('', 'SELECT count(*)::int AS n FROM import_process_tally_changes'))
  ).rows[0].n;
  const folded = await times(20, scrape);
  const countAll = await times(5, async () => {
    const t1 = process.hrtime.bigint();
    await db.query(sql('', 'SELECT import_supplier, status, count(*) FROM import_processes GROUP BY 1, 2'));
    return ms(t1);
  });
  console.log(
    `${total} processes: first scrape ${first.toFixed(1)} ms (${changes} changes not folded; ${left} left after it), ` +
      `then median ${median(folded).toFixed(1)} ms a scrape; ` +
      `a GROUP BY count of the processes instead: median ${median(countAll).toFixed(1)} ms`,
  );
  await app.close();
} finally {
  await db.close();
  await adminClient.query(`DROP SCHEMA ${schema} CASCADE`);
  await adminClient.end();
}
