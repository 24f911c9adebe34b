/**
 * The cost count's figures (bench/cost.ts) as a fixed-width table for a CI log, and as JSON:
 * per account for every run; per webhook delivery for every number of processes with both runs
 * (the run with an endpoint less the one without, over its deliveries); and the ten statements
 * with the most calls, the most buffers and the most execution time of each run (with how often
 * and how long the server planned each), the rows each table had written, and the WAL by record
 * type and by the table it changed (pg_waldump), where the WAL bytes come from.
 */
import type { CostRun } from './cost.ts';
import type { WalRecordType } from './cost-cluster.ts';
import type { Counts, Statement, TableWrites, WalByTable } from './cost-stats.ts';

const METRICS: [keyof Counts, string][] = [
  ['statements', 'statements'],
  ['rows', 'rows returned/affected'],
  ['rows_written', 'rows written'],
  ['wal_bytes', 'WAL bytes'],
  ['wal_records', 'WAL records'],
  ['wal_fpi', 'WAL full pages'],
  ['buffers', 'shared buffers touched'],
  ['transactions', 'transactions committed'],
  ['pg_cpu_us', 'PostgreSQL CPU µs'],
  ['api_cpu_us', 'API CPU µs'],
  ['worker_cpu_us', 'worker CPU µs'],
  ['push_cpu_us', 'push CPU µs'],
];

type Figures = Record<keyof Counts, number>;

const per = (counts: Counts, d: number): Figures =>
  Object.fromEntries(METRICS.map(([k]) => [k, d > 0 ? counts[k] / d : 0])) as Figures;

/** Per delivery at `processes`: (with − without) / deliveries, where both runs were made. */
function perDelivery(runs: CostRun[], processes: number): Figures | null {
  const plain = runs.find((r) => r.processes === processes && !r.webhooks);
  const hooks = runs.find((r) => r.processes === processes && r.webhooks);
  if (!plain || !hooks || hooks.deliveries === 0) return null;
  return Object.fromEntries(
    METRICS.map(([k]) => [k, (hooks.counts[k] - plain.counts[k]) / hooks.deliveries]),
  ) as Figures;
}

/** Three significant figures at most, thousands grouped: 0.00412, 0.412, 41.2, 412, 4,120. */
const fmt = (v: number) => {
  const a = Math.abs(v);
  if (a >= 1_000) return Math.round(v).toLocaleString('en');
  if (a === 0) return '0';
  return String(Number(v.toPrecision(3)));
};

interface Column {
  head: [string, string];
  figures: Figures;
  extra: [string, string, string];
}

function columns(runs: CostRun[]): Column[] {
  const out: Column[] = [];
  for (const n of [...new Set(runs.map((r) => r.processes))]) {
    for (const r of runs.filter((x) => x.processes === n))
      out.push({
        head: [`${n} proc`, r.webhooks ? 'webhooks' : 'no hooks'],
        figures: per(r.counts, r.accounts),
        extra: [String(r.push_s), fmt(r.accounts / r.push_s), r.webhooks ? String(r.deliveries) : '-'],
      });
    const d = perDelivery(runs, n);
    if (d) out.push({ head: [`${n} proc`, '/delivery'], figures: d, extra: ['-', '-', '-'] });
  }
  return out;
}

function statements(title: string, list: Statement[], accounts: number): string[] {
  const head = `  ${'calls/acct'.padStart(10)} ${'rows/acct'.padStart(9)} ${'WAL B/acct'.padStart(10)} ${'bufs/acct'.padStart(9)} ${'µs/acct'.padStart(8)} ${'plans/acct'.padStart(10)} ${'plan µs'.padStart(8)}  query`;
  return [
    title,
    head,
    ...list.map(
      (s) =>
        `  ${fmt(s.calls / accounts).padStart(10)} ${fmt(s.rows / accounts).padStart(9)} ${fmt(s.wal_bytes / accounts).padStart(10)} ${fmt(s.buffers / accounts).padStart(9)} ${fmt((s.exec_ms * 1000) / accounts).padStart(8)} ${fmt(s.plans / accounts).padStart(10)} ${fmt((s.plan_ms * 1000) / accounts).padStart(8)}  ${s.query}`,
    ),
  ];
}

function tables(title: string, list: TableWrites[], accounts: number): string[] {
  const cols = ['inserted', 'updated', 'HOT', 'deleted', 'indexes', 'KB/acct'];
  return [
    title,
    `  ${cols.map((c) => c.padStart(9)).join(' ')}  table`,
    ...list.map(
      (t) =>
        `  ${[t.inserted, t.updated, t.hot, t.deleted]
          .map((v) => fmt(v / accounts).padStart(9))
          .join(
            ' ',
          )} ${String(t.indexes).padStart(9)} ${fmt(t.bytes / 1024 / accounts).padStart(9)}  ${t.table}`,
    ),
  ];
}

