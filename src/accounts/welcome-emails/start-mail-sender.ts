import type { FastifyBaseLogger } from 'fastify';
import type { FerryConfig } from '../../config.ts';
import type { Db } from '../../infra/db/db.ts';
import { createSmtpMailer } from '../../infra/mail/smtp-mailer.ts';
import { type OutboxSenderHandle, startOutboxSender } from './outbox-sender.ts';

/** The outbox sender of a worker process, over SMTP_URL; null when SMTP_URL is unset (mail waits). */
export function startMailSenderFromConfig(
  config: Pick<FerryConfig, 'smtpUrl' | 'mailFrom' | 'workerLeaseSeconds'>,
  deps: { db: Db; logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'> },
): OutboxSenderHandle | null {
  if (config.smtpUrl === null) return null;
  return startOutboxSender({
    ...deps,
    mailer: createSmtpMailer(config.smtpUrl),
    from: config.mailFrom,
    leaseSeconds: config.workerLeaseSeconds,
  });
}
