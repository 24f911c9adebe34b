import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { createTestDb, type TestDb, usingPostgresServer } from '../helpers/test-db.ts';

const ACCOUNTS = 5_000;

/**
 * Two worker processes share one PostgreSQL; one is SIGKILLed again and again mid-run. Every
 * account must be created exactly once and every process end PROCESSED. Needs a server
 * (PGlite cannot be shared between processes), so it runs in the DATABASE_URL suite.
 */
describe('worker processes killed mid-run', {
  skip: !usingPostgresServer() && 'needs DATABASE_URL (a PostgreSQL server)',
}, () => {
  let tdb: TestDb;
  const children = new Set<ChildProcess>();

  before(async () => {
    tdb = await createTestDb();
    await tdb.db.query(
      sql('', "INSERT INTO import_suppliers (code, document_root) VALUES ('CRASH', 'crash')"),
    );
    const rows = Array.from({ length: ACCOUNTS }, (_, i) => accountFor('CRASH', i + 1));
    for (let i = 0; i < rows.length; i += 1000) {
      await tdb.db.query(
        sql(
          '',
          `INSERT INTO import_processes (import_supplier, external_account_number, status, payload, latest_event)
           SELECT 'CRASH', p->>'external_account_number', 'PENDING', p,
                  '{"event": "EVENT_ACCOUNT_IMPORT_PROCESS_CREATED", "occurred_at": "2026-01-01T00:00:00Z", "data": null}'
             FROM jsonb_array_elements($1::jsonb) p`,
        ),
        [JSON.stringify(rows.slice(i, i + 1000))],
      );
    }
  });
  after(async () => {
    for (const c of children) c.kill('SIGKILL');
    await tdb?.cleanup();
  });

  function spawnWorker(): ChildProcess {
    const child = spawn(process.execPath, ['bin/ferry.js', 'worker'], {
      env: {
        ...process.env,
        DATABASE_URL: tdb.url,
        WORKER_LEASE_SECONDS: '3',
        WORKER_CONCURRENCY: '8',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.add(child);
    child.on('exit', () => children.delete(child));
    return child;
  }

  const processed = async () =>
    (
      await tdb.db.query<{ n: number }>(
        sql('', "SELECT count(*)::int AS n FROM import_processes WHERE status = 'PROCESSED'"),
      )
    ).rows[0].n;

  it('creates every account exactly once', async () => {
    const steady = spawnWorker();
    let victim = spawnWorker();
    const kills: number[] = [];
    const deadline = Date.now() + 300_000;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      const done = await processed();
      if (done === ACCOUNTS) break;
      // Kill the victim at about 20%, 45% and 70%, each time while it holds claimed work.
      const next = [0.2, 0.45, 0.7][kills.length];
      if (next !== undefined && done >= ACCOUNTS * next) {
        victim.kill('SIGKILL');
        kills.push(done);
        await new Promise((r) => victim.once('exit', r));
        victim = spawnWorker();
      }
    }
    steady.kill('SIGTERM');
    victim.kill('SIGTERM');
    console.log(`killed a worker at ${kills.join(', ')} processed accounts`);
    assert.equal(kills.length, 3);

    const q = async <T>(text: string) => (await tdb.db.query<T>(sql('', text))).rows[0];
    assert.deepEqual(await q("SELECT count(*)::int AS n FROM import_processes WHERE status <> 'PROCESSED'"), {
      n: 0,
    });
    assert.deepEqual(await q('SELECT count(*)::int AS n FROM accounts'), { n: ACCOUNTS });
    assert.deepEqual(await q('SELECT count(*)::int AS n FROM meter_points'), { n: ACCOUNTS * 2 });
    assert.deepEqual(await q('SELECT count(*)::int AS n FROM transactions'), { n: ACCOUNTS * 4 });
    assert.deepEqual(
      await q(
        `SELECT count(*)::int AS n FROM (SELECT import_process_id FROM import_process_events
          WHERE event = 'EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED' GROUP BY 1 HAVING count(*) > 1) x`,
      ),
      { n: 0 },
    );
    assert.deepEqual(
      await q(
        'SELECT count(*)::int AS n FROM import_processes p JOIN accounts a ON a.id = p.account_id WHERE a.external_account_number = p.external_account_number',
      ),
      { n: ACCOUNTS },
    );
  });
});
