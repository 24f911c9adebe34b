/**
 * ferry_email_outbox{state} on /metrics: the e-mails not sent yet, read from the database at
 * scrape time (as the import families, decision 0044), so whichever process sends them the API
 * serves the same figure. HELD e-mails wait for their wave's approval (decision 0070) and are
 * counted apart from PENDING ones, which are due or retrying: a held wave is not a mail outage.
 */
import type { FastifyBaseLogger } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import { type Queryable, sql } from '../../infra/db/db.ts';

export const UNSENT_STATES = ['HELD', 'PENDING', 'SENDING', 'FAILED'] as const;

/**
 * Unsent e-mails per state. Each branch reads one partial index (email_outbox_held,
 * email_outbox_unsent, email_outbox_failed), never the sent rows, so a scrape stays cheap
 * however many e-mails went out.
 */
const countUnsentEmails = sql(
  'countUnsentEmails',
  `SELECT 'HELD' AS state, count(*)::int AS n FROM email_outbox
    WHERE held_for_wave IS NOT NULL AND status = 'PENDING'
   UNION ALL
   SELECT status, count(*)::int FROM email_outbox
    WHERE status IN ('PENDING', 'SENDING') AND held_for_wave IS NULL GROUP BY status
   UNION ALL
   SELECT 'FAILED', count(*)::int FROM email_outbox WHERE status = 'FAILED'`,
);

export function registerOutboxMetrics(
  registry: Registry,
  db: Queryable,
  log: Pick<FastifyBaseLogger, 'warn'>,
): void {
  new Gauge({
    name: 'ferry_email_outbox',
    help: 'E-mails not sent yet, by state: HELD (waiting for their wave to be approved), PENDING (due, or retrying later), SENDING, FAILED (given up).',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      let rows: { state: string; n: number }[];
      try {
        rows = (await db.query<{ state: string; n: number }>(countUnsentEmails)).rows;
      } catch (err) {
        // The database away: the last values stay.
        log.warn({ err }, 'could not read the e-mail outbox metrics');
        return;
      }
      this.reset();
      for (const state of UNSENT_STATES) this.set({ state }, 0);
      for (const row of rows) this.set({ state: row.state }, row.n);
    },
  });
}
