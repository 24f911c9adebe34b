import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FileObjectStore } from '../../../src/infra/storage/file-object-store.ts';
import { ObjectStoreError } from '../../../src/infra/storage/object-store.ts';
import { describeObjectStoreContract } from './object-store-contract.ts';

describeObjectStoreContract('file system', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ferry-file-store-'));
  return {
    store: new FileObjectStore(join(dir, 'documents')),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('FileObjectStore on the file system', () => {
  let dir: string;
  let root: string;
  let outside: string;
  let store: FileObjectStore;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ferry-file-store-'));
    root = join(dir, 'documents');
    outside = join(dir, 'outside');
    await mkdir(root);
    await mkdir(outside);
    await writeFile(join(outside, 'secret.pdf'), '%PDF-secret');
    store = new FileObjectStore(root);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('keeps an object as the file named by its key under the root', async () => {
    await store.put('SUPPLIER/notes/a.pdf', Buffer.from('%PDF-1.4'));
    assert.equal(await readFile(join(root, 'SUPPLIER', 'notes', 'a.pdf'), 'latin1'), '%PDF-1.4');
  });

  it('leaves no temporary file behind after a put', async () => {
    await store.put('tidy/a.pdf', Buffer.from('one'));
    await store.put('tidy/a.pdf', Buffer.from('two'));
    assert.deepEqual(await readdir(join(root, 'tidy')), ['a.pdf']);
  });

  it('creates its root on the first put and reads nothing before it exists', async () => {
    const later = new FileObjectStore(join(dir, 'not-yet', 'documents'));
    assert.equal(await later.head('a.pdf'), null);
    await later.put('a.pdf', Buffer.from('x'));
    assert.deepEqual(await later.head('a.pdf'), { size: 1 });
  });

  it('does not read a file outside the root through a symlink to it', async () => {
    await symlink(join(outside, 'secret.pdf'), join(root, 'link.pdf'));
    assert.equal(await store.get('link.pdf'), null);
    assert.equal(await store.head('link.pdf'), null);
    assert.equal(await store.readStart('link.pdf', 5), null);
  });

  it('does not read or write through a symlinked folder that leads outside the root', async () => {
    await symlink(outside, join(root, 'escape'));
    assert.equal(await store.get('escape/secret.pdf'), null);
    await assert.rejects(store.put('escape/planted.pdf', Buffer.from('x')), ObjectStoreError);
    await assert.rejects(store.put('escape/deeper/planted.pdf', Buffer.from('x')), ObjectStoreError);
    await store.delete('escape/secret.pdf');
    assert.deepEqual((await readdir(outside)).sort(), ['secret.pdf']);
  });

  it('follows a symlink that stays inside the root', async () => {
    await store.put('real/statement.pdf', Buffer.from('%PDF-inside'));
    await symlink(join(root, 'real', 'statement.pdf'), join(root, 'alias.pdf'));
    assert.deepEqual(await store.get('alias.pdf'), Buffer.from('%PDF-inside'));
  });

  it('confines a read within a folder to that folder, symlinks included', async () => {
    await store.put('tenant-b/x.pdf', Buffer.from('%PDF-b'));
    await store.put('tenant-a/real.pdf', Buffer.from('%PDF-a'));
    await symlink('../tenant-b', join(root, 'tenant-a', 'link'));
    await symlink(join(root, 'tenant-b', 'x.pdf'), join(root, 'tenant-a', 'y.pdf'));
    await symlink('real.pdf', join(root, 'tenant-a', 'alias.pdf'));
    await symlink('tenant-b', join(root, 'tenant-c'));
    const within = { within: 'tenant-a' };
    for (const key of ['tenant-a/link/x.pdf', 'tenant-a/y.pdf']) {
      assert.equal(await store.get(key, within), null, key);
      assert.equal(await store.head(key, within), null, key);
      assert.equal(await store.readStart(key, 4, within), null, key);
      // Inside the store, so without a folder the same key reads B's document.
      assert.deepEqual(await store.get(key), Buffer.from('%PDF-b'), key);
    }
    // A supplier folder that is itself a symlink into another's confines to nothing.
    assert.equal(await store.head('tenant-c/x.pdf', { within: 'tenant-c' }), null);
    // A symlink that stays inside the folder is followed.
    assert.deepEqual(await store.get('tenant-a/alias.pdf', within), Buffer.from('%PDF-a'));
  });

  it('works when the root itself is reached through a symlink', async () => {
    await symlink(root, join(dir, 'root-link'));
    const viaLink = new FileObjectStore(join(dir, 'root-link'));
    await viaLink.put('via-link/a.pdf', Buffer.from('%PDF'));
    assert.deepEqual(await viaLink.readStart('via-link/a.pdf', 4), Buffer.from('%PDF'));
  });
});
