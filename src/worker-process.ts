import pino from 'pino';
import { startWorker } from './account-import/queue/worker.ts';
import { startMailSenderFromConfig } from './accounts/welcome-emails/start-mail-sender.ts';
import type { FerryConfig } from './config.ts';
import { migrate } from './infra/db/migrate.ts';
import { openDb } from './infra/db/open-db.ts';

/**
 * `ferry worker`: one account-creation worker without the API, and the outbox's mail sender when
 * SMTP_URL is set; SIGTERM/SIGINT stop them cleanly.
 */
export async function runWorkerProcess(config: FerryConfig): Promise<void> {
  const logger = pino({ level: config.logLevel });
  const db = await openDb(config);
  await migrate(db);
  const worker = startWorker(config, { db, logger });
  const mailSender = startMailSenderFromConfig(config, { db, logger });
  const stop = async () => {
    await Promise.all([worker.stop(), mailSender?.stop()]);
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}
