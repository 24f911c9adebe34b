/**
 * The state table as SQL: the builder's fragments, every trigger run on a database from every
 * state, and a scan of src/ that fails on a status (or event) written by hand.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startSql, transitionSql } from '../../src/account-import/process-state-sql.ts';
import { recordTransition } from '../../src/account-import/process-transitions.queries.ts';
import { markProcessed } from '../../src/account-import/queue/queue.queries.ts';
import { sql } from '../../src/infra/db/db.ts';
import {
  IMPORT_PROCESS_STATUSES,
  IMPORT_PROCESS_TRANSITIONS,
  IMPORT_PROCESS_TRIGGERS,
  type ImportProcessStatus,
} from '../../src/vocabulary/import-process-states.ts';
import { createTestDb, type TestDb } from '../helpers/test-db.ts';

describe('the state-table SQL builder', () => {
  it("sets a trigger's target state, its latest event and modified_at, and checks its from-states", () => {
    const t = transitionSql('retry', { at: '$2::timestamptz', data: '$3::jsonb', alias: 'p' });
    assert.equal(
      t.set,
      "status = 'PENDING', latest_event = jsonb_build_object('event', 'EVENT_ACCOUNT_IMPORT_PROCESS_RETRIED', " +
        "'occurred_at', to_jsonb($2::timestamptz), 'data', $3::jsonb), modified_at = $2::timestamptz",
    );
    assert.equal(t.from, "p.status IN ('ERRORED')");
    assert.match(
      t.events('moved'),
      /^INSERT INTO import_process_events \(import_process_id, event, occurred_at, data\)\s+SELECT m\.id, 'EVENT_ACCOUNT_IMPORT_PROCESS_RETRIED', \$2::timestamptz, \$3::jsonb FROM moved m$/,
    );
    assert.equal(
      transitionSql('cancel', { at: 'now()' }).from,
      `status IN (${"'STAGED', 'PENDING', 'ERRORED', 'DRY_RUN_SUCCEEDED', 'DRY_RUN_ERRORED'"})`,
    );
  });

  it('writes NULL event data unless told, and each from-list as the table has it', () => {
    for (const trigger of IMPORT_PROCESS_TRIGGERS) {
      const { from, to, event } = IMPORT_PROCESS_TRANSITIONS[trigger];
      const t = transitionSql(trigger, { at: 'now()' });
      assert.ok(t.set.startsWith(`status = '${to}', `), trigger);
      assert.ok(t.set.includes(`'event', '${event}'`), trigger);
      assert.ok(t.set.includes("'data', NULL"), trigger);
      assert.equal(t.from, `status IN (${from.map((s) => `'${s}'`).join(', ')})`);
    }
  });

  it('chooses one of two triggers by a column, and refuses two that start from different states', () => {
    const t = transitionSql(
      { column: 'is_dry_run', ifTrue: 'expire_dry_run_window', ifFalse: 'expire_window' },
      { at: 'now()' },
    );
    assert.match(t.set, /^status = CASE WHEN is_dry_run THEN 'DRY_RUN_ERRORED' ELSE 'ERRORED' END, /);
    assert.match(
      t.events('x'),
      /CASE WHEN m\.is_dry_run THEN '\w+_DRY_RUN_ERRORED' ELSE '\w+_PROCESS_ERRORED' END/,
    );
    assert.equal(t.from, "status IN ('PENDING')");
    assert.throws(
      () => transitionSql({ column: 'is_dry_run', ifTrue: 'claim', ifFalse: 'cancel' }, { at: 'now()' }),
      /claim and cancel start from different states/,
    );
  });

  it('starts a new process in the first state of a trigger that may start one', () => {
    const s = startSql('stage', { at: '$4::timestamptz' });
    assert.equal(s.columns, 'status, latest_event');
    assert.equal(
      s.values,
      "'STAGED', jsonb_build_object('event', 'EVENT_ACCOUNT_IMPORT_PROCESS_STAGED', 'occurred_at', to_jsonb($4::timestamptz), 'data', NULL)",
    );
    assert.match(
      s.events('created'),
      /SELECT c\.id, 'EVENT_ACCOUNT_IMPORT_PROCESS_STAGED', \(c\.latest_event->>'occurred_at'\)::timestamptz, NULL FROM created c$/,
    );
  });

  it('refuses a column, alias or CTE name that is not a plain identifier', () => {
    assert.throws(() => transitionSql('cancel', { at: 'now()', alias: 'p; DROP' }), /not a column or alias/);
    assert.throws(() => transitionSql('cancel', { at: 'now()' }).events('moved m'), /not a column or alias/);
    assert.throws(
      () => transitionSql({ column: 'x OR true', ifTrue: 'fail', ifFalse: 'dry_run_fail' }, { at: 'now()' }),
      /not a column or alias/,
    );
  });
});

describe('every trigger on the database, from every state', () => {
  let tdb: TestDb;
  before(async () => {
    tdb = await createTestDb();
    await tdb.db.query(sql('', "INSERT INTO import_suppliers (code, document_root) VALUES ('SQL', 'sql')"));
  });
  after(() => tdb.cleanup());

  const insert = sql(
    '',
    `INSERT INTO import_processes (import_supplier, external_account_number, status, payload, latest_event)
     VALUES ('SQL', $1, $2, '{}', '{"event": "SEEDED", "occurred_at": "2026-01-01T00:00:00Z", "data": null}')
     RETURNING id`,
  );
  const state = sql(
    '',
    `SELECT p.status, p.latest_event->>'event' AS latest, p.latest_event->'data' AS data,
            array(SELECT e.event FROM import_process_events e WHERE e.import_process_id = p.id ORDER BY e.id) AS events
       FROM import_processes p WHERE p.id = $1`,
  );
  const seed = async (external: string, status: ImportProcessStatus) =>
    (await tdb.db.query<{ id: string }>(insert, [external, status])).rows[0].id;
  const read = async (id: string) =>
    (await tdb.db.query<{ status: string; latest: string; data: unknown; events: string[] }>(state, [id]))
      .rows[0];

  for (const trigger of IMPORT_PROCESS_TRIGGERS) {
    it(`${trigger} moves exactly the processes in its from-states, each with its event`, async () => {
      const { from, to, event } = IMPORT_PROCESS_TRANSITIONS[trigger];
      for (const status of IMPORT_PROCESS_STATUSES) {
        const id = await seed(`${trigger}-${status}`, status);
        const allowed = (from as readonly string[]).includes(status);
        const moving = tdb.db.transaction((tx) =>
          recordTransition(tx, id, trigger, { data: { by: 'test' } }),
        );
        if (allowed) {
          await moving;
          assert.deepEqual(await read(id), {
            status: to,
            latest: event,
            data: { by: 'test' },
            events: [event],
          });
        } else {
          await assert.rejects(moving, /the state table refuses/);
          assert.deepEqual(await read(id), { status, latest: 'SEEDED', data: null, events: [] }, status);
        }
      }
    });
  }

  it('markProcessed moves only processes IN_PROGRESS, and counts what it moved', async () => {
    const held = await seed('mark-held', 'IN_PROGRESS');
    const cancelled = await seed('mark-cancelled', 'CANCELLED');
    const account = sql(
      '',
      "INSERT INTO accounts (number, import_supplier, external_account_number) VALUES ($1, 'SQL', $1) RETURNING id",
    );
    const [a1, a2] = await Promise.all(
      ['A-MARK-1', 'A-MARK-2'].map(
        async (n) => (await tdb.db.query<{ id: string }>(account, [n])).rows[0].id,
      ),
    );
    const marked = await tdb.db.query(markProcessed, [[held, cancelled], [a1, a2], new Date()]);
    assert.equal(marked.rowCount, 1);
    assert.equal((await read(held)).status, 'PROCESSED');
    assert.deepEqual((await read(cancelled)).events, []);
    assert.equal((await read(cancelled)).status, 'CANCELLED');
  });
});

/**
 * Where a statement in `source` writes a process's status or latest event, or an event row,
 * without the builder: the SET of an UPDATE of import_processes naming status or latest_event,
 * an INSERT into import_processes naming them, any INSERT into import_process_events.
 */
