import assert from 'node:assert/strict';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { findImportedAccount } from '../../src/accounts/imported-account.ts';
import { type Db, sql } from '../../src/infra/db/db.ts';
import { migrate } from '../../src/infra/db/migrate.ts';
import type { FileObjectStore } from '../../src/infra/storage/file-object-store.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { importAccounts } from '../helpers/imported-accounts.ts';
import { buildTestAppOn, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { createTestDb } from '../helpers/test-db.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

const PDF = Buffer.from('%PDF-1.7\nsecret of supplier B\n');

/**
 * Supplier A must never reach supplier B's documents: not by `..`, not by naming B's folder
 * (A's root was empty, the whole store, before migration 0006), not through a symlink placed in
 * A's folder, not when A's folder is itself a symlink into B's. Each attempt answers exactly as
 * a missing document does, and stores nothing.
 */
describe('documents of one supplier are out of reach of another', () => {
  let t: TestApp;
  let store: FileObjectStore;
  let headers: Record<string, string>;
  let external: string;
  let viaLinkExternal: string;

  before(async () => {
    // A and C were created before roots were required: A's root is empty, the whole store.
    const { db, cleanup } = await createTestDb({ migrateTo: 4 });
    const insert = sql('', 'INSERT INTO import_suppliers (code, document_root) VALUES ($1, $2)');
    await db.query(insert, ['A', '']);
    await db.query(insert, ['B', 'b']);
    await db.query(insert, ['C', 'c']);
    await migrate(db);
    const built = await buildTestAppOn(db);
    t = {
      ...built,
      db,
      close: async () => {
        await built.app.close();
        await cleanup();
      },
    };
    store = built.objectStore as FileObjectStore;
    ({ headers } = await tokenFor(t.app, ['A', 'C'], []));
    [external, viaLinkExternal] = await importAccounts(t, headers, [
      accountFor('A', 41),
      accountFor('C', 42),
    ]);

    await store.put('b/x.pdf', PDF);
    await store.put('a/own.pdf', PDF);
    await symlink('../b', join(store.root, 'a', 'link'));
    await symlink(join(store.root, 'b', 'x.pdf'), join(store.root, 'a', 'y.pdf'));
    await symlink('own.pdf', join(store.root, 'a', 'alias.pdf'));
    // C's folder is a symlink into B's.
    await mkdir(store.root, { recursive: true });
    await symlink('b', join(store.root, 'c'));
  });
  after(() => t.close());

  it('migrated the empty root to the code in lower case', async () => {
    const { rows } = await t.db.query<{ document_root: string }>(
      sql('', "SELECT document_root FROM import_suppliers WHERE code = 'A'"),
    );
    assert.equal(rows[0].document_root, 'a');
  });

  const counts = async (db: Db, supplier: string, ext: string) => {
    const a = await findImportedAccount(db, supplier, ext);
    const { rows } = await db.query<{ notes: number; statements: number }>(
      sql(
        '',
        `SELECT (SELECT count(*)::int FROM notes WHERE account_id = $1) AS notes,
                (SELECT count(*)::int FROM statements WHERE account_id = $1) AS statements`,
      ),
      [a.id],
    );
    return rows[0];
  };

  const attempt = async (app: FastifyInstance, supplier: string, ext: string, path: string) => {
    const note = await app.inject({
      method: 'POST',
      url: '/v1/data-import/notes/create/',
      headers,
      payload: {
        import_supplier: supplier,
        external_account_number: ext,
        notes: [{ body: `attach ${path}`, document_paths: [{ document_path: path }] }],
      },
    });
    const statement = await app.inject({
      method: 'POST',
      url: '/v1/data-import/historical-statements/create/',
      headers,
      payload: {
        import_supplier: supplier,
        external_account_number: ext,
        statements: [
          {
            statement_id: `s-${path}`,
            bill_period_from_date: '2019-06-01',
            bill_period_to_date: '2019-06-30',
            statement_path: path,
          },
        ],
      },
    });
    return [note, statement].map((res) => {
      assert.equal(res.statusCode, 400, `${path}: ${res.body}`);
      const body: Obj = res.json();
      assert.equal(body.errors.length, 1, res.body);
      assert.doesNotMatch(res.body, /secret|\/b\/|"b\//, 'nothing of B is echoed');
      return body.errors[0].code as string;
    });
  };

  for (const [path, code] of [
    ['../b/x.pdf', 'invalid_document_path'],
    ['/../b/x.pdf', 'invalid_document_path'],
    ['%2e%2e/b/x.pdf', 'invalid_document_path'],
    ['b/x.pdf', 'path_does_not_exist_in_file_store'],
    ['/b/x.pdf', 'path_does_not_exist_in_file_store'],
    ['link/x.pdf', 'path_does_not_exist_in_file_store'],
    ['y.pdf', 'path_does_not_exist_in_file_store'],
  ]) {
    it(`refuses A's ${JSON.stringify(path)} with ${code}, storing nothing`, async () => {
      const before = await counts(t.db, 'A', external);
      assert.deepEqual(await attempt(t.app, 'A', external, path), [code, code]);
      assert.deepEqual(await counts(t.db, 'A', external), before);
    });
  }

  it('refuses a document in a supplier folder that is itself a symlink into another’s', async () => {
    const before = await counts(t.db, 'C', viaLinkExternal);
    assert.deepEqual(await attempt(t.app, 'C', viaLinkExternal, 'x.pdf'), [
      'path_does_not_exist_in_file_store',
      'path_does_not_exist_in_file_store',
    ]);
    assert.deepEqual(await counts(t.db, 'C', viaLinkExternal), before);
  });

  it('still attaches A’s own documents, through a symlink that stays in A’s folder too', async () => {
    for (const path of ['own.pdf', 'alias.pdf']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/data-import/notes/create/',
        headers,
        payload: {
          import_supplier: 'A',
          external_account_number: external,
          notes: [{ body: `own ${path}`, document_paths: [{ document_path: path }] }],
        },
      });
      assert.equal(res.statusCode, 201, res.body);
    }
  });
});
