/**
 * The outbox sender: delivers the rows account creation wrote to email_outbox over SMTP, at most
 * once per row across restarts and any number of senders (docs/decisions/0040). It claims due
 * rows under a lease (outbox.queries.ts), sends them one at a time, and marks each SENT as soon
 * as the server accepted it; transient failures come back later with exponential backoff,
 * permanent ones end FAILED with the server's reason. Runs in `ferry worker` and beside the API's
 * in-process worker when SMTP_URL is set.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../infra/db/db.ts';
import { startLeaseLoop } from '../../infra/lease-loop.ts';
import { type MailError, type Mailer, mailErrorOf } from '../../infra/mail/smtp-mailer.ts';
import {
  type ClaimedEmail,
  claimDueEmails,
  markEmailFailed,
  markEmailSent,
  releaseEmails,
  renewEmailLease,
  retryEmailLater,
} from './outbox.queries.ts';
import { composeEmail, messageIdDomain } from './welcome-email.ts';

export interface RetryPolicy {
  /** The first retry waits about this long; each further one twice as long, jittered. */
  baseMs: number;
  maxMs: number;
  /** Attempts after which a row that keeps failing transiently ends FAILED. */
  maxAttempts: number;
}

export interface OutboxSenderOptions {
  db: Db;
  mailer: Mailer;
  logger: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** The From of every message. */
  from: string;
  /** How long a claim lasts without the sender renewing it (before each message). */
  leaseSeconds: number;
  batchSize?: number;
  /** Pause between claims when nothing is due. */
  idlePollMs?: number;
  retry?: Partial<RetryPolicy>;
}

export interface OutboxSenderHandle {
  readonly senderId: string;
  /** Finishes the message in hand, hands back the rest of the batch, closes the mailer. */
  stop(): Promise<void>;
}

/** 30 s, 1 min, 2 min, ... up to an hour: 12 attempts span about six hours. */
export const DEFAULT_RETRY: RetryPolicy = { baseMs: 30_000, maxMs: 3_600_000, maxAttempts: 12 };

const jittered = (ms: number) => ms / 2 + (Math.random() * ms) / 2;

export function startOutboxSender(opts: OutboxSenderOptions): OutboxSenderHandle {
  const { db, mailer, logger, from, leaseSeconds } = opts;
  const senderId = `${hostname()}:${process.pid}:mail:${randomBytes(3).toString('hex')}`;
  const batchSize = opts.batchSize ?? 10;
  const idlePollMs = opts.idlePollMs ?? 1000;
  const retry = { ...DEFAULT_RETRY, ...opts.retry };
  const domain = messageIdDomain(from);
  /**
   * Rows the server accepted that could not be marked yet (the database unavailable): marked
   * first thing in the next round, so that only a crash (not a database outage) re-sends them.
   */
  const unmarked = new Set<string>();

  async function markUnmarked() {
    for (const id of [...unmarked]) {
      await db.query(markEmailSent, [id]);
      unmarked.delete(id);
    }
  }

  async function deliver(row: ClaimedEmail): Promise<void> {
    // Still ours? A sender that stalled past its lease leaves the row to whoever took it over.
    if ((await db.query(renewEmailLease, [row.id, senderId, leaseSeconds])).rowCount === 0) return;
    const mail = row.recipient === null ? null : composeEmail({ ...row, recipient: row.recipient }, from);
    if (mail === null) {
      const reason = row.recipient === null ? 'no recipient address' : `no template for kind "${row.kind}"`;
      await db.query(markEmailFailed, [row.id, senderId, reason]);
      logger.warn({ emailId: row.id, reason }, 'e-mail failed permanently');
      return;
    }
    let failure: MailError | null = null;
    try {
      await mailer.send(mail);
    } catch (err) {
      failure = mailErrorOf(err);
    }
    if (failure === null) {
      unmarked.add(row.id);
      await db.query(markEmailSent, [row.id]);
      unmarked.delete(row.id);
      logger.info({ emailId: row.id, kind: row.kind, messageId: row.message_id }, 'e-mail sent');
      return;
    }
    const log = { emailId: row.id, attempts: row.attempts, reason: failure.message };
    if (failure.kind === 'permanent' || row.attempts >= retry.maxAttempts) {
      const reason =
        failure.kind === 'permanent'
          ? failure.message
          : `gave up after ${row.attempts} attempts: ${failure.message}`;
      await db.query(markEmailFailed, [row.id, senderId, reason]);
      logger.warn(log, 'e-mail failed permanently');
      return;
    }
    const waitMs = jittered(Math.min(retry.maxMs, retry.baseMs * 2 ** (row.attempts - 1)));
    await db.query(retryEmailLater, [row.id, senderId, waitMs / 1000, failure.message]);
    logger.warn({ ...log, retryInMs: Math.round(waitMs) }, 'e-mail not sent; will retry');
  }

  async function claim(): Promise<ClaimedEmail[]> {
    return (await db.query<ClaimedEmail>(claimDueEmails, [senderId, batchSize, leaseSeconds, domain])).rows;
  }

  async function deliverAll(claimed: readonly ClaimedEmail[], stopping: AbortSignal): Promise<void> {
    let next = 0;
    try {
      while (next < claimed.length && !stopping.aborted) await deliver(claimed[next++]);
    } finally {
      // Stopping (or a database failure): what was not tried goes back at once, not at lease end.
      const rest = claimed.slice(next).map((r) => r.id);
      if (rest.length > 0) await db.query(releaseEmails, [rest, senderId]).catch(() => {});
    }
  }

  const loop = startLeaseLoop(
    { prepare: markUnmarked, claim, settle: deliverAll },
    { name: 'mail sender', logger, idlePollMs },
  );
  logger.info({ senderId, batchSize }, 'mail sender started');

  return {
    senderId,
    async stop() {
      await loop.stop();
      mailer.close();
    },
  };
}
