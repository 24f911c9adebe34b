import pino from 'pino';
import type { FerryConfig } from './config.ts';
import { migrate } from './infra/db/migrate.ts';
import { openDb } from './infra/db/open-db.ts';
import { startWorkers } from './worker.ts';

/** `ferry worker`: account-creation workers without the API; SIGTERM/SIGINT stop them cleanly. */
export async function runWorkerProcess(config: FerryConfig): Promise<void> {
  const logger = pino({ level: config.logLevel });
  const db = await openDb(config);
  await migrate(db);
  const workers = startWorkers(config, { db, logger });
  const stop = async () => {
    await workers.stop();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}
