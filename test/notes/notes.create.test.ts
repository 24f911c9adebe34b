import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { findImportedAccount } from '../../src/accounts/imported-account.ts';
import { pinnedNotes } from '../../src/follow-ups/notes/notes.queries.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { importAccounts, stageAccount } from '../helpers/imported-accounts.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

const SUPPLIER = 'TENTACLE_ENERGY';
const ROOT = 'tentacle/docs';
const URL_ = '/v1/data-import/notes/create/';
// The reference's notes example (test/fixtures/reference-examples/; its unpin_at lies in the past:
// see the example test).
const example = (): Obj =>
  JSON.parse(readFileSync(new URL('../fixtures/reference-examples/notes.json', import.meta.url), 'utf8'));

describe('POST /v1/data-import/notes/create/', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let n = 0;
  const accounts: string[] = [];
  let staged: string;

  const post = (payload: unknown) =>
    t.app.inject({ method: 'POST', url: URL_, headers, payload: payload as never });
  /** A fresh imported account (so each test sees only its own notes). */
  const account = () => accounts[n++];
  const body = (ext: string, notes: unknown[]) => ({
    import_supplier: SUPPLIER,
    external_account_number: ext,
    notes,
  });
  /** Notes the account import itself created (the example account carries some). */
  const baseline = new Map<string, number>();
  const allNotes = async (ext: string) => {
    const a = await findImportedAccount(t.db, SUPPLIER, ext);
    const { rows } = await t.db.query<{ n: number }>(
      sql('', 'SELECT count(*)::int AS n FROM notes WHERE account_id = $1'),
      [a.id],
    );
    return rows[0].n;
  };
  /** Notes added since the account was imported. */
  const countNotes = async (ext: string) => (await allNotes(ext)) - (baseline.get(ext) ?? 0);
  const codes = (res: { json(): Obj }) =>
    res.json().errors.map((e: Obj) => `${e.attr}:${e.code}`) as string[];

  before(async () => {
    t = await createTestApp();
    ({ headers } = await tokenFor(t.app, [SUPPLIER, 'STAGED'], [SUPPLIER, 'STAGED']));
    await admin(t.app, 'PATCH', `/import-suppliers/${SUPPLIER}/`, { document_root: ROOT }, 200);
    staged = await stageAccount(t, headers, accountFor('STAGED', 999));
    await admin(t.app, 'PATCH', '/import-suppliers/STAGED/', { status: 'Paused' }, 200);
    accounts.push(
      ...(await importAccounts(
        t,
        headers,
        Array.from({ length: 19 }, (_, i) => accountFor(SUPPLIER, 501 + i)),
      )),
    );
    for (const ext of accounts) baseline.set(ext, await allNotes(ext));
    await t.objectStore.put(`${ROOT}/some/path/to/a/document.pdf`, Buffer.from('%PDF-1.4 test'));
    await t.objectStore.put(`${ROOT}/letters/a.pdf`, Buffer.from('%PDF-1.4 a'));
  });
  after(() => t.close());

  it('creates the reference example notes (201, one result per note, wire datetimes)', async () => {
    const ext = account();
    const payload: Obj = { ...example(), import_supplier: SUPPLIER, external_account_number: ext };
    // The example's unpin_at (2020-06-01) is before "now", the default created_at of its pinned
    // note; the pinned note is given a created_at before it.
    payload.notes[0].created_at = '2020-01-01T09:00:00Z';
    const res = await post(payload);
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(res.json(), [
      {
        created_at: '2020-01-01T09:00:00Z',
        body: 'Some important pinned note.',
        status: 'NOTE_CREATION_SUCCESS',
      },
      {
        created_at: '2020-02-01T12:00:00Z',
        body: 'Some important note with an attachment.',
        status: 'NOTE_CREATION_SUCCESS',
      },
    ]);
    const a = await findImportedAccount(t.db, SUPPLIER, ext);
    const { rows } = await t.db.query<Obj>(
      sql(
        '',
        'SELECT body, document_paths, is_pinned, unpin_at FROM notes WHERE account_id = $1 AND body = ANY($2) ORDER BY created_at',
      ),
      [a.id, payload.notes.map((x: Obj) => x.body)],
    );
    assert.equal(rows.length, 2);
    assert.equal(rows[0].is_pinned, true);
    assert.equal(new Date(rows[0].unpin_at).toISOString(), '2020-06-01T12:00:00.000Z');
    assert.deepEqual(rows[1].document_paths, ['some/path/to/a/document.pdf']);
  });

  it('defaults created_at to now and answers it in the wire format', async () => {
    const before = Date.now();
    const res = await post(body(account(), [{ body: 'No date given.' }]));
    assert.equal(res.statusCode, 201, res.body);
    const [r] = res.json();
    assert.match(r.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.ok(Math.abs(Date.parse(r.created_at) - before) < 5_000);
    assert.equal(r.status, 'NOTE_CREATION_SUCCESS');
  });

  it('accepts created_at with an offset and a fraction, storing the instant', async () => {
    const res = await post(
      body(account(), [{ body: 'Offset.', created_at: '2021-03-04T10:20:30.250+02:00' }]),
    );
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json()[0].created_at, '2021-03-04T08:20:30Z');
  });

  it('answers NOTE_ALREADY_EXISTS for the same body (no created_at given), and creates nothing', async () => {
    const ext = account();
    await post(body(ext, [{ body: 'Hello', created_at: '2020-01-01T00:00:00Z' }]));
    const res = await post(body(ext, [{ body: 'Hello' }, { body: 'Other' }]));
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(
      res.json().map((r: Obj) => [r.body, r.status, r.created_at]),
      [
        ['Hello', 'NOTE_ALREADY_EXISTS', '2020-01-01T00:00:00Z'],
        ['Other', 'NOTE_CREATION_SUCCESS', res.json()[1].created_at],
      ],
    );
    assert.equal(await countNotes(ext), 2);
  });

  it('creates a note with the same body but a different given created_at; the same created_at already exists', async () => {
    const ext = account();
    await post(body(ext, [{ body: 'Hi', created_at: '2020-01-01T00:00:00Z' }]));
    const res = await post(
      body(ext, [
        { body: 'Hi', created_at: '2020-01-02T00:00:00Z' },
        { body: 'Hi', created_at: '2020-01-01T01:00:00+01:00' },
      ]),
    );
    assert.deepEqual(
      res.json().map((r: Obj) => r.status),
      ['NOTE_CREATION_SUCCESS', 'NOTE_ALREADY_EXISTS'],
    );
    assert.equal(await countNotes(ext), 2);
  });

  it('counts duplicates within one request', async () => {
    const ext = account();
    const res = await post(body(ext, [{ body: 'Twice' }, { body: 'Twice' }]));
    assert.deepEqual(
      res.json().map((r: Obj) => r.status),
      ['NOTE_CREATION_SUCCESS', 'NOTE_ALREADY_EXISTS'],
    );
    assert.equal(await countNotes(ext), 1);
  });

  it('accepts a note with documents only (body answered as "")', async () => {
    const ext = account();
    const note = { document_paths: [{ document_path: '/letters/a.pdf' }] };
    const res = await post(body(ext, [note]));
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json()[0].body, '');
    const again = await post(
      body(ext, [note, { document_paths: [{ document_path: 'some/path/to/a/document.pdf' }] }]),
    );
    assert.deepEqual(
      again.json().map((r: Obj) => r.status),
      ['NOTE_ALREADY_EXISTS', 'NOTE_CREATION_SUCCESS'],
    );
  });

  it('accepts and stores external_id and is_archived (the reference fields)', async () => {
    const ext = account();
    const res = await post(
      body(ext, [
        {
          body: 'Archived one.',
          external_id: 'SRC-1',
          is_archived: true,
          created_at: '2020-01-01T00:00:00Z',
        },
        { body: 'Live one.', external_id: 'SRC-2', is_archived: false },
        { body: 'Plain one.' },
      ]),
    );
    assert.equal(res.statusCode, 201, res.body);
    const a = await findImportedAccount(t.db, SUPPLIER, ext);
    const { rows } = await t.db.query<Obj>(
      sql(
        '',
        'SELECT body, external_id, is_archived FROM notes WHERE account_id = $1 AND body = ANY($2) ORDER BY body',
      ),
      [a.id, ['Archived one.', 'Live one.', 'Plain one.']],
    );
    assert.deepEqual(rows, [
      { body: 'Archived one.', external_id: 'SRC-1', is_archived: true },
      { body: 'Live one.', external_id: 'SRC-2', is_archived: false },
      { body: 'Plain one.', external_id: null, is_archived: false },
    ]);
  });

  it('treats a note whose external_id is already on the account as NOTE_ALREADY_EXISTS (the reference de-duplication key)', async () => {
    const ext = account();
    await post(
      body(ext, [{ body: 'First wording.', external_id: 'SRC-9', created_at: '2020-01-01T00:00:00Z' }]),
    );
    const res = await post(
      body(ext, [
        { body: 'Second wording.', external_id: 'SRC-9' },
        { body: 'Another.', external_id: 'SRC-10' },
        { body: 'Another again.', external_id: 'SRC-10' },
        { body: 'First wording.', external_id: 'SRC-11' },
      ]),
    );
    assert.equal(res.statusCode, 201, res.body);
    assert.deepEqual(
      res.json().map((r: Obj) => [r.body, r.status]),
      [
        ['Second wording.', 'NOTE_ALREADY_EXISTS'],
        ['Another.', 'NOTE_CREATION_SUCCESS'],
        ['Another again.', 'NOTE_ALREADY_EXISTS'],
        // The same body is the same note, whatever its external_id (interface 4.1).
        ['First wording.', 'NOTE_ALREADY_EXISTS'],
      ],
    );
    assert.equal(await countNotes(ext), 2);
  });

  it('stores the external_id and is_archived of notes the account was migrated with, and de-duplicates on them', async () => {
    const migrated = accountFor(SUPPLIER, 599);
    Object.assign(migrated.notes[0], { external_id: 'MIGRATED-1', is_archived: true });
    const [ext] = await importAccounts(t, headers, [migrated]);
    const a = await findImportedAccount(t.db, SUPPLIER, ext);
    const { rows } = await t.db.query<Obj>(
      sql('', 'SELECT external_id, is_archived FROM notes WHERE account_id = $1'),
      [a.id],
    );
    assert.deepEqual(rows, [{ external_id: 'MIGRATED-1', is_archived: true }]);
    const res = await post(body(ext, [{ body: 'Reworded since.', external_id: 'MIGRATED-1' }]));
    assert.equal(res.json()[0].status, 'NOTE_ALREADY_EXISTS', res.body);
  });

  it('rejects external_id and is_archived of the wrong type', async () => {
    const res = await post(body(account(), [{ body: 'x', external_id: 7, is_archived: 'yes' }]));
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(codes(res), ['notes.0.external_id:invalid', 'notes.0.is_archived:invalid']);
  });

  it('reports every note error at once with attr paths, and creates nothing', async () => {
    const ext = account();
    const res = await post(
      body(ext, [
        { body: 'fine' },
        {},
        { body: '   ', document_paths: [] },
        { body: 'x', is_pinned: true, created_at: '2020-02-01T00:00:00Z', unpin_at: '2020-01-31T23:59:59Z' },
        { body: 'y', unpin_at: '2030-01-01T00:00:00Z' },
        { body: 'z', is_pinned: false, unpin_at: '2030-01-01T00:00:00Z' },
        {
          body: 'docs',
          document_paths: [
            { document_path: '../etc/passwd' },
            { document_path: 'missing.pdf' },
            { document_path: 'letters/a.pdf' },
            { document_path: 's3://bucket/x.pdf' },
          ],
        },
      ]),
    );
    assert.equal(res.statusCode, 400, res.body);
    const out = res.json();
    assert.equal(out.code, 'validation_error');
    assert.equal(typeof out.detail, 'string');
    assert.deepEqual(codes(res), [
      'notes.1:note_body_or_document_path_not_found',
      'notes.2:note_body_or_document_path_not_found',
      'notes.3.unpin_at:note_unpin_at_earlier_than_creation_date',
      'notes.4.unpin_at:note_unpin_at_requires_pinned',
      'notes.5.unpin_at:note_unpin_at_requires_pinned',
      'notes.6.document_paths.0.document_path:invalid_document_path',
      'notes.6.document_paths.1.document_path:path_does_not_exist_in_file_store',
      'notes.6.document_paths.3.document_path:invalid_document_path',
    ]);
    assert.equal(await countNotes(ext), 0);
  });

  it('compares unpin_at with the default created_at (now)', async () => {
    const res = await post(
      body(account(), [{ body: 'p', is_pinned: true, unpin_at: '2020-01-01T00:00:00Z' }]),
    );
    assert.deepEqual(codes(res), ['notes.0.unpin_at:note_unpin_at_earlier_than_creation_date']);
  });

  it('honours unpin_at: a note is pinned only until then', async () => {
    const ext = account();
    const res = await post(
      body(ext, [
        {
          body: 'until',
          is_pinned: true,
          created_at: '2020-01-01T00:00:00Z',
          unpin_at: '2020-06-01T00:00:00Z',
        },
        { body: 'forever', is_pinned: true, created_at: '2020-01-01T00:00:00Z' },
        { body: 'never', created_at: '2020-01-01T00:00:00Z' },
      ]),
    );
    assert.equal(res.statusCode, 201, res.body);
    const a = await findImportedAccount(t.db, SUPPLIER, ext);
    const at = async (iso: string) =>
      (await pinnedNotes(t.db, a.id, new Date(iso))).map((r) => r.body).sort();
    assert.deepEqual(await at('2020-05-31T23:59:59Z'), ['forever', 'until']);
    assert.deepEqual(await at('2020-06-01T00:00:00Z'), ['forever']);
  });

  it('rejects malformed datetimes, unknown fields and wrong types with the standard body', async () => {
    const res = await post({
      ...body(account(), [
        { body: 'a', created_at: '2020-02-30T00:00:00Z' },
        { body: 'b', created_at: '2020-01-01' },
        { body: 'c', colour: 'red' },
        { body: 'd', document_paths: [{ document_path: 'x.pdf', extra: 1 }] },
        { body: 5 },
      ]),
      surprise: true,
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().code, 'validation_error');
    const got = codes(res);
    for (const want of [
      'surprise:unknown_field',
      'notes.0.created_at:invalid_datetime',
      'notes.1.created_at:invalid_datetime',
      'notes.2.colour:unknown_field',
      'notes.3.document_paths.0.extra:unknown_field',
      'notes.4.body:invalid',
    ])
      assert.ok(got.includes(want), `${want} in ${got.join(', ')}`);
  });

  it('rejects 1001 notes with too_many_items and an empty list', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => ({ body: `n${i}` }));
    const res = await post(body(account(), many));
    assert.equal(res.statusCode, 400);
    assert.deepEqual(codes(res), ['notes:too_many_items']);
    const none = await post(body(accounts[0], []));
    assert.equal(none.statusCode, 400);
  });

  it('accepts 1000 notes', async () => {
    const ext = account();
    const res = await post(
      body(
        ext,
        Array.from({ length: 1000 }, (_, i) => ({ body: `n${i}` })),
      ),
    );
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(await countNotes(ext), 1000);
  });

  it('answers 404 not_found for a staged-only account and for wrong identifiers', async () => {
    for (const [supplier, ext] of [
      ['STAGED', staged],
      [SUPPLIER, 'NO-SUCH-ACCOUNT'],
      ['NOBODY', accounts[0]],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: URL_,
        headers: supplier === 'NOBODY' ? (await tokenFor(t.app, ['*'], [])).headers : headers,
        payload: { import_supplier: supplier, external_account_number: ext, notes: [{ body: 'x' }] },
      });
      assert.equal(res.statusCode, 404, `${supplier}/${ext}: ${res.body}`);
      assert.equal(res.json().code, 'not_found');
    }
  });

  it('creates exactly one note from 50 concurrent identical requests', async () => {
    const ext = account();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => post(body(ext, [{ body: 'Once only' }]))),
    );
    const statuses = results.map((r) => {
      assert.equal(r.statusCode, 201, r.body);
      return r.json()[0].status;
    });
    assert.equal(statuses.filter((s) => s === 'NOTE_CREATION_SUCCESS').length, 1);
    assert.equal(await countNotes(ext), 1);
  });
});
