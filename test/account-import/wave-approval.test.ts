/**
 * Approval holds customer contact (decision 0070): with `hold_welcome_emails`, the welcome
 * e-mails of a wave's accounts wait in the outbox, unsent by a real SMTP sender, until the
 * operator approves the wave; then each goes out once. Approval needs a clean reconciliation
 * (or force), is recorded, and is final.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { type SmtpTestServer, startSmtpTestServer } from '../helpers/smtp-test-server.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { expectWhatIsStored, scheduleInWave } from '../helpers/waves.ts';
import { startTestOutboxSender } from '../helpers/welcome-outbox.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

// biome-ignore lint/suspicious/noExplicitAny: answer bodies as JSON
type Obj = Record<string, any>;

const HOLDING = 'HOLDING';
const SENDING = 'SENDS';

const outboxOf = sql(
  '',
  `SELECT p.external_account_number, p.wave, o.status, o.held_for_wave, o.message_id, o.recipient
     FROM email_outbox o JOIN import_processes p ON p.account_id = o.account_id
    WHERE p.import_supplier = $1 ORDER BY p.external_account_number`,
);

// biome-ignore lint/suspicious/noExplicitAny: account fixtures as JSON
const mailTo = (supplier: string, n: number): any => {
  const a = accountFor(supplier, n);
  a.customers[0].email = `customer${n}@${supplier.toLowerCase()}.example`;
  return a;
};

describe('wave approval', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let smtp: SmtpTestServer;
  let sender: { stop(): Promise<void> };

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' });
    smtp = await startSmtpTestServer();
    ({ headers } = await tokenFor(t.app, [HOLDING, SENDING]));
    const config = { send_welcome_emails: true, hold_welcome_emails: true };
    const set = await admin<{ config: Record<string, unknown> }>(
      t.app,
      'PATCH',
      `/import-suppliers/${HOLDING}/`,
      { config },
      200,
    );
    assert.equal(set.config.hold_welcome_emails, true);
    await admin(
      t.app,
      'PATCH',
      `/import-suppliers/${SENDING}/`,
      { config: { send_welcome_emails: true } },
      200,
    );
    sender = startTestOutboxSender(t.db, smtp.url);
  });
  after(async () => {
    await sender?.stop();
    await smtp?.close();
    await t?.close();
  });

  const outbox = async (supplier: string) =>
    (await t.db.query<Record<string, never>>(outboxOf, [supplier])).rows;
  const received = (supplier: string, n: number) =>
    smtp.received.filter((m) => m.to[0] === `customer${n}@${supplier.toLowerCase()}.example`);
  async function until(what: string, done: () => boolean | Promise<boolean>, ms = 20_000) {
    const deadline = Date.now() + ms;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  const approve = (supplier: string, wave: string, body: unknown = {}, status = 200) =>
    admin<Obj>(t.app, 'POST', `/waves/${supplier}/${wave}/approve/`, body, status);

  it('holds the wave’s welcome e-mails until the approval, then sends each once', async () => {
    await scheduleInWave(
      t.app,
      headers,
      [1, 2, 3].map((n) => mailTo(HOLDING, n)),
      'W1',
    );
    await scheduleInWave(t.app, headers, [mailTo(HOLDING, 4)], null);
    await runWorkerUntilIdle(t.config, t.db);

    // The account of no wave is not held: its e-mail goes out while the wave's wait.
    await until('the e-mail of the account of no wave is sent', () => received(HOLDING, 4).length === 1);
    await new Promise((r) => setTimeout(r, 300));
    for (const n of [1, 2, 3]) assert.equal(received(HOLDING, n).length, 0, `account ${n} not written to`);
    const held = await outbox(HOLDING);
    assert.deepEqual(
      held.map((r) => [r.external_account_number, r.status, r.held_for_wave]),
      [
        ['EXT-0000001', 'PENDING', 'W1'],
        ['EXT-0000002', 'PENDING', 'W1'],
        ['EXT-0000003', 'PENDING', 'W1'],
        ['EXT-0000004', 'SENT', null],
      ],
    );

    await expectWhatIsStored(t.db, HOLDING, 'W1');
    const approved = await approve(HOLDING, 'W1');
    assert.equal(approved.import_supplier, HOLDING);
    assert.equal(approved.wave, 'W1');
    assert.equal(approved.approved_by, 'operator');
    assert.ok(Date.parse(approved.approved_at) > 0);
    assert.equal(approved.released_emails, 3);
    assert.equal(approved.approval.forced, false);
    assert.deepEqual(approved.approval.accounts, {
      expected: 3,
      imported: 3,
      matched: 3,
      differing: 0,
      missing: 0,
      unexpected: 0,
    });

    await until('every e-mail of the wave is sent', async () =>
      (await outbox(HOLDING)).every((r) => r.status === 'SENT'),
    );
    await new Promise((r) => setTimeout(r, 300));
    for (const n of [1, 2, 3, 4])
      assert.equal(received(HOLDING, n).length, 1, `account ${n} written to once`);
    for (const count of smtp.countsByMessageId().values()) assert.equal(count, 1);

    // An account the approved wave gains later is not held.
    await scheduleInWave(t.app, headers, [mailTo(HOLDING, 5)], 'W1');
    await runWorkerUntilIdle(t.config, t.db);
    await until('the late account is written to', () => received(HOLDING, 5).length === 1);
    const [w] = (
      await t.db.query<Record<string, never>>(
        sql('', 'SELECT approved_by, approval FROM waves WHERE import_supplier = $1 AND wave = $2'),
        [HOLDING, 'W1'],
      )
    ).rows;
    assert.equal(w.approved_by, 'operator');
    assert.deepEqual(w.approval, approved.approval);
  });

  it('is final: a second approval, forced or not, is refused', async () => {
    assert.equal((await approve(HOLDING, 'W1', {}, 409)).code, 'wave_approved');
    assert.equal((await approve(HOLDING, 'W1', { force: true }, 409)).code, 'wave_approved');
  });

  it('is refused while the reconciliation differs, with its totals, unless forced', async () => {
    await scheduleInWave(
      t.app,
      headers,
      [6, 7].map((n) => mailTo(HOLDING, n)),
      'W2',
    );
    await runWorkerUntilIdle(t.config, t.db);

    const noExpectations = await approve(HOLDING, 'W2', {}, 409);
    assert.equal(noExpectations.code, 'reconciliation_differences');
    assert.equal(noExpectations.accounts.unexpected, 2);

    await expectWhatIsStored(t.db, HOLDING, 'W2', { external: 'EXT-0000007', amount: '10.50' });
    const refused = await approve(HOLDING, 'W2', {}, 409);
    assert.equal(refused.code, 'reconciliation_differences');
    assert.equal(refused.accounts.differing, 1);
    const balance = refused.totals.find((m: { measure: string }) => m.measure === 'ledger_balance');
    assert.equal(balance.difference, '-10.50');
    const wave = await t.db.query<Record<string, never>>(
      sql('', 'SELECT approved_at FROM waves WHERE import_supplier = $1 AND wave = $2'),
      [HOLDING, 'W2'],
    );
    assert.equal(wave.rows[0].approved_at, null, 'a refusal records nothing');
    assert.deepEqual(
      (await outbox(HOLDING)).filter((r) => r.wave === 'W2').map((r) => r.held_for_wave),
      ['W2', 'W2'],
    );

    const forced = await approve(HOLDING, 'W2', { force: true });
    assert.equal(forced.approval.forced, true);
    assert.equal(forced.released_emails, 2);
    await until(
      'the forced wave’s e-mails are sent',
      () => received(HOLDING, 6).length + received(HOLDING, 7).length === 2,
    );
  });

  it('holds nothing for a supplier that does not hold welcome e-mails', async () => {
    await scheduleInWave(t.app, headers, [mailTo(SENDING, 8)], 'W1');
    await runWorkerUntilIdle(t.config, t.db);
    assert.deepEqual(
      (await outbox(SENDING)).map((r) => r.held_for_wave),
      [null],
    );
    await until('its e-mail is sent', () => received(SENDING, 8).length === 1);
  });

  it('answers 404 for an unknown supplier and 400 for a bad body', async () => {
    assert.equal((await approve('NOBODY', 'W1', {}, 404)).code, 'not_found');
    await approve(HOLDING, 'W3', { force: 'yes' }, 400);
    await approve(HOLDING, 'W3', { forced: true }, 400);
    await approve(HOLDING, 'bad/wave', {}, 404);
  });
});
