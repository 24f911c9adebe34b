import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Db, sql } from '../../src/infra/db/db.ts';
import { migrate } from '../../src/infra/db/migrate.ts';
import { openPgDb } from '../../src/infra/db/pg-db.ts';
import { openPgliteDb } from '../../src/infra/db/pglite-db.ts';

export interface TestDb {
  db: Db;
  /** On a server: a connection string whose connections use this test's schema. */
  url?: string;
  /** Closes the database and drops what the test created. */
  cleanup(): Promise<void>;
}

export const usingPostgresServer = () => Boolean(process.env.DATABASE_URL);

export interface FreshDbOptions {
  /** A PostgreSQL server to make a schema on; absent or empty: an in-memory PGlite. */
  url?: string;
  /** Start of the schema's name, before a random suffix. */
  schemaPrefix?: string;
  poolSize?: number;
  migrateTo?: number;
}

/**
 * A fresh, migrated database: an in-memory PGlite, or a schema of its own on the server at `url`
 * (dropped at cleanup), so that parallel users of one server never collide.
 */
export async function createFreshDb(opts: FreshDbOptions = {}): Promise<TestDb & { schema?: string }> {
  const { url } = opts;
  if (!url) {
    const db = await openPgliteDb(null);
    await migrate(db, opts.migrateTo);
    return { db, cleanup: () => db.close() };
  }
  const schema = `${opts.schemaPrefix ?? 'test'}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = await openPgDb({ connectionString: url, schema, max: opts.poolSize ?? 5 });
  await migrate(db, opts.migrateTo);
  return {
    db,
    schema,
    url: `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    async cleanup() {
      await db.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}

/** A fresh database for one test file: PGlite, or a schema on DATABASE_URL's server when it is set. */
export async function createTestDb(opts: { poolSize?: number; migrateTo?: number } = {}): Promise<TestDb> {
  return createFreshDb({ ...opts, url: process.env.DATABASE_URL });
}

/**
 * Waits until every transaction that had begun when it was called has ended, so the event feed
 * (decision 0071) can read everything committed before the call. On a shared PostgreSQL server the
 * feed's horizon is the whole server's oldest running transaction: another test file's transaction
 * holds it back for a moment, which a reader in production sees only as latency.
 */
export async function feedSettled(db: Db, timeoutMs = 60_000): Promise<void> {
  const next = (
    await db.query<{ x: string }>(sql('', 'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x'))
  ).rows[0].x;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query<{ settled: boolean }>(
      sql('', 'SELECT pg_snapshot_xmin(pg_current_snapshot()) >= $1::xid8 AS settled'),
      [next],
    );
    if (rows[0].settled) return;
    if (Date.now() > deadline)
      throw new Error(`transactions begun before ${next} still running after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
