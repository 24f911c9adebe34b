import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FerryConfig } from '../../config.ts';
import { lockDataDir } from './data-dir-lock.ts';
import type { Db } from './db.ts';
import { openPgDb } from './pg-db.ts';
import { openPgliteDb } from './pglite-db.ts';

/**
 * The database named by the configuration: a PostgreSQL server, else PGlite in DATA_DIR, held
 * by this process alone (data-dir-lock.ts) until it is closed.
 */
export async function openDb(
  config: Pick<FerryConfig, 'databaseUrl' | 'dataDir' | 'requestTimeoutMs' | 'listenHeartbeatMs'>,
  poolSize?: number,
): Promise<Db> {
  if (config.databaseUrl) {
    return openPgDb({
      connectionString: config.databaseUrl,
      max: poolSize,
      statementTimeoutMs: config.requestTimeoutMs,
      listenHeartbeatMs: config.listenHeartbeatMs,
    });
  }
  mkdirSync(config.dataDir, { recursive: true });
  const lock = await lockDataDir(config.dataDir);
  let db: Db;
  try {
    db = await openPgliteDb(join(config.dataDir, 'pglite'));
  } catch (err) {
    lock.release();
    throw err;
  }
  return {
    ...db,
    async close() {
      try {
        await db.close();
      } finally {
        lock.release();
      }
    },
  };
}
