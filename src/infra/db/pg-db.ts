import pg from 'pg';
import type { Db, ListenHandlers, Queryable, QueryResult, Sql } from './db.ts';

// int8 as strings: ids and counts stay exact beyond 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);

export interface PgDbOptions {
  connectionString: string;
  /** When set, every connection uses this schema (tests use one schema per file). */
  schema?: string;
  max?: number;
}

const RELISTEN_MS = 1_000;

/**
 * LISTEN on a dedicated connection (a pooled one would be handed to other queries). When it
 * drops, the subscriber hears `onLive(false)` and the connection is re-opened every second
 * until it listens again.
 */
function listenOn(
  connection: pg.ClientConfig,
  channel: string,
  handlers: ListenHandlers,
): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name: ${channel}`);
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    c.end().catch(() => {});
    if (stopped) return;
    handlers.onLive(false);
    retry = setTimeout(() => void open().catch(() => {}), RELISTEN_MS);
    retry.unref();
  };
  const open = async () => {
    const c = new pg.Client(connection);
    client = c;
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    c.on('notification', (n) => {
      if (n.channel === channel) handlers.onMessage(n.payload ?? '');
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (err) {
      lost(c);
      throw err;
    }
    if (client === c && !stopped) handlers.onLive(true);
  };

  // A first connection that fails is retried like a lost one; the subscriber hears onLive(false).
  return open()
    .catch(() => {})
    .then(() => async () => {
      stopped = true;
      clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    });
}

export async function openPgDb(opts: PgDbOptions): Promise<Db> {
  const connection: pg.ClientConfig = {
    connectionString: opts.connectionString,
    connectionTimeoutMillis: 5_000,
    options: opts.schema ? `-c search_path=${opts.schema}` : undefined,
  };
  const pool = new pg.Pool({ ...connection, max: opts.max ?? 10, idleTimeoutMillis: 30_000 });
  const listeners = new Set<() => Promise<void>>();
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
    async listen(channel, handlers) {
      const stop = await listenOn(connection, channel, handlers);
      const unsubscribe = async () => {
        listeners.delete(unsubscribe);
        await stop();
      };
      listeners.add(unsubscribe);
      return unsubscribe;
    },
    async close() {
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
  };
}
