import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { claimDueEmails } from '../../../src/accounts/welcome-emails/outbox.queries.ts';
import {
  type OutboxSenderOptions,
  startOutboxSender,
} from '../../../src/accounts/welcome-emails/outbox-sender.ts';
import { loadConfig } from '../../../src/config.ts';
import { sql } from '../../../src/infra/db/db.ts';
import { createSmtpMailer } from '../../../src/infra/mail/smtp-mailer.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../../helpers/smtp-test-server.ts';
import { admin, buildTestAppOn } from '../../helpers/test-app.ts';
import { createTestDb, type TestDb } from '../../helpers/test-db.ts';
import { recipientFor, seedWelcomeOutbox } from '../../helpers/welcome-outbox.ts';

const config = loadConfig({ DATA_DIR: '.tmp/test-data', WORKER_CONCURRENCY: '16' });
const FROM = 'Ferry <welcome@ferry.example>';
const quiet = { info() {}, warn() {}, error: (o: unknown) => console.error('ERR', o) };

interface Row {
  id: string;
  status: string;
  recipient: string;
  message_id: string | null;
  attempts: number;
  last_error: string | null;
  sent_at: Date | null;
  account_number: string;
}

describe('the welcome e-mail sender', () => {
  let tdb: TestDb;
  let smtp: SmtpTestServer;
  const stops: (() => Promise<void>)[] = [];

  before(async () => {
    tdb = await createTestDb();
    smtp = await startSmtpTestServer();
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    smtp.reply = () => ({ accept: true });
  });
  after(async () => {
    await smtp.close();
    await tdb.cleanup();
  });

  const rows = async (supplier: string) =>
    (
      await tdb.db.query<Row>(
        sql(
          '',
          `SELECT o.id, o.status, o.recipient, o.message_id, o.attempts, o.last_error, o.sent_at, a.number AS account_number
             FROM email_outbox o JOIN accounts a ON a.id = o.account_id
            WHERE a.import_supplier = $1 ORDER BY o.id`,
        ),
        [supplier],
      )
    ).rows;

  function sender(extra: Partial<OutboxSenderOptions> = {}) {
    const s = startOutboxSender({
      db: tdb.db,
      mailer: createSmtpMailer(smtp.url, { timeoutMs: 5_000 }),
      logger: quiet,
      from: FROM,
      leaseSeconds: 30,
      idlePollMs: 20,
      retry: { baseMs: 20, maxMs: 100 },
      ...extra,
    });
    stops.push(() => s.stop());
    return s;
  }

  async function until(what: string, done: () => Promise<boolean>, ms = 20_000) {
    const deadline = Date.now() + ms;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  const allSent = (supplier: string) => async () => (await rows(supplier)).every((r) => r.status === 'SENT');
  const receivedFor = (supplier: string) =>
    smtp.received.filter((m) => m.to[0]?.endsWith(`@${supplier.toLowerCase()}.example`));

  it('delivers each created account its welcome e-mail, once', async () => {
    await seedWelcomeOutbox(tdb.db, config, { supplier: 'DELIVER', count: 5 });
    const before = await rows('DELIVER');
    assert.equal(before.length, 5);
    assert.ok(before.every((r) => r.status === 'PENDING' && r.message_id === null));

    sender();
    await until('every row is SENT', allSent('DELIVER'));
    const after = await rows('DELIVER');
    const mails = receivedFor('DELIVER');
    assert.equal(mails.length, 5);
    // One row per account; the worker may create a batch's accounts in any order.
    assert.deepEqual(
      after.map((r) => r.recipient).sort(),
      [1, 2, 3, 4, 5].map((n) => recipientFor('DELIVER', n)).sort(),
    );
    for (const row of after) {
      assert.equal(row.attempts, 1);
      assert.ok(row.sent_at);
      assert.match(row.message_id ?? '', /^<welcome\.\d+\.[0-9a-f-]{36}@ferry\.example>$/);
      const mail = mails.find((m) => m.messageId === row.message_id);
      assert.ok(mail, `a mail with Message-ID ${row.message_id}`);
      assert.deepEqual(mail.to, [row.recipient]);
      assert.equal(mail.from, 'welcome@ferry.example');
      assert.equal(mail.subject, `Welcome: your account ${row.account_number}`);
      assert.match(
        mail.body,
        new RegExp(`Dear Bob,[\\s\\S]*from DELIVER\\. Your new account number is ${row.account_number}\\.`),
      );
    }
    // Nothing is sent twice.
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(receivedFor('DELIVER').length, 5);
  });

  it('retries transient failures (421, 451) with backoff, then delivers', async () => {
    await seedWelcomeOutbox(tdb.db, config, { supplier: 'FLAKY', count: 1, first: 100 });
    const seen: number[] = [];
    smtp.reply = (_n, mail) => {
      if (!mail.to[0].endsWith('@flaky.example')) return { accept: true };
      seen.push(Date.now());
      if (seen.length === 1) return { code: 421, text: 'Service not available, try later' };
      if (seen.length === 2) return { code: 451, text: 'Local error in processing' };
      return { accept: true };
    };
    sender({ retry: { baseMs: 200, maxMs: 1_000 } });
    await until('the row is SENT', allSent('FLAKY'));
    const [row] = await rows('FLAKY');
    assert.equal(row.attempts, 3);
    assert.equal(row.last_error, null);
    assert.equal(receivedFor('FLAKY').length, 1);
    assert.equal(seen.length, 3);
    // Backoff: about 200 ms then about 400 ms (jittered to half or more).
    assert.ok(seen[1] - seen[0] >= 100, `first retry after ${seen[1] - seen[0]} ms`);
    assert.ok(seen[2] - seen[1] >= 200, `second retry after ${seen[2] - seen[1]} ms`);
  });

  it('records a permanent failure (550) with its reason and does not retry it', async () => {
    await seedWelcomeOutbox(tdb.db, config, { supplier: 'BOUNCE', count: 2, first: 200 });
    let attempts = 0;
    smtp.reply = (_n, mail) => {
      if (mail.to[0] !== recipientFor('BOUNCE', 200)) return { accept: true };
      attempts++;
      return { code: 550, text: '5.1.1 Mailbox does not exist' };
    };
    sender();
    await until('both rows are final', async () =>
      (await rows('BOUNCE')).every((r) => r.status === 'SENT' || r.status === 'FAILED'),
    );
    await new Promise((r) => setTimeout(r, 300));
    const [bounced, sent] = await rows('BOUNCE');
    assert.equal(bounced.status, 'FAILED');
    assert.match(bounced.last_error ?? '', /550 5\.1\.1 Mailbox does not exist/);
    assert.equal(bounced.attempts, 1);
    assert.equal(attempts, 1);
    assert.equal(sent.status, 'SENT');
    assert.deepEqual(
      receivedFor('BOUNCE').map((m) => m.to[0]),
      [recipientFor('BOUNCE', 201)],
    );
  });

  it('takes over the rows of a sender that crashed, keeping their Message-IDs', async () => {
    await seedWelcomeOutbox(tdb.db, config, { supplier: 'ORPHAN', count: 3, first: 300 });
    // A sender claims the rows for one second, then is never heard of again.
    const claimed = (
      await tdb.db.query<{ id: string; message_id: string }>(claimDueEmails, [
        'gone',
        100,
        1,
        'ferry.example',
      ])
    ).rows;
    assert.ok(claimed.length >= 3);
    sender();
    await until('every row is SENT', allSent('ORPHAN'));
    const after = await rows('ORPHAN');
    for (const row of after) {
      assert.equal(row.message_id, claimed.find((c) => c.id === row.id)?.message_id);
      assert.equal(row.attempts, 2);
    }
    assert.equal(receivedFor('ORPHAN').length, 3);
  });

  it('two concurrent senders deliver each row once', async () => {
    await seedWelcomeOutbox(tdb.db, config, { supplier: 'PAIR', count: 40, first: 400 });
    // A slow server keeps both senders busy at once.
    smtp.reply = async () => {
      await new Promise((r) => setTimeout(r, 5));
      return { accept: true };
    };
    const a = sender({ batchSize: 4 });
    const b = sender({ batchSize: 4 });
    assert.notEqual(a.senderId, b.senderId);
    await until('every row is SENT', allSent('PAIR'), 60_000);
    const mails = receivedFor('PAIR');
    assert.equal(mails.length, 40);
    assert.equal(new Set(mails.map((m) => m.messageId)).size, 40);
    assert.equal(new Set(mails.map((m) => m.to[0])).size, 40);
  });

  it('GET /admin/v1/email-outbox/ counts e-mails per state and lists the permanent failures', async () => {
    await seedWelcomeOutbox(tdb.db, config, { supplier: 'LATER', count: 1, first: 500 });
    smtp.reply = () => ({ code: 451, text: '4.3.0 Try again later' });
    const s = sender({ retry: { baseMs: 600_000 } });
    await until('the row waits for a retry', async () => (await rows('LATER'))[0].last_error !== null);
    await s.stop();

    const { app } = await buildTestAppOn(tdb.db);
    try {
      const outbox = await admin<{
        counts: Record<string, number>;
        retrying: number;
        failures: Record<string, unknown>[];
      }>(app, 'GET', '/email-outbox/');
      assert.deepEqual(outbox.counts, { HELD: 0, PENDING: 1, SENDING: 0, SENT: 50, FAILED: 1 });
      assert.equal(outbox.retrying, 1);
      assert.equal(outbox.failures.length, 1);
      const [bounced] = await rows('BOUNCE');
      assert.deepEqual(
        { ...outbox.failures[0], failed_at: typeof outbox.failures[0].failed_at },
        {
          id: String(bounced.id),
          account_number: bounced.account_number,
          supplier: 'BOUNCE',
          kind: 'welcome',
          recipient: recipientFor('BOUNCE', 200),
          attempts: 1,
          reason: bounced.last_error,
          failed_at: 'string',
        },
      );
    } finally {
      await app.close();
    }
  });

  it('treats a refused connection as transient: the e-mail waits for a retry', async () => {
    await seedWelcomeOutbox(tdb.db, config, { supplier: 'NOSERVER', count: 1, first: 600 });
    const s = sender({
      mailer: createSmtpMailer('smtp://127.0.0.1:1', { timeoutMs: 2_000 }),
      retry: { baseMs: 600_000 },
    });
    await until('the row waits for a retry', async () => (await rows('NOSERVER'))[0].last_error !== null);
    await s.stop();
    const [row] = await rows('NOSERVER');
    assert.equal(row.status, 'PENDING');
    assert.equal(row.attempts, 1);
    assert.match(row.last_error ?? '', /ECONNREFUSED|ECONNECTION|ESOCKET/);
  });
});
