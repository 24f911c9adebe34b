import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../src/config.ts';
import { type Db, sql } from '../../../src/infra/db/db.ts';
import { migrate } from '../../../src/infra/db/migrate.ts';
import { openDb } from '../../../src/infra/db/open-db.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../../helpers/smtp-test-server.ts';
import { createTestDb, type TestDb, usingPostgresServer } from '../../helpers/test-db.ts';
import { recipientFor, seedWelcomeOutbox } from '../../helpers/welcome-outbox.ts';

const ROOT = resolve('.');
const MAILS = 40;
/** The sender process is SIGKILLed while the server holds these DATA commands (mid-batch: batches are 10). */
const KILL_AT = [8, 23];

/**
 * `ferry worker` processes deliver the outbox; one is SIGKILLed in the middle of a batch, while
 * the SMTP server has the message's DATA but has not answered it, and restarted. Every row must
 * reach the server exactly once. On PGlite the processes take turns on one DATA_DIR; with
 * DATABASE_URL a second, steady sender starts once the victim holds its first batch and runs
 * beside it from then on (either may take over the rows a killed victim held).
 */
describe('mail sender processes killed mid-batch', () => {
  let dir: string;
  let tdb: TestDb | null = null;
  let smtp: SmtpTestServer;
  const children = new Set<ChildProcess>();
  const config = () => loadConfig({ DATA_DIR: join(dir, 'data'), DATABASE_URL: tdb?.url ?? '' });

  async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
    if (tdb) return fn(tdb.db);
    const db = await openDb(config());
    try {
      await migrate(db);
      return await fn(db);
    } finally {
      await db.close();
    }
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ferry-mail-'));
    if (usingPostgresServer()) tdb = await createTestDb();
    smtp = await startSmtpTestServer();
    await withDb((db) => seedWelcomeOutbox(db, config(), { supplier: 'CRASHMAIL', count: MAILS }));
  });
  after(async () => {
    for (const c of children) c.kill('SIGKILL');
    await smtp?.close();
    await tdb?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The victim and the steady sender differ by their From, so the server knows whose DATA it holds. */
  function spawnSender(from = 'victim@ferry.example'): ChildProcess {
    const child = spawn(process.execPath, [join(ROOT, 'bin/ferry.js'), 'worker'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: join(dir, 'data'),
        DATABASE_URL: tdb?.url ?? '',
        SMTP_URL: smtp.url,
        MAIL_FROM: `Ferry <${from}>`,
        WORKER_LEASE_SECONDS: '2',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.add(child);
    child.on('exit', () => children.delete(child));
    return child;
  }
  const exited = (c: ChildProcess) =>
    c.exitCode !== null || c.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((r) => c.once('exit', () => r()));

  it('delivers every outbox row exactly once', async () => {
    let victim = spawnSender();
    // The steady sender starts once the victim holds a batch (its first DATA): started together,
    // the steady one could take every row before the victim's first kill (seen on a loaded CI).
    let steady: ChildProcess | null = null;
    const kills: number[] = [];
    smtp.reply = async (n, mail) => {
      if (tdb && !steady && mail.from === 'victim@ferry.example')
        steady = spawnSender('steady@ferry.example');
      const due = KILL_AT[kills.length];
      if (due === undefined || n < due || mail.from !== 'victim@ferry.example') return { accept: true };
      // Holding this DATA's answer: the sender is inside a batch, between DATA and our 250.
      victim.kill('SIGKILL');
      await exited(victim);
      kills.push(due);
      await new Promise((r) => setTimeout(r, 100));
      victim = spawnSender();
      return { accept: true };
    };
    const deadline = Date.now() + 120_000;
    while (smtp.received.length < MAILS && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    // Anything more that would come (a duplicate) has its chance to arrive.
    await new Promise((r) => setTimeout(r, 2_500));
    for (const c of [victim, steady]) c?.kill('SIGTERM');
    await Promise.all([victim, steady].map((c) => c && exited(c)));

    // With a second sender beside it (PostgreSQL), the victim may run out of rows before its
    // second kill: the first one must have happened.
    if (tdb) assert.deepEqual(kills, KILL_AT.slice(0, Math.max(1, kills.length)));
    else assert.deepEqual(kills, KILL_AT);
    const counts = smtp.countsByMessageId();
    assert.equal(smtp.received.length, MAILS, `received ${smtp.received.length} of ${MAILS}`);
    assert.equal(counts.size, MAILS);
    assert.deepEqual(
      smtp.received.map((m) => m.to[0]).sort(),
      Array.from({ length: MAILS }, (_, i) => recipientFor('CRASHMAIL', i + 1)).sort(),
    );
    const rows = await withDb(
      async (db) =>
        (
          await db.query<{ status: string; message_id: string; attempts: number }>(
            sql('', 'SELECT status, message_id, attempts FROM email_outbox ORDER BY id'),
          )
        ).rows,
    );
    assert.equal(rows.length, MAILS);
    assert.deepEqual(new Set(rows.map((r) => r.status)), new Set(['SENT']));
    assert.deepEqual(new Set(rows.map((r) => r.message_id)), new Set(counts.keys()));
    // The messages held when their sender died were sent again, by the next sender.
    assert.ok(rows.filter((r) => r.attempts > 1).length >= KILL_AT.length);
  });
});
