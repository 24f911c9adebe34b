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
 * Every LISTEN of one database on one dedicated connection (a pooled one would be handed to
 * other queries). When it drops, every subscriber hears `onLive(false)`, and the connection is
 * re-opened every second until it listens on all their channels again. Subscribing and
 * unsubscribing run one at a time, so a channel is never missed between them and a reconnect.
 */
function notificationListener(connection: pg.ClientConfig) {
  const subscribers = new Map<string, Set<ListenHandlers>>();
  let client: pg.Client | null = null;
  let live = false;
  let retry: NodeJS.Timeout | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn);
    queue = run.catch(() => {});
    return run;
  };
  const everyone = (fn: (h: ListenHandlers) => void) => {
    for (const set of subscribers.values()) for (const h of set) fn(h);
  };

  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    live = false;
    c.end().catch(() => {});
    if (subscribers.size === 0) return;
    everyone((h) => h.onLive(false));
    retry = setTimeout(() => void serially(open), RELISTEN_MS);
    retry.unref();
  };
  /** Connects and listens on every channel subscribed; a failure counts as a lost connection. */
  const open = async () => {
    if (client || subscribers.size === 0) return;
    const c = new pg.Client(connection);
    client = c;
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    c.on('notification', (n) => {
      for (const h of subscribers.get(n.channel) ?? []) h.onMessage(n.payload ?? '');
    });
    try {
      await c.connect();
      for (const channel of subscribers.keys()) await c.query(`LISTEN ${channel}`);
    } catch {
      lost(c);
      return;
    }
    if (client !== c) return;
    live = true;
    everyone((h) => h.onLive(true));
  };

  const unsubscribe = (channel: string, handlers: ListenHandlers) =>
    serially(async () => {
      const set = subscribers.get(channel);
      if (!set?.delete(handlers) || set.size > 0) return;
      subscribers.delete(channel);
      if (subscribers.size === 0) {
        clearTimeout(retry);
        const c = client;
        client = null;
        live = false;
        await c?.end().catch(() => {});
      } else if (live) await client?.query(`UNLISTEN ${channel}`).catch(() => {});
    });

  return {
    subscribe(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>> {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name: ${channel}`);
      return serially(async () => {
        const known = subscribers.has(channel);
        const set = subscribers.get(channel) ?? new Set();
        set.add(handlers);
        subscribers.set(channel, set);
        if (!client) await open();
        else if (live) {
          if (!known) await client.query(`LISTEN ${channel}`).catch(() => {});
          if (live) handlers.onLive(true);
        }
        // Not live (the connection failed): lost() has said so, and its reconnect listens here too.
        return () => unsubscribe(channel, handlers);
      });
    },
    async close() {
      await Promise.all(
        [...subscribers].flatMap(([channel, set]) => [...set].map((h) => unsubscribe(channel, h))),
      );
    },
  };
}

export async function openPgDb(opts: PgDbOptions): Promise<Db> {
  const connection: pg.ClientConfig = {
    connectionString: opts.connectionString,
    connectionTimeoutMillis: 5_000,
    options: opts.schema ? `-c search_path=${opts.schema}` : undefined,
  };
  const pool = new pg.Pool({ ...connection, max: opts.max ?? 10, idleTimeoutMillis: 30_000 });
  const notifications = notificationListener(connection);
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
    listen: (channel, handlers) => notifications.subscribe(channel, handlers),
    async close() {
      await notifications.close();
      await pool.end();
    },
  };
}
