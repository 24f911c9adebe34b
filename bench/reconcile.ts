/**
 * A wave's reconciliation at scale: N imported accounts (default 1,000,000) generated in SQL on
 * the PostgreSQL server (each with a supply address, 2 meter points and 3 transactions), the
 * source system's expectations for them with planted differences, then the service's
 * reconciliation and its differences stream, through HTTP: time of each, and the service's memory
 * (RSS sampled every 50 ms while they run, and the process's peak).
 *
 *   npm run build && node --import tsx bench/reconcile.ts [--accounts N]
 *
 * Planted: every 1,000th account's expected balance is 0.01 higher (differing), 500 expected
 * accounts were never imported (missing), and 500 imported accounts are left out of the
 * expectations (unexpected).
 */
import { parseArgs } from 'node:util';
import { selectReconciliation } from '../src/account-import/waves/reconciliation.queries.ts';
import { sql } from '../src/infra/db/db.ts';
import { DEFAULT_DATABASE_URL, openBenchDb, SUPPLIER, startFerry } from './env.ts';

const { values } = parseArgs({ options: { accounts: { type: 'string' }, explain: { type: 'boolean' } } });
const accounts = Number(values.accounts ?? 1_000_000);
const WAVE = 'big';
const log = (msg: string) => process.stderr.write(`[reconcile] ${msg}\n`);

const generate = [
  `INSERT INTO import_processes (import_supplier, external_account_number, status, payload, latest_event, wave)
   SELECT '${SUPPLIER}', 'RC' || lpad(i::text, 8, '0'), 'PROCESSED', '{}', '{}', '${WAVE}'
     FROM generate_series(1, ${accounts}) AS i`,
  `INSERT INTO accounts (number, import_supplier, external_account_number, import_process_id, balance)
   SELECT 'A-RC' || p.id, p.import_supplier, p.external_account_number, p.id, ((p.id * 37) % 200000 - 100000) / 100.0
     FROM import_processes p WHERE p.import_supplier = '${SUPPLIER}' AND p.wave = '${WAVE}'`,
  `UPDATE import_processes p SET account_id = a.id FROM accounts a
    WHERE a.import_process_id = p.id AND p.import_supplier = '${SUPPLIER}' AND p.wave = '${WAVE}'`,
  `INSERT INTO supply_addresses (account_id, position, address_lines)
   SELECT id, 0, ARRAY['1 Bench Street'] FROM accounts WHERE import_supplier = '${SUPPLIER}'`,
  `INSERT INTO meter_points (account_id, supply_address_id, identifier, supply_type)
   SELECT s.account_id, s.id, 'RC' || s.id || '-' || k, 'ELECTRICITY' FROM supply_addresses s, generate_series(1, 2) AS k`,
  `INSERT INTO transactions (account_id, transaction_id, statement, transaction_date, amount, type)
   SELECT a.id, 'rc-' || k, 'historical', DATE '2024-01-01', ((a.id * k * 7) % 10000) / 100.0, 'CHARGE'
     FROM accounts a, generate_series(1, 3) AS k WHERE a.import_supplier = '${SUPPLIER}'`,
  `INSERT INTO waves (import_supplier, wave, expectations_uploaded_at) VALUES ('${SUPPLIER}', '${WAVE}', now())`,
  // The source's figures: what is stored, but 0.01 more on every 1,000th balance, 500 accounts
  // left out (the last ones), and 500 accounts that were never imported.
  `INSERT INTO wave_expectations
          (import_supplier, wave, external_account_number, ledger_balance, meter_points, transactions, transactions_total)
   SELECT '${SUPPLIER}', '${WAVE}', a.external_account_number,
          a.balance + CASE WHEN a.id % 1000 = 0 THEN 0.01 ELSE 0 END, 2, 3,
          (SELECT sum(t.amount) FROM transactions t WHERE t.account_id = a.id)
     FROM accounts a WHERE a.import_supplier = '${SUPPLIER}'
      AND a.external_account_number <= 'RC' || lpad('${accounts - 500}', 8, '0')
   UNION ALL
   SELECT '${SUPPLIER}', '${WAVE}', 'RC-MISSING-' || i, 10.00, 2, 3, 1.00 FROM generate_series(1, 500) AS i`,
  'ANALYZE',
];

const bdb = await openBenchDb('postgres', process.env.DATABASE_URL || DEFAULT_DATABASE_URL);
try {
  // The service first: it creates the supplier the generated rows belong to.
  const ferry = await startFerry(bdb.db);
  log(`db: ${bdb.label}; generating ${accounts} accounts`);
  const started = performance.now();
  for (const statement of generate) await bdb.db.query(sql('', statement));
  log(`generated in ${((performance.now() - started) / 1000).toFixed(0)} s`);

  if (values.explain) {
    const plan = await bdb.db.query<Record<string, string>>(
      sql('', `EXPLAIN (ANALYZE, BUFFERS) ${selectReconciliation.text}`),
      [SUPPLIER, WAVE],
    );
    log(plan.rows.map((r) => Object.values(r)[0]).join('\n'));
  }
  let peakSampled = process.memoryUsage().rss;
  const rssBefore = peakSampled;
  const sampler = setInterval(() => {
    peakSampled = Math.max(peakSampled, process.memoryUsage().rss);
  }, 50);
  const base = `${ferry.base}/v2/data-import/waves/${SUPPLIER}/${WAVE}/reconciliation/`;

  const t0 = performance.now();
  const answer = await fetch(base, { headers: ferry.headers });
  const reconciliation = (await answer.json()) as Record<string, unknown>;
  const t1 = performance.now();
  const stream = await fetch(`${base}differences/`, { headers: ferry.headers });
  let lines = 0;
  let partial = '';
  for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
    partial += Buffer.from(chunk).toString('utf8');
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    lines += parts.filter(Boolean).length;
  }
  const t2 = performance.now();
  clearInterval(sampler);
  await ferry.app.close();
  console.log(
    JSON.stringify(
      {
        accounts,
        status: answer.status,
        reconciliation: { status: reconciliation.status, accounts: reconciliation.accounts },
        reconciliation_s: Number(((t1 - t0) / 1000).toFixed(2)),
        differences_lines: lines,
        differences_s: Number(((t2 - t1) / 1000).toFixed(2)),
        service_rss_before_mib: Math.round(rssBefore / 2 ** 20),
        service_rss_peak_sampled_mib: Math.round(peakSampled / 2 ** 20),
        process_peak_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024),
      },
      null,
      2,
    ),
  );
} finally {
  await bdb.cleanup();
}
process.exit(0);
