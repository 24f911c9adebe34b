import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { InvalidObjectKeyError, type ObjectStore } from '../../../src/infra/storage/object-store.ts';

export interface ObjectStoreFixture {
  store: ObjectStore;
  cleanup(): Promise<void>;
}

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4096, 0x20), Buffer.from('\n%%EOF\n')]);
const EVERY_BYTE = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

/** What the server under a store does not do as the real one would, with the reason. */
export interface ServerLimits {
  /** Concurrent puts of one key can leave a mix of their bodies (the test server writes in place). */
  tornConcurrentPuts?: string;
}

/**
 * The behaviour every ObjectStore promises, run against each implementation. `open` gives a
 * store over an empty space; each test uses its own keys.
 */
export function describeObjectStoreContract(
  name: string,
  open: () => Promise<ObjectStoreFixture>,
  limits: ServerLimits = {},
): void {
  describe(`ObjectStore contract: ${name}`, () => {
    let fixture: ObjectStoreFixture;
    let store: ObjectStore;
    before(async () => {
      fixture = await open();
      store = fixture.store;
    });
    after(async () => {
      await store.close();
      await fixture.cleanup();
    });

    it('returns exactly the bytes that were put', async () => {
      await store.put('roundtrip/every-byte.bin', EVERY_BYTE, 'application/octet-stream');
      assert.deepEqual(await store.get('roundtrip/every-byte.bin'), EVERY_BYTE);
    });

    it('answers null for a key with no object, on every read', async () => {
      assert.equal(await store.get('missing/statement.pdf'), null);
      assert.equal(await store.head('missing/statement.pdf'), null);
      assert.equal(await store.readStart('missing/statement.pdf', 5), null);
    });

    it('reports the size of an object', async () => {
      await store.put('sizes/statement.pdf', PDF, 'application/pdf');
      assert.deepEqual(await store.head('sizes/statement.pdf'), { size: PDF.length });
    });

    it('reads only the first bytes of an object, enough for a PDF magic check', async () => {
      await store.put('start/statement.pdf', PDF, 'application/pdf');
      const start = await store.readStart('start/statement.pdf', 5);
      assert.equal(start?.toString('latin1'), '%PDF-');
    });

    it('reads the whole object when it is shorter than the bytes asked for', async () => {
      await store.put('start/short.txt', Buffer.from('%PD'));
      assert.deepEqual(await store.readStart('start/short.txt', 1024), Buffer.from('%PD'));
    });

    it('stores an empty object', async () => {
      await store.put('empty/nothing.pdf', Buffer.alloc(0));
      assert.deepEqual(await store.head('empty/nothing.pdf'), { size: 0 });
      assert.deepEqual(await store.get('empty/nothing.pdf'), Buffer.alloc(0));
    });

    it('replaces an object that is put again', async () => {
      await store.put('replace/note.txt', Buffer.from('first version, longer than the second'));
      await store.put('replace/note.txt', Buffer.from('second'));
      assert.deepEqual(await store.get('replace/note.txt'), Buffer.from('second'));
    });

    it('ends with one whole body when the same key is put concurrently', {
      skip: limits.tornConcurrentPuts,
    }, async () => {
      const bodies = Array.from({ length: 8 }, (_, i) => Buffer.alloc(64 * 1024, 65 + i));
      await Promise.all(bodies.map((body) => store.put('concurrent/statement.pdf', body)));
      const stored = await store.get('concurrent/statement.pdf');
      assert.ok(stored && bodies.some((body) => body.equals(stored)), 'the stored body is one of those put');
    });

    it('reads within a folder, and refuses a key outside that folder as a bug', async () => {
      await store.put('tenant-a/notes/a.pdf', PDF);
      await store.put('tenant-b/notes/b.pdf', PDF);
      const within = { within: 'tenant-a' };
      assert.deepEqual(await store.head('tenant-a/notes/a.pdf', within), { size: PDF.length });
      assert.equal((await store.readStart('tenant-a/notes/a.pdf', 5, within))?.toString('latin1'), '%PDF-');
      assert.deepEqual(await store.get('tenant-a/notes/a.pdf', { within: 'tenant-a/notes' }), PDF);
      assert.equal(await store.head('tenant-a/notes/missing.pdf', within), null);
      await assert.rejects(store.head('tenant-b/notes/b.pdf', within), InvalidObjectKeyError);
      await assert.rejects(store.get('tenant-ab/notes/b.pdf', within), InvalidObjectKeyError);
      await assert.rejects(store.readStart('tenant-a', 5, within), InvalidObjectKeyError);
      await assert.rejects(store.head('tenant-a/notes/a.pdf', { within: '' }), InvalidObjectKeyError);
    });

    it('deletes an object, and deleting a missing object is not an error', async () => {
      await store.put('delete/note.txt', Buffer.from('x'));
      await store.delete('delete/note.txt');
      assert.equal(await store.head('delete/note.txt'), null);
      await store.delete('delete/note.txt');
      await store.delete('delete/never-existed/note.txt');
    });

    it('keeps keys with spaces, non-ASCII letters and deep folders apart', async () => {
      const keys = ['names/a b/c.pdf', 'names/ünïcødé/報告.pdf', 'names/a/b/c/d/e/f.pdf', 'names/100%.pdf'];
      for (const [i, key] of keys.entries()) await store.put(key, Buffer.from(String(i)));
      for (const [i, key] of keys.entries())
        assert.deepEqual(await store.get(key), Buffer.from(String(i)), key);
    });

    it('treats a folder as no object', async () => {
      await store.put('folder/inner/statement.pdf', PDF);
      assert.equal(await store.head('folder/inner'), null);
      assert.equal(await store.get('folder'), null);
      assert.equal(await store.readStart('folder/inner', 5), null);
    });

    it('round-trips a 6 MiB object and reads its start without the rest', async () => {
      const big = Buffer.alloc(6 * 1024 * 1024, 0x61);
      PDF.copy(big, 0, 0, 8);
      await store.put('big/statement.pdf', big, 'application/pdf');
      assert.deepEqual(await store.head('big/statement.pdf'), { size: big.length });
      assert.deepEqual(await store.readStart('big/statement.pdf', 8), PDF.subarray(0, 8));
      assert.ok((await store.get('big/statement.pdf'))?.equals(big));
    });

    it('refuses keys that are not canonical relative paths, before touching the store', async () => {
      const keys = [
        '',
        '/abs.pdf',
        '../escape.pdf',
        'a/../../escape.pdf',
        'a/./b.pdf',
        'a//b.pdf',
        'a/',
        'a\\b.pdf',
      ];
      keys.push('nul\u0000.pdf', 'x'.repeat(1025));
      for (const key of keys) {
        await assert.rejects(store.get(key), InvalidObjectKeyError, JSON.stringify(key));
        await assert.rejects(store.head(key), InvalidObjectKeyError, JSON.stringify(key));
        await assert.rejects(store.readStart(key, 5), InvalidObjectKeyError, JSON.stringify(key));
        await assert.rejects(store.put(key, Buffer.from('x')), InvalidObjectKeyError, JSON.stringify(key));
        await assert.rejects(store.delete(key), InvalidObjectKeyError, JSON.stringify(key));
      }
    });
  });
}
