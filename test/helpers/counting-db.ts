import type { Db, Queryable } from '../../src/infra/db/db.ts';

/**
 * A database that counts the statements run on it (in transactions too) by name, '' for unnamed
 * ones; with `releaseFails`, releasing a LISTEN releases it and then throws, as when the
 * connection has gone.
 */
export function countingDb(db: Db, opts: { releaseFails?: boolean } = {}) {
  const calls = new Map<string, number>();
  const counted = (q: Queryable): Queryable => ({
    query: (s, params) => {
      calls.set(s.name, (calls.get(s.name) ?? 0) + 1);
      return q.query(s, params);
    },
    exec: (script) => q.exec(script),
  });
  const wrapped: Db = {
    kind: db.kind,
    ...counted(db),
    transaction: (fn) => db.transaction((tx) => fn(counted(tx))),
    async listen(channel, handlers) {
      const release = await db.listen(channel, handlers);
      if (!opts.releaseFails) return release;
      return async () => {
        await release();
        throw new Error('the connection was lost');
      };
    },
    close: () => db.close(),
  };
  return {
    db: wrapped,
    /** Statements run so far: of this name, or all of them. */
    calls: (name?: string) =>
      name === undefined ? [...calls.values()].reduce((a, b) => a + b, 0) : (calls.get(name) ?? 0),
  };
}
