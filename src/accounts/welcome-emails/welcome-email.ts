import type { OutgoingMail } from '../../infra/mail/smtp-mailer.ts';
import type { ClaimedEmail } from './outbox.queries.ts';

/** The domain of a From (`Name <a@b>` or `a@b`): the right-hand side of Ferry's Message-IDs. */
export function messageIdDomain(from: string): string {
  const address = /<([^<>]*)>\s*$/.exec(from)?.[1] ?? from;
  return address.slice(address.lastIndexOf('@') + 1).trim() || 'localhost';
}

/** The e-mail for an outbox row, or null for a kind Ferry does not know how to write. */
export function composeEmail(row: ClaimedEmail & { recipient: string }, from: string): OutgoingMail | null {
  if (row.kind !== 'welcome') return null;
  const greeting = row.given_name ? `Dear ${row.given_name},` : 'Hello,';
  return {
    from,
    to: row.recipient,
    messageId: row.message_id,
    subject: `Welcome: your account ${row.account_number}`,
    text: [
      greeting,
      '',
      `Your account has moved to us from ${row.supplier}. Your new account number is ${row.account_number}.`,
      'Please quote it whenever you contact us.',
      '',
      'Welcome aboard.',
      '',
    ].join('\n'),
  };
}
