import { type Queryable, sql } from '../../infra/db/db.ts';
import { wireDatetime } from '../../vocabulary/wire-datetime.ts';

/** The states of an outbox row (migration 0009). */
export const OUTBOX_STATUSES = ['PENDING', 'SENDING', 'SENT', 'FAILED'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/**
 * The states the operator sees: a PENDING row held for its wave's approval (decision 0070) is
 * HELD, its own state, so a wave waiting for approval never reads as mail waiting to go out.
 */
export const OUTBOX_VIEW_STATES = ['HELD', ...OUTBOX_STATUSES] as const;
export type OutboxViewState = (typeof OUTBOX_VIEW_STATES)[number];

export interface ClaimedEmail {
  id: string;
  account_id: string;
  kind: string;
  recipient: string | null;
  message_id: string;
  attempts: number;
  account_number: string;
  supplier: string;
  given_name: string | null;
}

/**
 * Claims up to $2 due rows for sender $1, leasing them for $3 seconds: PENDING rows whose
 * next attempt is due, and SENDING rows whose sender's lease ran out (it crashed or stalled).
 * Locking, as for the import queue: FOR UPDATE SKIP LOCKED gives concurrent senders disjoint
 * rows without waiting; after this statement the lease columns say who owns a row. The
 * Message-ID is fixed at the first claim ($4 is its domain) and kept on every re-send. Rows held
 * for a wave are never claimed.
 */
export const claimDueEmails = sql(
  'claimDueEmails',
  `WITH due AS (
     SELECT id FROM email_outbox
      WHERE ((status = 'PENDING' AND next_attempt_at <= now())
             OR (status = 'SENDING' AND locked_until < now()))
        -- A welcome e-mail held for its wave waits for the wave's approval (decision 0070).
        AND held_for_wave IS NULL
      ORDER BY id
      LIMIT $2
        FOR UPDATE SKIP LOCKED
   ), claimed AS (
     UPDATE email_outbox o
        SET status = 'SENDING', locked_by = $1, locked_until = now() + make_interval(secs => $3),
            attempts = o.attempts + 1,
            message_id = coalesce(o.message_id, '<' || o.kind || '.' || o.id || '.' || gen_random_uuid() || '@' || $4 || '>')
       FROM due WHERE o.id = due.id
     RETURNING o.id, o.account_id, o.kind, o.recipient, o.message_id, o.attempts
   )
   SELECT c.*, a.number AS account_number, a.import_supplier AS supplier,
          (SELECT ac.given_name FROM account_customers ac
            WHERE ac.account_id = c.account_id ORDER BY ac.position LIMIT 1) AS given_name
     FROM claimed c JOIN accounts a ON a.id = c.account_id
    ORDER BY c.id`,
);

/** Right before sending row $1: renews sender $2's lease ($3 seconds) if it still holds it. */
export const renewEmailLease = sql(
  'renewEmailLease',
  `UPDATE email_outbox SET locked_until = now() + make_interval(secs => $3)
    WHERE id = $1 AND status = 'SENDING' AND locked_by = $2
   RETURNING id`,
);

/**
 * The SMTP server accepted row $1: SENT, whoever holds it now (a sender that took it over after
 * this one's lease ran out must not send it again).
 */
export const markEmailSent = sql(
  'markEmailSent',
  `UPDATE email_outbox
      SET status = 'SENT', sent_at = now(), locked_by = NULL, locked_until = NULL, last_error = NULL
    WHERE id = $1 AND status <> 'SENT'`,
);

/** A transient failure: row $1 of sender $2 is tried again in $3 seconds; $4 is the reason. */
export const retryEmailLater = sql(
  'retryEmailLater',
  `UPDATE email_outbox
      SET status = 'PENDING', locked_by = NULL, locked_until = NULL,
          next_attempt_at = now() + make_interval(secs => $3), last_error = $4
    WHERE id = $1 AND status = 'SENDING' AND locked_by = $2`,
);

/** A permanent failure of row $1 of sender $2, with its reason $3: never tried again. */
export const markEmailFailed = sql(
  'markEmailFailed',
  `UPDATE email_outbox
      SET status = 'FAILED', failed_at = now(), locked_by = NULL, locked_until = NULL, last_error = $3
    WHERE id = $1 AND status = 'SENDING' AND locked_by = $2`,
);

/** A sender stopping hands back rows $1 it claimed but did not get to (no attempt spent). */
export const releaseEmails = sql(
  'releaseEmails',
  `UPDATE email_outbox
      SET status = 'PENDING', locked_by = NULL, locked_until = NULL, attempts = greatest(attempts - 1, 0)
    WHERE id = ANY($1::bigint[]) AND status = 'SENDING' AND locked_by = $2`,
);

/** Rows per state as the operator sees it (HELD apart from PENDING), and how many PENDING ones wait after a failure. */
export const countEmailsByStatus = sql(
  'countEmailsByStatus',
  `SELECT CASE WHEN status = 'PENDING' AND held_for_wave IS NOT NULL THEN 'HELD' ELSE status END AS status,
          count(*)::int AS n, (count(*) FILTER (WHERE last_error IS NOT NULL))::int AS with_error
     FROM email_outbox GROUP BY 1`,
);

/** Held e-mails per supplier and wave (the partial index email_outbox_held keeps this to the held rows). */
export const countHeldEmailsByWave = sql(
  'countHeldEmailsByWave',
  `SELECT a.import_supplier AS supplier, o.held_for_wave AS wave, count(*)::int AS emails
     FROM email_outbox o JOIN accounts a ON a.id = o.account_id
    WHERE o.held_for_wave IS NOT NULL AND o.status = 'PENDING'
    GROUP BY 1, 2 ORDER BY 1, 2`,
);

export interface FailedEmail {
  id: string;
  account_number: string;
  supplier: string;
  kind: string;
  recipient: string | null;
  attempts: number;
  last_error: string;
  failed_at: Date;
}

/** The latest $1 permanent failures, newest first. */
export const listFailedEmails = sql(
  'listFailedEmails',
  `SELECT o.id, a.number AS account_number, a.import_supplier AS supplier, o.kind, o.recipient,
          o.attempts, o.last_error, o.failed_at
     FROM email_outbox o JOIN accounts a ON a.id = o.account_id
    WHERE o.status = 'FAILED'
    ORDER BY o.failed_at DESC, o.id DESC
    LIMIT $1`,
);

/** E-mails per state as the operator sees it (HELD included), and how many PENDING ones retry. */
export async function emailOutboxCounts(db: Queryable) {
  const counts = Object.fromEntries(OUTBOX_VIEW_STATES.map((s) => [s, 0])) as Record<OutboxViewState, number>;
  let retrying = 0;
  const byStatus = await db.query<{ status: OutboxViewState; n: number; with_error: number }>(
    countEmailsByStatus,
  );
  for (const row of byStatus.rows) {
    counts[row.status] = row.n;
    if (row.status === 'PENDING') retrying = row.with_error;
  }
  return { counts, retrying };
}

/**
 * The outbox as the operator sees it: e-mails per state, transient retries, the held e-mails per
 * wave, the latest permanent failures.
 */
export async function emailOutboxSummary(db: Queryable, failures: number) {
  const { counts, retrying } = await emailOutboxCounts(db);
  const held = await db.query<{ supplier: string; wave: string; emails: number }>(countHeldEmailsByWave);
  const failed = await db.query<FailedEmail>(listFailedEmails, [failures]);
  return {
    counts,
    retrying,
    held: held.rows,
    failures: failed.rows.map(({ last_error, failed_at, ...f }) => ({
      ...f,
      reason: last_error,
      failed_at: wireDatetime(failed_at) as string,
    })),
  };
}
