/**
 * What PostgreSQL itself counted of a measured push (bench/cost.ts): pg_stat_statements for the
 * statements, their rows, buffers and WAL; pg_stat_database for the rows written and the
 * transactions; pg_stat_wal for the WAL of the whole cluster (autovacuum's and the checkpointer's
 * included, as in production). Ferry connects as its own role, so the bench's own statements are
 * told apart in pg_stat_statements; in pg_stat_database they are counted and taken off.
 */
import pg from 'pg';

/** The role Ferry's processes connect as; the bench's own connections are `postgres`. */
export const FERRY_ROLE = 'ferry';

export interface Counts {
  statements: number;
  rows: number;
  rows_written: number;
  wal_bytes: number;
  wal_records: number;
  wal_fpi: number;
  buffers: number;
  transactions: number;
  pg_cpu_us: number;
  api_cpu_us: number;
  worker_cpu_us: number;
  push_cpu_us: number;
}

export interface Statement {
  query: string;
  calls: number;
  rows: number;
  buffers: number;
  wal_bytes: number;
  /** Its execution time in all, ms (pg_stat_statements' total_exec_time: wall time, waits included). */
  exec_ms: number;
  /** How many times the server planned it (a prepared statement kept on a generic plan is not planned again). */
  plans: number;
  /** Its planning time in all, ms. */
  plan_ms: number;
}

/** What was written to one table, and what it holds at the end (heap, TOAST and indexes). */
export interface TableWrites {
  table: string;
  inserted: number;
  updated: number;
  /** Of the updates, those that wrote no index entry (heap-only tuples). */
  hot: number;
  deleted: number;
  indexes: number;
  bytes: number;
}

/**
 * The tables written most, read in the measured database itself (its own statistics view) once
 * every session has flushed: a run's rows written, table by table.
 */
export const readTableWrites = (url: string) =>
  queryOnce<TableWrites>(
    url,
    `SELECT t.relname AS table, t.n_tup_ins::float8 AS inserted, t.n_tup_upd::float8 AS updated,
            t.n_tup_hot_upd::float8 AS hot, t.n_tup_del::float8 AS deleted,
            (SELECT count(*) FROM pg_index i WHERE i.indrelid = t.relid)::int AS indexes,
            pg_total_relation_size(t.relid)::float8 AS bytes
       FROM pg_stat_user_tables t
      WHERE t.n_tup_ins + t.n_tup_upd + t.n_tup_del > 0
      ORDER BY t.n_tup_ins + t.n_tup_upd + t.n_tup_del DESC, t.relname LIMIT 20`,
  );

/** What one table's changes wrote to the WAL in a run: its heap, its indexes, its TOAST (and the TOAST's index). */
export interface WalByTable {
  table: string;
  records: number;
  heap: number;
  indexes: number;
  toast: number;
}

/** A relation's share of a run's WAL: records and bytes with full pages (bench/cost-cluster.ts). */
export interface WalShare {
  records: number;
  bytes: number;
}

/**
 * A run's WAL by the table each record changed, the most first: `shares` are keyed by
 * `<database oid>/<relfilenode>` as pg_waldump names a relation, and are named here from the
 * measured database's catalogue, an index and a TOAST table under the table they belong to. A
 * record of no relation of this database (a commit, a shared catalogue) counts as `(none)`.
 */
export async function readWalByTable(url: string, shares: Map<string, WalShare>): Promise<WalByTable[]> {
  const relations = await queryOnce<{ key: string; table: string; part: 'heap' | 'indexes' | 'toast' }>(
    url,
    `SELECT (SELECT oid FROM pg_database WHERE datname = current_database()) || '/' || pg_relation_filenode(c.oid) AS key,
            coalesce(o.relname, b.relname) AS table,
            CASE WHEN o.oid IS NOT NULL THEN 'toast' WHEN c.relkind = 'i' THEN 'indexes' ELSE 'heap' END AS part
       FROM pg_class c
       LEFT JOIN pg_index i ON i.indexrelid = c.oid
       JOIN pg_class b ON b.oid = coalesce(i.indrelid, c.oid)
       LEFT JOIN pg_class o ON o.reltoastrelid = b.oid
      WHERE pg_relation_filenode(c.oid) IS NOT NULL`,
  );
  const named = new Map(relations.map((r) => [r.key, r]));
  const out = new Map<string, WalByTable>();
  for (const [key, share] of shares) {
    const r = named.get(key);
    const table = r?.table ?? '(none)';
    const t = out.get(table) ?? { table, records: 0, heap: 0, indexes: 0, toast: 0 };
    t.records += share.records;
    t[r?.part ?? 'heap'] += share.bytes;
    out.set(table, t);
  }
  const bytes = (t: WalByTable) => t.heap + t.indexes + t.toast;
  return [...out.values()].sort((a, b) => bytes(b) - bytes(a));
}

/** One query on a connection of its own to the measured database, closed after it. */
async function queryOnce<R>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as R[];
  } finally {
    await client.end();
  }
}

