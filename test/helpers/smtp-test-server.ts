import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  messageId: string;
  from: string;
  to: string[];
  subject: string;
  body: string;
}

/** What the server answers to the n-th DATA (1-based): accept, or a reply code with its text. */
export type DataReply = { accept: true } | { code: number; text: string };

export interface SmtpTestServer {
  url: string;
  /** Messages the server accepted (answered 250 to), in order. */
  received: ReceivedMail[];
  /** DATA commands seen, accepted or not. */
  dataCount(): number;
  /** Decides the reply to each DATA; default: accept all. May wait (a slow server). */
  reply: (n: number, mail: ReceivedMail) => DataReply | Promise<DataReply>;
  /** How many times each Message-ID was accepted. */
  countsByMessageId(): Map<string, number>;
  close(): Promise<void>;
}

const header = (head: string, name: string) =>
  new RegExp(`^${name}:[ \\t]*(.*(?:\\r?\\n[ \\t].*)*)`, 'im')
    .exec(head)?.[1]
    ?.replace(/\r?\n[ \t]+/g, ' ')
    .trim() ?? '';

/** The text of a quoted-printable body (what nodemailer sends for long lines), else as is. */
function decodeBody(head: string, body: string): string {
  if (!/quoted-printable/i.test(header(head, 'Content-Transfer-Encoding'))) return body;
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/**
 * A real SMTP server on loopback (the smtp-server package), no TLS, no auth. A message counts as
 * received only once the server answered 250 on a connection that was still open: if the client
 * is gone before the answer (killed mid-DATA), the server never took responsibility for it.
 */
export async function startSmtpTestServer(): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = [];
  let data = 0;
  const state: Pick<SmtpTestServer, 'reply'> = { reply: () => ({ accept: true }) };
  const closed = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onClose(session) {
      closed.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const split = raw.search(/\r?\n\r?\n/);
        const head = split < 0 ? raw : raw.slice(0, split);
        const mail: ReceivedMail = {
          messageId: header(head, 'Message-ID'),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: header(head, 'Subject'),
          body: decodeBody(head, split < 0 ? '' : raw.slice(split).trim()),
        };
        const answer = await state.reply(++data, mail);
        if (!('accept' in answer)) {
          const err = Object.assign(new Error(answer.text), { responseCode: answer.code });
          callback(err);
          return;
        }
        // The client vanished before our 250: we never accepted the message.
        if (closed.has(session.id)) return callback(new Error('connection lost'));
        received.push(mail);
        callback();
      });
    },
  });
  const sockets = new Set<import('node:net').Socket>();
  server.server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    dataCount: () => data,
    get reply() {
      return state.reply;
    },
    set reply(fn) {
      state.reply = fn;
    },
    countsByMessageId() {
      const counts = new Map<string, number>();
      for (const m of received) counts.set(m.messageId, (counts.get(m.messageId) ?? 0) + 1);
      return counts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
