import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from '../../src/infra/db/db.ts';
import { migrate } from '../../src/infra/db/migrate.ts';
import { admin, createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestDb } from '../helpers/test-db.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

const errorsOf = (body: Obj) => (body.errors as Obj[]).map((e) => `${e.attr}:${e.code}`);

describe('import supplier document roots', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const create = (body: Obj, status?: number) =>
    admin<Obj>(t.app, 'POST', '/import-suppliers/', body, status);
  const patch = (code: string, body: Obj, status?: number) =>
    admin<Obj>(t.app, 'PATCH', `/import-suppliers/${code}/`, body, status);
  const rootOf = async (code: string) =>
    (await admin(t.app, 'GET', `/import-suppliers/${code}/`)).document_root;

  it('defaults the root to the code in lower case', async () => {
    assert.equal((await create({ code: 'Octo_Power-1' })).document_root, 'octo_power-1');
  });

  it('refuses a root that is blank once normalised, on create and on PATCH', async () => {
    for (const document_root of ['', '/', '///']) {
      const res = await create({ code: 'BLANKROOT', document_root }, 400);
      assert.deepEqual(errorsOf(res), ['document_root:blank'], document_root);
    }
    await create({ code: 'KEEPS' });
    for (const document_root of ['', '/', '//']) {
      const res = await patch('KEEPS', { document_root }, 400);
      assert.deepEqual(errorsOf(res), ['document_root:blank'], document_root);
    }
    assert.equal(await rootOf('KEEPS'), 'keeps');
  });

  it('refuses a root that contains, lies inside or equals another supplier’s, ignoring case', async () => {
    await create({ code: 'OWNER', document_root: 'shared/owner' });
    const cases = ['shared', 'shared/owner', 'Shared/Owner', 'shared/owner/inner', '/shared/'];
    for (const document_root of cases) {
      const res = await create({ code: 'INTRUDER', document_root }, 400);
      assert.equal(res.code, 'document_root_overlaps', document_root);
      assert.deepEqual(errorsOf(res), ['document_root:document_root_overlaps'], document_root);
      assert.match(res.errors[0].detail, /OWNER/);
    }
    await create({ code: 'PATCHER', document_root: 'patcher' });
    for (const document_root of cases) {
      const res = await patch('PATCHER', { document_root }, 400);
      assert.deepEqual(errorsOf(res), ['document_root:document_root_overlaps'], document_root);
    }
    assert.equal(await rootOf('PATCHER'), 'patcher');
    // Folder by folder: a shared prefix of letters is no overlap.
    assert.equal(
      (await create({ code: 'SIBLING', document_root: 'shared/owner2' })).document_root,
      'shared/owner2',
    );
    assert.equal((await create({ code: 'SHAREDX', document_root: 'sharedx' })).document_root, 'sharedx');
  });

  it('refuses a default root that overlaps, and lets a supplier move inside its own root', async () => {
    await create({ code: 'CASEY' });
    const res = await create({ code: 'casey' }, 400);
    assert.deepEqual(errorsOf(res), ['document_root:document_root_overlaps']);
    assert.equal(
      (await create({ code: 'casey', document_root: 'casey-lower' })).document_root,
      'casey-lower',
    );
    assert.equal((await patch('CASEY', { document_root: 'casey/docs' })).document_root, 'casey/docs');
    assert.equal((await patch('CASEY', { document_root: 'casey/docs' })).document_root, 'casey/docs');
    // A PATCH without a root does not check roots at all.
    assert.equal((await patch('CASEY', { status: 'Paused' })).status, 'Paused');
  });

  it('lets exactly one of many concurrent requests take one root', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        create({ code: `RUNNER${i}`, document_root: i % 2 ? 'run' : 'run/inner' }, undefined).then(
          () => 201,
          (err: Error) => {
            assert.match(err.message, /document_root_overlaps/);
            return 400;
          },
        ),
      ),
    );
    assert.deepEqual(
      outcomes.filter((s) => s === 201),
      [201],
    );
    const patched = await Promise.all(
      ['P1', 'P2', 'P3', 'P4'].map(async (code) => {
        await create({ code });
        return patch(code, { document_root: 'patched/same' }, undefined).then(
          () => 200,
          () => 400,
        );
      }),
    );
    assert.equal(patched.filter((s) => s === 200).length, 1);
  });

  it('keeps roots normalised and non-empty in the database itself', async () => {
    for (const root of ['', 'a//b', '/a', 'a/', 'a/../b', '.']) {
      await assert.rejects(
        t.db.query(sql('', "INSERT INTO import_suppliers (code, document_root) VALUES ('RAW', $1)"), [root]),
        /import_suppliers_document_root_check/,
        root,
      );
    }
    await assert.rejects(
      t.db.query(sql('', "INSERT INTO import_suppliers (code) VALUES ('RAW')")),
      /null value|not-null/,
    );
  });
});

describe('migration 0006: suppliers without a document root get one', () => {
  it('gives each empty root the code in lower case, numbered when that is taken', async () => {
    const { db, cleanup } = await createTestDb({ migrateTo: 4 });
    try {
      const insert = sql('', 'INSERT INTO import_suppliers (code, document_root) VALUES ($1, $2)');
      for (const [code, root] of [
        ['ALPHA', ''],
        ['Beta', ''],
        ['BETA', ''],
        ['GAMMA', 'beta-2'],
        ['KEEP', 'keep/here'],
        ['DELTA', ''],
        ['OTHER', 'Delta/files'],
      ]) {
        await db.query(insert, [code, root]);
      }
      await migrate(db);
      const { rows } = await db.query<{ code: string; document_root: string }>(
        sql('', 'SELECT code, document_root FROM import_suppliers ORDER BY code'),
      );
      const roots = Object.fromEntries(rows.map((r) => [r.code, r.document_root]));
      assert.equal(roots.ALPHA, 'alpha');
      assert.deepEqual([roots.Beta, roots.BETA].sort(), ['beta', 'beta-3']);
      assert.equal(roots.GAMMA, 'beta-2');
      assert.equal(roots.KEEP, 'keep/here');
      assert.equal(roots.DELTA, 'delta-2');
      assert.ok(rows.every((r) => r.document_root !== ''));
    } finally {
      await cleanup();
    }
  });
});
