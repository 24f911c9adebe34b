/**
 * Sending one e-mail over SMTP (nodemailer), and what a failure means for a retry: the outbox
 * sender (accounts/welcome-emails/) decides from `kind` whether to try again later or give up.
 */
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  /** `<...@...>`: kept across re-sends, so a duplicate after a crash is recognisable. */
  messageId: string;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message (250 after DATA); throws a MailError. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * transient: the same message may go through later (a 4xx reply, a lost or refused connection,
 * a timeout, a rejected login: nothing about this message). permanent: a 5xx reply about the
 * message or its recipient, or no recipient at all: sending it again would fail again.
 */
export type MailFailureKind = 'transient' | 'permanent';

export class MailError extends Error {
  constructor(
    readonly kind: MailFailureKind,
    message: string,
    readonly responseCode?: number,
  ) {
    super(message);
    this.name = 'MailError';
  }
}

/** Codes of the sender's own setup: every message would fail the same way until it is fixed. */
const SETUP_CODES = new Set(['EAUTH', 'ENOAUTH', 'EOAUTH2', 'ETLS', 'EREQUIRETLS', 'ECONFIG']);

/** Classifies a nodemailer error (or anything thrown while sending). */
export function mailErrorOf(err: unknown): MailError {
  if (err instanceof MailError) return err;
  const e = (err ?? {}) as { code?: unknown; responseCode?: unknown; response?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  const responseCode = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  const reply = typeof e.response === 'string' ? e.response : undefined;
  const reason = reply ?? (typeof e.message === 'string' ? e.message : String(err));
  const permanent =
    responseCode !== undefined && responseCode >= 500 && !(code !== undefined && SETUP_CODES.has(code));
  return new MailError(
    permanent ? 'permanent' : 'transient',
    code ? `${code}: ${reason}` : reason,
    responseCode,
  );
}

export interface SmtpMailerOptions {
  /** Limit on connecting, the greeting, and each reply. */
  timeoutMs?: number;
}

/** A mailer over one pooled SMTP connection to `smtpUrl` (smtp://, STARTTLS when offered; or smtps://). */
export function createSmtpMailer(smtpUrl: string, opts: SmtpMailerOptions = {}): Mailer {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 1,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    async send(mail) {
      try {
        await transport.sendMail(mail);
      } catch (err) {
        throw mailErrorOf(err);
      }
    },
    close: () => transport.close(),
  };
}
