import pino from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { startWorker } from './account-import/queue/worker.ts';
import { startMailSenderFromConfig } from './accounts/welcome-emails/start-mail-sender.ts';
import { ReferenceCache } from './catalogue/reference-cache.ts';
import type { FerryConfig } from './config.ts';
import { startWebhooks, webhookSettings } from './events/webhooks/start-webhooks.ts';
import { serveMetrics } from './http/metrics.ts';
import { migrate } from './infra/db/migrate.ts';
import { openDb } from './infra/db/open-db.ts';
import { loggerOptions } from './infra/logging.ts';

/**
 * `ferry worker`: one account-creation worker without the API, webhook fan-out and delivery, and
 * the outbox's mail sender when SMTP_URL is set; SIGTERM/SIGINT stop them cleanly. With
 * METRICS_PORT it serves its own /metrics (the batch latency, process and webhook metrics; the
 * migration's counts are the API's, decision 0044).
 */
export async function runWorkerProcess(config: FerryConfig): Promise<void> {
  const logger = pino(loggerOptions(config.logLevel));
  const webhooksSettings = webhookSettings(process.env);
  const db = await openDb(config);
  await migrate(db);
  const metrics = new Registry();
  collectDefaultMetrics({ register: metrics });
  const metricsServer =
    config.metricsPort === null
      ? null
      : await serveMetrics(metrics, {
          port: config.metricsPort,
          host: config.host,
          token: config.metricsToken,
        });
  const webhooks = startWebhooks(webhooksSettings, { db, logger, metrics });
  // The worker checks each account against the catalogue again at creation (decision 0091).
  const reference = await ReferenceCache.open(db, {
    timeZone: config.serviceTimezone,
    onError: (err) => logger.error({ err }, 'reloading the reference data failed'),
  });
  const worker = startWorker(config, { db, logger, metrics, onSettled: () => webhooks.eventsCommitted() });
  const mailSender = startMailSenderFromConfig(config, { db, logger });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    await Promise.all([worker.stop(), mailSender?.stop(), webhooks.stop()]);
    await reference.close();
    metricsServer?.close();
    await db.close();
    // One line once everything has stopped: the work in hand finished, its leases handed back.
    logger.info({ signal }, 'worker stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
