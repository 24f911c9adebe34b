import { startOutboxSender } from '../../src/accounts/welcome-emails/outbox-sender.ts';
import type { FerryConfig } from '../../src/config.ts';
import { type Db, sql } from '../../src/infra/db/db.ts';
import { createSmtpMailer } from '../../src/infra/mail/smtp-mailer.ts';
import { accountFor } from './account-fixtures.ts';
import { runWorkerUntilIdle } from './worker-run.ts';

/** A sender delivering the outbox to the SMTP server at `smtpUrl` quickly, quiet but for errors. */
export function startTestOutboxSender(db: Db, smtpUrl: string) {
  return startOutboxSender({
    db,
    mailer: createSmtpMailer(smtpUrl, { timeoutMs: 5_000 }),
    logger: { info() {}, warn() {}, error: (o: unknown) => console.error('ERR', o) },
    from: 'Ferry <welcome@ferry.example>',
    leaseSeconds: 30,
    idlePollMs: 20,
    retry: { baseMs: 20, maxMs: 100 },
  });
}

/** The recipient of the n-th account's welcome e-mail. */
export const recipientFor = (supplier: string, n: number) => `customer${n}@${supplier.toLowerCase()}.example`;

/**
 * A supplier that sends welcome e-mails, `count` accounts of it created by the worker: the
 * outbox then holds one welcome row per account, addressed to recipientFor(supplier, n).
 */
export async function seedWelcomeOutbox(
  db: Db,
  config: FerryConfig,
  opts: { supplier: string; count: number; first?: number },
): Promise<void> {
  const { supplier, count } = opts;
  const first = opts.first ?? 1;
  await db.query(
    sql(
      '',
      `INSERT INTO import_suppliers (code, document_root, config) VALUES ($1, lower($1), '{"send_welcome_emails": true}')
       ON CONFLICT DO NOTHING`,
    ),
    [supplier],
  );
  const payloads = Array.from({ length: count }, (_, i) => {
    const a = accountFor(supplier, first + i);
    a.customers[0].email = recipientFor(supplier, first + i);
    return a;
  });
  await db.query(
    sql(
      '',
      `INSERT INTO import_processes (import_supplier, external_account_number, status, payload, latest_event)
       SELECT $1, p->>'external_account_number', 'PENDING', p,
              '{"event": "EVENT_ACCOUNT_IMPORT_PROCESS_CREATED", "occurred_at": "2026-01-01T00:00:00Z", "data": null}'
         FROM jsonb_array_elements($2::jsonb) p`,
    ),
    [supplier, JSON.stringify(payloads)],
  );
  await runWorkerUntilIdle(config, db);
}