/** The record types with the most WAL, per account; the rest summed on one line. */
function walTypes(title: string, list: WalRecordType[] | null, accounts: number): string[] {
  if (list === null) return [title, "  (pg_waldump could not read the run's WAL: segments recycled)"];
  const cols = ['records', 'bytes', 'full pages'];
  const line = (t: Pick<WalRecordType, 'records' | 'record_bytes' | 'fpi_bytes'>, name: string) =>
    `  ${[t.records, t.record_bytes + t.fpi_bytes, t.fpi_bytes].map((v) => fmt(v / accounts).padStart(10)).join(' ')}  ${name}`;
  const sum = (l: WalRecordType[]) => ({
    records: l.reduce((a, t) => a + t.records, 0),
    record_bytes: l.reduce((a, t) => a + t.record_bytes, 0),
    fpi_bytes: l.reduce((a, t) => a + t.fpi_bytes, 0),
  });
  const rest = list.slice(10);
  return [
    title,
    `  ${cols.map((c) => c.padStart(10)).join(' ')}  record type`,
    ...list.slice(0, 10).map((t) => line(t, t.type)),
    ...(rest.length > 0 ? [line(sum(rest), `${rest.length} other types`)] : []),
    line(sum(list), 'all'),
  ];
}

/** The tables whose changes wrote the most WAL, per account (heap, indexes, TOAST); the rest summed on one line. */
function walTables(title: string, list: WalByTable[] | null, accounts: number): string[] {
  if (list === null) return [title, "  (pg_waldump could not read the run's WAL: segments recycled)"];
  const cols = ['records', 'bytes', 'heap', 'indexes', 'TOAST'];
  const sum = (l: WalByTable[]) => ({
    records: l.reduce((a, t) => a + t.records, 0),
    heap: l.reduce((a, t) => a + t.heap, 0),
    indexes: l.reduce((a, t) => a + t.indexes, 0),
    toast: l.reduce((a, t) => a + t.toast, 0),
  });
  const line = (t: Omit<WalByTable, 'table'>, name: string) =>
    `  ${[t.records, t.heap + t.indexes + t.toast, t.heap, t.indexes, t.toast].map((v) => fmt(v / accounts).padStart(9)).join(' ')}  ${name}`;
  const rest = list.slice(15);
  return [
    title,
    `  ${cols.map((c) => c.padStart(9)).join(' ')}  table`,
    ...list.slice(0, 15).map((t) => line(t, t.table)),
    ...(rest.length > 0 ? [line(sum(rest), `${rest.length} other tables`)] : []),
    line(sum(list), 'all'),
  ];
}

/** The table for a CI log: a column per run (per account) and per number of processes (per delivery). */
export function costTable(report: { postgres: string; runs: CostRun[] }): string {
  const cols = columns(report.runs);
  const label = 24;
  const w = 11;
  const row = (name: string, cells: string[]) =>
    `${name.padEnd(label)}${cells.map((c) => c.padStart(w)).join('')}`;
  const accounts = report.runs[0]?.accounts ?? 0;
  const lines = [
    `What an account costs: ${accounts.toLocaleString('en')} accounts a run through the bulk path, PostgreSQL ${report.postgres} (a private cluster);`,
    'per account, and per webhook delivery (the run with an endpoint less the one without, over its deliveries)',
    row(
      '',
      cols.map((c) => c.head[0]),
    ),
    row(
      '',
      cols.map((c) => c.head[1]),
    ),
    row(
      'push s',
      cols.map((c) => c.extra[0]),
    ),
    row(
      'accounts/s',
      cols.map((c) => c.extra[1]),
    ),
    row(
      'deliveries',
      cols.map((c) => c.extra[2]),
    ),
    '-'.repeat(label + w * cols.length),
    ...METRICS.map(([k, name]) =>
      row(
        name,
        cols.map((c) => fmt(c.figures[k])),
      ),
    ),
  ];
  for (const r of report.runs) {
    const which = `${r.processes} process${r.processes === 1 ? '' : 'es'}, ${r.webhooks ? 'webhooks' : 'no webhooks'}`;
    lines.push(
      '',
      ...statements(`Top 10 statements by calls (${which}):`, r.byCalls, r.accounts),
      ...statements(`Top 10 statements by shared buffers (${which}):`, r.byBuffers, r.accounts),
      ...statements(
        `Top 10 statements by execution time (${which}; wall time, waits included):`,
        r.byTime,
        r.accounts,
      ),
      ...tables(`Rows written per account, by table (${which}; size at the end):`, r.tables, r.accounts),
      ...(r.failed.length > 0
        ? [
            `Failed webhook attempts (${which}): ${r.failed.map((f) => `${f.attempts} × ${f.why}`).join('; ')}`,
          ]
        : []),
      ...walTypes(
        `WAL per account by record type (${which}; pg_waldump, bytes with full pages):`,
        r.wal,
        r.accounts,
      ),
      ...walTables(
        `WAL per account by table (${which}; pg_waldump, bytes with full pages; a table's indexes and TOAST with it):`,
        r.walByTable,
        r.accounts,
      ),
    );
  }
  return lines.join('\n');
}

/** The figures as `--json` writes them: totals, per account, per delivery, and the statements. */
export function costJson(report: { postgres: string; runs: CostRun[] }) {
  return {
    postgres: report.postgres,
    runs: report.runs.map((r) => ({ ...r, per_account: per(r.counts, r.accounts) })),
    per_delivery: [...new Set(report.runs.map((r) => r.processes))].flatMap((n) => {
      const d = perDelivery(report.runs, n);
      return d ? [{ processes: n, ...d }] : [];
    }),
  };
}
