import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Db } from '../../src/infra/db/db.ts';
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

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or, when DATABASE_URL is
 * set, a schema of its own on that server (dropped at cleanup), so parallel files never collide.
 */
export async function createTestDb(opts: { poolSize?: number; migrateTo?: number } = {}): Promise<TestDb> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = await openPgliteDb(null);
    await migrate(db, opts.migrateTo);
    return { db, cleanup: () => db.close() };
  }
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = await openPgDb({ connectionString: url, schema, max: opts.poolSize ?? 5 });
  await migrate(db, opts.migrateTo);
  return {
    db,
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
