import pg from 'pg';
import type { Db, Queryable, QueryResult, Sql } from './db.ts';

// int8 as strings: ids and counts stay exact beyond 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);

export interface PgDbOptions {
  connectionString: string;
  /** When set, every connection uses this schema (tests use one schema per file). */
  schema?: string;
  max?: number;
}

export async function openPgDb(opts: PgDbOptions): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: opts.connectionString,
    max: opts.max ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    options: opts.schema ? `-c search_path=${opts.schema}` : undefined,
  });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', () => {});

  const wrap = (q: pg.Pool | pg.PoolClient): Queryable => ({
    async query<R>(s: Sql, params: unknown[] = []): Promise<QueryResult<R>> {
      const res = await q.query({ name: s.name || undefined, text: s.text, values: params });
      return { rows: res.rows as R[], rowCount: res.rowCount ?? res.rows.length };
    },
    async exec(script: string) {
      await q.query(script);
    },
  });
  const root = wrap(pool);

  return {
    kind: 'postgres',
    ...root,
    async transaction(fn) {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        throw err;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
