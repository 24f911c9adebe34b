/**
 * `ferry events tail` as the real binary against the service on a loopback socket: the whole
 * feed in order, across pages; --after resuming exactly after a cursor; --json lines; --follow
 * hearing an event written while it waits, and ending on SIGTERM with the cursor to resume from.
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { FeedEvent } from '../../src/events/event-feed.ts';
import { type Db, sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { importAccounts } from '../helpers/imported-accounts.ts';
import { listeningTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { feedSettled } from '../helpers/test-db.ts';

const SUPPLIER = 'TAILED';
const OTHER = 'UNTAILED';
const PAGED = 'TAILED_PAGED';

// Follow-up events written straight into the feed's table (what a note import writes), `n` in one statement.
const insertNotes = sql(
  '',
  `INSERT INTO events (import_supplier, external_account_number, type, occurred_at, data)
   SELECT $1, 'EXT-' || lpad(i::text, 7, '0'), 'EVENT_NOTE_ADDED', now(), jsonb_build_object('n', i)
     FROM generate_series(1, $2::int) i`,
);
const addNotes = (db: Db, supplier: string, n: number) => db.query(insertNotes, [supplier, n]);

describe('ferry events tail', () => {
  let t: TestApp;
  let env: Record<string, string>;
  let headers: Record<string, string>;
  const running = new Set<ChildProcessWithoutNullStreams>();

  before(async () => {
    ({ t, env } = await listeningTestApp());
    let apiKey: string;
    ({ apiKey, headers } = await tokenFor(t.app, [SUPPLIER, PAGED]));
    env = { ...env, FERRY_API_KEY: apiKey };
    const other = await tokenFor(t.app, [OTHER]);
    await importAccounts(
      t,
      headers,
      [1, 2, 3].map((n) => accountFor(SUPPLIER, n)),
    );
    await importAccounts(t, other.headers, [accountFor(OTHER, 4)]);
    await addNotes(t.db, PAGED, 1_005);
    // On a shared server, another test file's open transaction may hold the feed below these writes.
    await feedSettled(t.db);
  });
  after(async () => {
    for (const child of running) child.kill('SIGKILL');
    await t?.close();
  });

  /** The feed as the service gives it, every page (what the command's output must match). */
  async function feed(supplier: string): Promise<FeedEvent[]> {
    const events: FeedEvent[] = [];
    let cursor = '';
    for (;;) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/v2/data-import/events/?import_supplier=${supplier}&limit=1000${cursor ? `&after=${cursor}` : ''}`,
        headers,
      });
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json() as { events: FeedEvent[]; next_cursor: string };
      events.push(...page.events);
      if (page.events.length === 0) return events;
      cursor = page.next_cursor;
    }
  }

  /** `ferry events tail …` started; its output so far, and its end. */
  function start(args: string[], extraEnv: Record<string, string> = {}) {
    const child = spawn(process.execPath, ['bin/ferry.js', 'events', 'tail', ...args], {
      env: { ...process.env, ...env, ...extraEnv },
    });
    running.add(child);
    const run = { child, stdout: '', stderr: '' };
    child.stdout.on('data', (d) => {
      run.stdout += d;
    });
    child.stderr.on('data', (d) => {
      run.stderr += d;
    });
    const exit = new Promise<number | null>((resolve) =>
      child.on('close', (code) => {
        running.delete(child);
        resolve(code);
      }),
    );
    return { run, exit };
  }

  async function tail(args: string[], extraEnv: Record<string, string> = {}) {
    const { run, exit } = start(args, extraEnv);
    const code = await exit;
    return { code, stdout: run.stdout, stderr: run.stderr, lines: run.stdout.split('\n').filter(Boolean) };
  }

  /** Waits until `check` holds of what the command has written so far. */
  async function until(run: { stdout: string; stderr: string }, check: () => boolean, what: string) {
    const deadline = Date.now() + 30_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`no ${what} after 30 s: ${run.stdout}${run.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('prints every event of the scheduled accounts in order, one line each, and stops at the end', async () => {
    const events = await feed(SUPPLIER);
    for (const n of [1, 2, 3]) {
      const types = events.filter((e) => e.external_account_number === `EXT-000000${n}`).map((e) => e.type);
      assert.ok(types.includes('EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED'), types.join(', '));
    }
    const out = await tail(['--supplier', SUPPLIER]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.lines.length, events.length);
    out.lines.forEach((line, i) => {
      const e = events[i];
      assert.match(
        line,
        new RegExp(`^${e.id} +${e.occurred_at} +${e.type} +${e.external_account_number ?? '-'}$`),
      );
    });
    assert.ok(!out.stdout.includes(OTHER), 'another supplier’s events are not in this feed');
    const last = events.at(-1)!.id;
    assert.match(out.stderr, new RegExp(`End of the feed at cursor ${last}: resume with --after ${last}`));
  });

  it('reads a long feed page after page', async () => {
    const out = await tail(['--supplier', PAGED, '--json']);
    assert.equal(out.code, 0, out.stderr);
    const notes = out.lines.map((l) => JSON.parse(l) as FeedEvent);
    assert.equal(notes.length, 1_005);
    assert.deepEqual(
      notes.map((e) => e.data.n),
      Array.from({ length: 1_005 }, (_, i) => i + 1),
    );
  });

  it('--json prints each event as one JSON line, as the feed gives it', async () => {
    const out = await tail(['--supplier', SUPPLIER, '--json']);
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(
      out.lines.map((l) => JSON.parse(l)),
      await feed(SUPPLIER),
    );
  });

  it('--after resumes exactly after the cursor, and --types keeps only those types', async () => {
    const events = await feed(SUPPLIER);
    for (const k of [0, 3, events.length - 1]) {
      const out = await tail(['--supplier', SUPPLIER, '--json', '--after', events[k].id]);
      assert.equal(out.code, 0, out.stderr);
      assert.deepEqual(
        out.lines.map((l) => (JSON.parse(l) as FeedEvent).id),
        events.slice(k + 1).map((e) => e.id),
      );
    }
    const processed = await tail([
      '--supplier',
      SUPPLIER,
      '--json',
      '--types',
      'EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED',
    ]);
    assert.deepEqual(
      processed.lines.map((l) => (JSON.parse(l) as FeedEvent).id),
      events.filter((e) => e.type === 'EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED').map((e) => e.id),
    );
  });

  it('--follow prints an event written while it waits, and ends on SIGTERM with the cursor', async () => {
    const events = await feed(SUPPLIER);
    // Started one event before the end: that event printed means it has read its first page.
    const { run, exit } = start(['--supplier', SUPPLIER, '--json', '--follow', '--after', events.at(-2)!.id]);
    await until(run, () => run.stdout.includes(events.at(-1)!.id), 'first event');
    await new Promise((r) => setTimeout(r, 700)); // at least one empty page: it is waiting
    await addNotes(t.db, SUPPLIER, 1);
    await feedSettled(t.db);
    const [written] = (await feed(SUPPLIER)).slice(events.length);
    assert.equal(written.type, 'EVENT_NOTE_ADDED');
    await until(run, () => run.stdout.includes(written.id), 'new event');
    run.child.kill('SIGTERM');
    assert.equal(await exit, 0, run.stderr);
    const lines = run.stdout.split('\n').filter(Boolean);
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as FeedEvent).id),
      [events.at(-1)!.id, written.id],
    );
    assert.match(
      run.stderr,
      new RegExp(`Stopped at cursor ${written.id}: resume with --after ${written.id}`),
    );
    // Resumed from that cursor, nothing is left to print.
    const resumed = await tail(['--supplier', SUPPLIER, '--after', written.id]);
    assert.deepEqual(resumed.lines, []);
  });

  it('--follow ends at once on SIGINT while waiting for events', async () => {
    // Interrupted once it has asked for a page (so it has started following, not merely loading:
    // a machine busy with other test files may take more than a second to start a process).
    let pages = 0;
    const onRequest = (req: { url?: string }) => {
      if (req.url?.startsWith('/v2/data-import/events/')) pages++;
    };
    t.app.server.on('request', onRequest);
    const { run, exit } = start(['--supplier', SUPPLIER, '--follow', '--after', 'now']);
    try {
      await until(run, () => pages >= 2, 'a page asked for while waiting');
    } finally {
      t.app.server.off('request', onRequest);
    }
    run.child.kill('SIGINT');
    assert.equal(await exit, 0, run.stderr);
    assert.equal(run.stdout, '');
  });

  it('exits 1 with the service’s detail when refused, and 2 on bad usage', async () => {
    const badCursor = await tail(['--supplier', SUPPLIER, '--after', 'not-a-cursor']);
    assert.equal(badCursor.code, 1);
    assert.match(
      badCursor.stderr,
      /HTTP 400 validation_error .*\n {2}after: invalid_cursor \(Not a cursor of this feed\.\)/,
    );
    const badType = await tail(['--supplier', SUPPLIER, '--types', 'EVENT_NOTHING']);
    assert.equal(badType.code, 1);
    assert.match(badType.stderr, /types\.0: unknown_event_type/);
    const otherSupplier = await tail(['--supplier', OTHER]);
    assert.equal(otherSupplier.code, 1);
    assert.match(otherSupplier.stderr, /HTTP 403/);
    const badKey = await tail(['--supplier', SUPPLIER], { FERRY_API_KEY: 'ferry_not-a-key' });
    assert.equal(badKey.code, 1);
    assert.match(badKey.stderr, /refused the API key/);
    const noSupplier = await tail([]);
    assert.equal(noSupplier.code, 2);
    assert.match(noSupplier.stderr, /--supplier is required/);
    assert.equal((await tail(['--supplier', SUPPLIER, '--folow'])).code, 2);
  });
});