/** Whether webhook_delivery_attempts row `a` failed: an error, or an answer other than 2xx. */
export const isFailedAttempt = (a: string) =>
  `(${a}.error IS NOT NULL OR ${a}.status_code NOT BETWEEN 200 AND 299)`;
/** Why attempt `a` failed: its error, else its status. */
export const failedAttemptWhy = (a: string) => `coalesce(${a}.error, 'HTTP ' || ${a}.status_code)`;

export interface FailedAttempts {
  why: string;
  attempts: number;
}

/**
 * The webhook attempts that failed, by reason (the receiver's status, or the poster's error):
 * each is an attempt row, a retry after a backoff and a look whether to disable the endpoint, so
 * a run with failures counts work a healthy receiver would not cause.
 */
export const readFailedAttempts = (url: string) =>
  queryOnce<FailedAttempts>(
    url,
    `SELECT ${failedAttemptWhy('a')} AS why, count(*)::int AS attempts
       FROM webhook_delivery_attempts a
      WHERE ${isFailedAttempt('a')}
      GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 5`,
  );

/** A connection of the bench's own to the measured database, counting the transactions it commits there. */
export class Probe {
  private client: pg.Client;
  transactions = 0;
  constructor(url: string) {
    this.client = new pg.Client({ connectionString: url });
  }
  async connect() {
    await this.client.connect();
    return this;
  }
  async query<R>(text: string, params: unknown[] = []): Promise<R[]> {
    this.transactions++;
    return (await this.client.query(text, params)).rows as R[];
  }
  /** Ends the session, which flushes its statistics (a live backend flushes at most once a second). */
  async end() {
    await this.client.end();
  }
}

/**
 * Zeroes every counter the count reads: a checkpoint first, so that every run starts with the
 * same pages to log whole after it (the first change to a page after a checkpoint writes all of it).
 */
export async function resetStats(probe: Probe): Promise<void> {
  await probe.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await probe.query('CHECKPOINT');
  await probe.query(`SELECT pg_stat_statements_reset(), pg_stat_reset(), pg_stat_reset_shared('wal')`);
}

const byRole = `FROM pg_stat_statements s
  JOIN pg_database d ON d.oid = s.dbid JOIN pg_roles r ON r.oid = s.userid
 WHERE d.datname = $1 AND r.rolname = '${FERRY_ROLE}' AND s.toplevel`;
const blocks = 's.shared_blks_hit + s.shared_blks_read + s.shared_blks_dirtied + s.shared_blks_written';

/**
 * The counts since the reset, read on `admin` (a session on another database) once Ferry's
 * sessions and the probe's have ended; `probeTransactions` are the probe's, taken off.
 */
export async function readCounts(
  admin: pg.Client,
  database: string,
  probeTransactions: number,
): Promise<{
  counts: Omit<Counts, `${string}_cpu_us`>;
  byCalls: Statement[];
  byBuffers: Statement[];
  byTime: Statement[];
}> {
  const [st] = (
    await admin.query(
      `SELECT coalesce(sum(s.calls), 0)::float8 AS statements, coalesce(sum(s.rows), 0)::float8 AS rows,
              coalesce(sum(${blocks}), 0)::float8 AS buffers ${byRole}`,
      [database],
    )
  ).rows;
  const [db] = (
    await admin.query(
      `SELECT xact_commit::float8 AS transactions,
              (tup_inserted + tup_updated + tup_deleted)::float8 AS rows_written
         FROM pg_stat_database WHERE datname = $1`,
      [database],
    )
  ).rows;
  const [wal] = (
    await admin.query('SELECT wal_records::float8, wal_fpi::float8, wal_bytes::float8 FROM pg_stat_wal')
  ).rows;
  const top = async (order: string) =>
    (
      await admin.query(
        `SELECT left(regexp_replace(s.query, '\\s+', ' ', 'g'), 80) AS query, s.calls::float8 AS calls,
                s.rows::float8 AS rows, (${blocks})::float8 AS buffers, s.wal_bytes::float8 AS wal_bytes,
                s.total_exec_time::float8 AS exec_ms, s.plans::float8 AS plans, s.total_plan_time::float8 AS plan_ms
           ${byRole} ORDER BY ${order} DESC LIMIT 10`,
        [database],
      )
    ).rows as Statement[];
  return {
    counts: {
      statements: st.statements,
      rows: st.rows,
      rows_written: db.rows_written,
      wal_bytes: wal.wal_bytes,
      wal_records: wal.wal_records,
      wal_fpi: wal.wal_fpi,
      buffers: st.buffers,
      transactions: db.transactions - probeTransactions,
    },
    byCalls: await top('s.calls'),
    byBuffers: await top(blocks),
    byTime: await top('s.total_exec_time'),
  };
}

/** Waits until no session of Ferry's role is left, so that every one has flushed its statistics. */
export async function ferrySessionsEnded(admin: pg.Client, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    const { rows } = await admin.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = '${FERRY_ROLE}'`,
    );
    if (rows[0].n === 0) return;
    if (Date.now() > until) throw new Error(`${rows[0].n} sessions of Ferry still open after ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
