import { Registry } from 'prom-client';
import { startWorker } from './account-import/queue/worker.ts';
import { prepareAccountChecks } from './accounts/account-checks.ts';
import { startMailSenderFromConfig } from './accounts/welcome-emails/start-mail-sender.ts';
import { buildApp } from './app.ts';
import { resolveOperatorKey } from './auth/operator-key.ts';
import type { FerryConfig } from './config.ts';
import { startWebhooks, webhookSettings } from './events/webhooks/start-webhooks.ts';
import { migrate } from './infra/db/migrate.ts';
import { openDb } from './infra/db/open-db.ts';
import { loggerOptions } from './infra/logging.ts';
import { ensurePortFree, PortInUseError } from './infra/port-check.ts';
import { openObjectStore } from './infra/storage/open-object-store.ts';
import { createPaymentVendors } from './infra/vendors/vendor-registry.ts';

/**
 * `ferry serve`: checks the port is free, migrates, then listens; with `withWorker` an in-process
 * worker, webhook delivery (and, with SMTP_URL, the mail sender) run too, started once the port
 * is ours. A port in use fails before anything is created (DATA_DIR, database, operator key); a
 * failed listen closes everything and throws (the CLI exits non-zero).
 * SIGTERM/SIGINT stop it gracefully: in-flight requests finish, then connections close.
 */
export async function runServer(
  config: FerryConfig,
  opts: { withWorker: boolean; portChecked?: boolean },
): Promise<void> {
  const webhooksSettings = webhookSettings(process.env);
  // One of `--processes N` shares the port its primary checked (and a probe would find it taken).
  if (!opts.portChecked) await ensurePortFree(config.port, config.host);
  const db = await openDb(config);
  await migrate(db);
  // The key stays in its file (readable by its owner only): a console is often a log collector.
  const operatorKey = resolveOperatorKey(config.operatorApiKey, config.dataDir, (file) => {
    process.stdout.write(
      `\nFerry generated an operator API key and saved it in ${file} (readable only by you).\n` +
        'Use the key in that file to sign in to /admin/ and the dashboard; set OPERATOR_API_KEY to use your own.\n\n',
    );
  });
  prepareAccountChecks(config.checkThreads);
  const objectStore = openObjectStore(config);
  // One registry: the in-process worker's batch histogram shows on the API's /metrics.
  const metrics = new Registry();
  const app = await buildApp(config, {
    db,
    objectStore,
    paymentVendors: createPaymentVendors(config),
    operatorKey,
    logger: loggerOptions(config.logLevel),
    metrics,
  });
  // Listen first: a process that cannot serve must not go on working (a worker left running
  // would keep it alive, holding the database, after the listen failed).
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await app.close();
    await objectStore.close();
    await db.close();
    // Taken since the check above.
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new PortInUseError(config.port, config.host);
    throw err;
  }
  const webhooks = opts.withWorker ? startWebhooks(webhooksSettings, { db, logger: app.log, metrics }) : null;
  const worker = opts.withWorker
    ? startWorker(config, { db, logger: app.log, metrics, onSettled: () => webhooks?.eventsCommitted() })
    : null;
  // The outbox is delivered by the worker side: with --no-worker, a `ferry worker` sends it.
  const mailSender = opts.withWorker ? startMailSenderFromConfig(config, { db, logger: app.log }) : null;

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await Promise.all([worker?.stop(), mailSender?.stop(), webhooks?.stop()]);
    await app.close();
    await objectStore.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
