import pg from 'pg';
import type { Db, ListenHandlers, Queryable, QueryResult, Sql } from './db.ts';

// int8 as strings: ids and counts stay exact beyond 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);

export interface PgDbOptions {
  connectionString: string;
  /** When set, every connection uses this schema (tests use one schema per file). */
  schema?: string;
  max?: number;
  /**
   * PostgreSQL's statement_timeout on every pooled connection (REQUEST_TIMEOUT_MS in the
   * services); unset, no limit. A client-side read timeout a little longer backs it up for a
   * network that stalls, where the server's cancel never arrives.
   */
  statementTimeoutMs?: number;
  /** How long a query waits for a pooled connection (or a new one to open). */
  connectionTimeoutMs?: number;
  /** How often the LISTEN connection is asked `SELECT 1`; it must answer within as long. */
  listenHeartbeatMs?: number;
}

const RELISTEN_MS = 1_000;
const DEFAULT_HEARTBEAT_MS = 5_000;
/** How much longer than the statement timeout a query may wait for an answer at all. */
const READ_TIMEOUT_GRACE_MS = 2_000;
/** TCP keepalive: a peer that vanished (host down, cable cut) is noticed by the kernel. */
const KEEPALIVE = { keepAlive: true, keepAliveInitialDelayMillis: 10_000 } as const;

/** node-postgres's client-side read timeout: the connection may be mid-query, so it is dropped. */
const isReadTimeout = (err: unknown) => err instanceof Error && err.message === 'Query read timeout';

/**
 * Every LISTEN of one database on one dedicated connection (a pooled one would be handed to
 * other queries). When it drops, every subscriber hears `onLive(false)`, and the connection is
 * re-opened every second until it listens on all their channels again. Subscribing and
 * unsubscribing run one at a time, so a channel is never missed between them and a reconnect.
 * A connection can also die silently (a stateful firewall or NAT forgetting it, a partition):
 * nothing arrives, not even an error. So it is asked `SELECT 1` every heartbeatMs and must
 * answer within as long, or it counts as lost; TCP keepalive covers a peer that vanished.
 */
function notificationListener(connection: pg.ClientConfig, heartbeatMs: number) {
  const subscribers = new Map<string, Set<ListenHandlers>>();
  let client: pg.Client | null = null;
  let live = false;
  let retry: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
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
    clearTimeout(heartbeat);
    // With a query in flight (a heartbeat unanswered), end() destroys the socket at once.
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
    beat(c);
  };
  const beat = (c: pg.Client) => {
    heartbeat = setTimeout(async () => {
      if (client !== c) return;
      try {
        await c.query({ text: 'SELECT 1', query_timeout: heartbeatMs } as pg.QueryConfig);
      } catch {
        lost(c);
        return;
      }
      if (client === c) beat(c);
    }, heartbeatMs);
    heartbeat.unref();
  };

  const unsubscribe = (channel: string, handlers: ListenHandlers) =>
    serially(async () => {
      const set = subscribers.get(channel);
      if (!set?.delete(handlers) || set.size > 0) return;
      subscribers.delete(channel);
      if (subscribers.size === 0) {
        clearTimeout(retry);
        clearTimeout(heartbeat);
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
    connectionTimeoutMillis: opts.connectionTimeoutMs ?? 5_000,
    options: opts.schema ? `-c search_path=${opts.schema}` : undefined,
    ...KEEPALIVE,
  };
  const pool = new pg.Pool({
    ...connection,
    application_name: 'ferry',
    statement_timeout: opts.statementTimeoutMs,
    query_timeout: opts.statementTimeoutMs && opts.statementTimeoutMs + READ_TIMEOUT_GRACE_MS,
    max: opts.max ?? 10,
    idleTimeoutMillis: 30_000,
  });
  const notifications = notificationListener(
    { ...connection, application_name: 'ferry-listen' },
    opts.listenHeartbeatMs ?? DEFAULT_HEARTBEAT_MS,
  );
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', () => {});

  // Sql.genericPlan (decision 0109): in the caller's transaction the setting holds for the one
  // statement, then goes back to the connection's own (its value at connect); a statement that
  // fails aborts the transaction, whose rollback (or rollback to a savepoint) undoes it. Outside
  // one, the statement gets a transaction of its own, begun with the setting in one round trip.
  const FORCE_GENERIC = 'SET LOCAL plan_cache_mode = force_generic_plan';
  const BACK_TO_DEFAULT = 'SET LOCAL plan_cache_mode = DEFAULT';
  const run = async <R>(q: pg.Pool | pg.PoolClient, s: Sql, params: unknown[]): Promise<QueryResult<R>> => {
    const name = s.planEachCall ? undefined : s.name || undefined;
    const res = await q.query({ name, text: s.text, values: params });
    return { rows: res.rows as R[], rowCount: res.rowCount ?? res.rows.length };
  };
  const wrap = (q: pg.Pool | pg.PoolClient, inTransaction: boolean): Queryable => ({
    async query<R>(s: Sql, params: unknown[] = []): Promise<QueryResult<R>> {
      if (!s.genericPlan) return run<R>(q, s, params);
      if (!inTransaction)
        return inTransactionOf(`BEGIN; ${FORCE_GENERIC}`, (client) => run<R>(client, s, params));
      await q.query(FORCE_GENERIC);
      const res = await run<R>(q, s, params);
      await q.query(BACK_TO_DEFAULT);
      return res;
    },
    async exec(script: string) {
      await q.query(script);
    },
  });
  const root = wrap(pool, false);

  /** fn on a connection of its own, in a transaction begun by `begin`. */
  async function inTransactionOf<T>(begin: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    // A connection lost while checked out also emits 'error' on the client (the pool listens
    // only to idle ones); unheard, that would crash the process. The failed query says it too.
    const lostWhileHeld = () => {};
    client.on('error', lostWhileHeld);
    let broken = false;
    try {
      await client.query(begin);
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      // A connection that stopped answering is dropped, not asked to roll back.
      broken = isReadTimeout(err);
      if (!broken) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
      }
      throw err;
    } finally {
      client.removeListener('error', lostWhileHeld);
      client.release(broken);
    }
  }

  return {
    kind: 'postgres',
    ...root,
    transaction: (fn) => inTransactionOf('BEGIN', (client) => fn(wrap(client, true))),
    listen: (channel, handlers) => notifications.subscribe(channel, handlers),
    async close() {
      await notifications.close();
      await pool.end();
    },
  };
}
