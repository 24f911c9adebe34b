import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { startWorker, type WorkerHandle } from '../../src/account-import/queue/worker.ts';
import { scheduleImportProcess } from '../../src/account-import/scheduling/scheduling.queries.ts';
import { type FerryConfig, loadConfig } from '../../src/config.ts';
import { type Db, sql } from '../../src/infra/db/db.ts';
import { openPgDb } from '../../src/infra/db/pg-db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { eventually, holdTableLock } from '../helpers/db-faults.ts';
import { hostAndPort, startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { createTestDb, type TestDb, usingPostgresServer } from '../helpers/test-db.ts';

const quiet = { info() {}, warn() {}, error() {} };

interface ProcessState {
  status: string;
  attempts: number;
  errored_events: number;
  accounts: number;
}

/**
 * docs/product.md, Database stalls: a worker never marks an account ERRORED because the
 * database was unavailable. The process is left for a later attempt and created once the
 * database is back. Statement timeouts and lost connections need a server, so this runs with
 * DATABASE_URL.
 */
describe('worker and an unavailable database', {
  skip: !usingPostgresServer() && 'needs DATABASE_URL (a PostgreSQL server)',
}, () => {
  let tdb: TestDb;
  let config: FerryConfig;
  let n = 0;
  const cleanups: (() => Promise<unknown>)[] = [];

  before(async () => {
    tdb = await createTestDb();
    config = loadConfig({ DATA_DIR: '.tmp/test-data', WORKER_CONCURRENCY: '10' });
    await tdb.db.query(sql('', "INSERT INTO import_suppliers (code, document_root) VALUES ('WF', 'wf')"));
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  after(() => tdb?.cleanup());

  async function stage(): Promise<string> {
    const payload = accountFor('WF', ++n);
    const external = String(payload.external_account_number);
    await scheduleImportProcess(tdb.db, {
      supplier: 'WF',
      externalAccountNumber: external,
      payload,
      isDryRun: false,
      scheduleWindowStart: new Date(),
      scheduleWindowEnd: new Date(Date.now() + 86400e3),
      explicitWindow: false,
    });
    return external;
  }

  const state = async (external: string): Promise<ProcessState> =>
    (
      await tdb.db.query<ProcessState>(
        sql(
          '',
          `SELECT p.status, p.attempts,
                  (SELECT count(*)::int FROM import_process_events e
                    WHERE e.import_process_id = p.id AND e.event LIKE '%ERRORED') AS errored_events,
                  (SELECT count(*)::int FROM accounts a
                    WHERE a.import_supplier = p.import_supplier AND a.external_account_number = p.external_account_number) AS accounts
             FROM import_processes p WHERE p.import_supplier = 'WF' AND p.external_account_number = $1`,
        ),
        [external],
      )
    ).rows[0];

  function startCleanedUpWorker(db: Db, leaseSeconds: number): WorkerHandle {
    const worker = startWorker(config, { db, logger: quiet, leaseSeconds, idlePollMs: 50 });
    cleanups.push(() => worker.stop());
    return worker;
  }

  async function lockAccounts() {
    const unlock = await holdTableLock(tdb.db, 'accounts', 'SHARE');
    let unlocked: Promise<void> | undefined;
    const once = () => (unlocked ??= unlock());
    cleanups.push(once);
    return once;
  }

  it('a statement timeout is retried with backoff, not ERRORED, and the account is created after', async () => {
    const external = await stage();
    const db = await openPgDb({ connectionString: tdb.url!, statementTimeoutMs: 300 });
    cleanups.push(() => db.close());
    // The account's INSERT waits on the lock (reads go on) until the statement timeout cancels it.
    const unlock = await lockAccounts();
    startCleanedUpWorker(db, 60);
    const retried = await eventually(async () => {
      const s = await state(external);
      assert.notEqual(s.status, 'ERRORED', 'ended ERRORED by a statement timeout');
      return s.attempts >= 2 ? s : undefined;
    }, 'a second attempt');
    assert.notEqual(retried.status, 'ERRORED');
    assert.equal(retried.errored_events, 0);
    await unlock();
    const done = await eventually(async () => {
      const s = await state(external);
      return s.status === 'PROCESSED' ? s : undefined;
    }, 'PROCESSED once the lock is gone');
    assert.equal(done.errored_events, 0);
    assert.equal(done.accounts, 1);
  });

  describe('connections lost and the server unreachable', () => {
    let proxy: TcpProxy;
    before(async () => {
      proxy = await startTcpProxy(hostAndPort(tdb.url!));
    });
    after(() => proxy.close());

    it('leaves the process for retry, and creates it once the database is back (well before the lease ends)', async () => {
      const externals = [await stage(), await stage(), await stage()];
      const db = await openPgDb({ connectionString: proxy.url(tdb.url!), connectionTimeoutMs: 500 });
      cleanups.push(
        () => db.close(),
        async () => proxy.cutAll(),
      );
      const unlock = await lockAccounts();
      // A lease far longer than the test: recovery must not wait for it to expire.
      startCleanedUpWorker(db, 120);
      // The worker claimed the batch and waits on the lock, mid-creation.
      await eventually(async () => {
        const states = await Promise.all(externals.map(state));
        return states.every((s) => s.status === 'IN_PROGRESS') ? true : undefined;
      }, 'claimed');
      await new Promise((r) => setTimeout(r, 200));

      // The database goes away: open connections reset, new ones refused.
      proxy.mode = 'refuse';
      proxy.cutAll();
      await new Promise((r) => setTimeout(r, 1_500));
      await unlock();
      for (const external of externals) {
        const s = await state(external);
        assert.equal(s.status, 'IN_PROGRESS', 'still held for retry while the database is away');
        assert.equal(s.errored_events, 0);
        assert.equal(s.accounts, 0, 'the cut transaction committed nothing');
      }

      proxy.mode = 'forward';
      for (const external of externals) {
        const done = await eventually(
          async () => {
            const s = await state(external);
            return s.status === 'PROCESSED' ? s : undefined;
          },
          `${external} PROCESSED after the database came back`,
          20_000,
        );
        assert.equal(done.errored_events, 0);
        assert.equal(done.accounts, 1);
      }
    });
  });
});
