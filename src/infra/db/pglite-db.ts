import { PGlite } from '@electric-sql/pglite';
import type { Db, ListenHandlers, Queryable, QueryResult, Sql } from './db.ts';

/** PGlite is one connection: its own transaction() serialises access, which is all we need. */
export async function openPgliteDb(dataDir: string | null): Promise<Db> {
  const pg = dataDir === null ? new PGlite() : new PGlite(dataDir);
  await pg.waitReady;

  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<R>(s: Sql, params: unknown[] = []): Promise<QueryResult<R>> {
      const res = await q.query<R>(s.text, params);
      // affectedRows is 0 for a SELECT; rows.length is 0 for DML without RETURNING.
      return { rows: res.rows, rowCount: Math.max(res.affectedRows ?? 0, res.rows.length) };
    },
    async exec(script: string) {
      await q.exec(script);
    },
  });
  const root = wrap(pg);

  return {
    kind: 'pglite',
    ...root,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    // In-process: nothing can be lost between NOTIFY and the callback.
    async listen(channel: string, handlers: ListenHandlers) {
      const unlisten = await pg.listen(channel, handlers.onMessage);
      handlers.onLive(true);
      return () => unlisten();
    },
    close: () => pg.close(),
  };
}