function handWrittenStateWrites(source: string): string[] {
  const found: string[] = [];
  const updates =
    /UPDATE\s+import_processes\b(?:\s+(?:AS\s+)?\w+)?\s+SET\s+([\s\S]*?)(?=\bWHERE\b|\bFROM\b|\bRETURNING\b|`|$)/gi;
  for (const m of source.matchAll(updates)) {
    if (/(^|,)\s*(\w+\.)?(status|latest_event)\s*=/i.test(m[1])) found.push(m[0]);
  }
  for (const m of source.matchAll(/INSERT\s+INTO\s+import_processes\s*\(([^)]*)\)/gi)) {
    if (/\b(status|latest_event)\b/i.test(m[1])) found.push(m[0]);
  }
  for (const m of source.matchAll(/INSERT\s+INTO\s+import_process_events\b/gi)) found.push(m[0]);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('state changes go through the state table', () => {
  const BUILDER = join('src', 'account-import', 'process-state-sql.ts');

  it('no statement in src/ writes a status, a latest event or an event row by hand', () => {
    const offenders = sourceFiles('src')
      .filter((path) => path !== BUILDER)
      .flatMap((path) =>
        handWrittenStateWrites(readFileSync(path, 'utf8')).map(
          (sqlText) => `${relative('.', path)}: ${sqlText.replace(/\s+/g, ' ').slice(0, 120)}`,
        ),
      );
    assert.deepEqual(offenders, []);
  });

  it('the statements that move processes all take their SQL from the builder', () => {
    const users = sourceFiles('src').filter((path) =>
      /\b(transitionSql|startSql)\(/.test(readFileSync(path, 'utf8')),
    );
    assert.deepEqual(users.map((p) => relative('src', p)).sort(), [
      'account-import/process-state-sql.ts',
      'account-import/process-transitions.queries.ts',
      'account-import/queue/queue.queries.ts',
      'account-import/scheduling/scheduling.queries.ts',
      'account-import/staging/staging.queries.ts',
      'account-import/waves/wave-rollback.queries.ts',
    ]);
  });

  it('the scan finds the hand-written writes it is there for', () => {
    const samples = [
      "`UPDATE import_processes SET status = 'PENDING' WHERE id = $1`",
      "`UPDATE import_processes p SET attempts = 0, status = 'PENDING' FROM x WHERE p.id = x.id`",
      '`UPDATE import_processes SET latest_event = $2, modified_at = now() WHERE id = $1`',
      "`INSERT INTO import_processes (import_supplier, status, payload) VALUES ($1, 'PENDING', '{}')`",
      "`INSERT INTO import_process_events (import_process_id, event) SELECT id, 'X' FROM moved`",
    ];
    for (const sample of samples) assert.equal(handWrittenStateWrites(sample).length, 1, sample);
    const fine = [
      '`UPDATE import_processes SET locked_until = now() WHERE id = $1 AND status = $2`',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text, as the scan reads it
      '`UPDATE import_processes SET ${t.set}, locked_by = NULL WHERE ${t.from}`',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text, as the scan reads it
      '`INSERT INTO import_processes (import_supplier, payload, ${s.columns}) VALUES ($1, $2, ${s.values})`',
      "`UPDATE import_suppliers SET status = 'Paused'`",
    ];
    for (const sample of fine) assert.deepEqual(handWrittenStateWrites(sample), [], sample);
  });
});
