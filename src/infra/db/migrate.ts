import { fileURLToPath } from 'node:url';
import Postgrator from 'postgrator';
import { type Db, sql } from './db.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));
// Any constant: serialises concurrent migrators (several servers starting) on one database.
const MIGRATION_LOCK_ID = 727_001;

/**
 * Applies pending forward-only migrations in one transaction, so a failing migration leaves
 * nothing half-applied. Throws on failure (never logs and carries on). Returns the versions applied.
 * `target` stops at that version (tests of a migration's effect on older data).
 */
export async function migrate(db: Db, target?: number): Promise<number[]> {
  return db.transaction(async (tx) => {
    // Migrations (and waiting for another migrator) may outlast the per-request statement timeout.
    await tx.exec('SET LOCAL statement_timeout = 0');
    await tx.query(sql('migrateLock', 'SELECT pg_advisory_xact_lock($1)'), [MIGRATION_LOCK_ID]);
    // The connection's schema (search_path), so a database URL with `options=-c search_path=x` works.
    const schema = (await tx.query<{ s: string }>(sql('currentSchema', 'SELECT current_schema() AS s')))
      .rows[0].s;
    const postgrator = new Postgrator({
      migrationPattern: `${MIGRATIONS_DIR}/*.sql`,
      driver: 'pg',
      schemaTable: 'schemaversion',
      currentSchema: schema,
      execQuery: async (query: string) => ({ rows: (await tx.query(sql('', query))).rows }),
      execSqlScript: (script: string) => tx.exec(script),
    });
    const applied = await postgrator.migrate(target === undefined ? 'max' : String(target));
    return applied.map((m) => m.version);
  });
}
