import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FerryConfig } from '../../config.ts';
import type { Db } from './db.ts';
import { openPgDb } from './pg-db.ts';
import { openPgliteDb } from './pglite-db.ts';

/** The database named by the configuration: a PostgreSQL server, else PGlite in DATA_DIR. */
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
  return openPgliteDb(join(config.dataDir, 'pglite'));
}
