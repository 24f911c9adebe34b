import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { FileObjectStore } from '../../../src/infra/storage/file-object-store.ts';
import { openObjectStore } from '../../../src/infra/storage/open-object-store.ts';
import { S3ObjectStore } from '../../../src/infra/storage/s3-object-store.ts';

const s3 = { endpoint: 'http://127.0.0.1:9', region: 'eu-west-2' };

describe('openObjectStore', () => {
  it('opens a file store at the folder of a file:// URL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ferry-open-store-'));
    try {
      const store = openObjectStore({ documentStoreUrl: pathToFileURL(join(dir, 'my documents')).href, s3 });
      assert.ok(store instanceof FileObjectStore);
      assert.equal(store.root, join(dir, 'my documents'));
      await store.put('a.pdf', Buffer.from('%PDF'));
      assert.deepEqual(await store.readStart('a.pdf', 4), Buffer.from('%PDF'));
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('opens an S3 store on the bucket and prefix of an s3:// URL', async () => {
    const store = openObjectStore({ documentStoreUrl: 's3://ferry-docs/prod/documents/', s3 });
    assert.ok(store instanceof S3ObjectStore);
    assert.equal(store.bucket, 'ferry-docs');
    assert.equal(store.prefix, 'prod/documents');
    await store.close();
  });

  it('accepts an s3:// URL without a prefix', async () => {
    const store = openObjectStore({ documentStoreUrl: 's3://ferry-docs', s3 });
    assert.ok(store instanceof S3ObjectStore);
    assert.equal(store.prefix, '');
    await store.close();
  });

  it('refuses other schemes and an s3:// URL without a bucket', () => {
    assert.throws(
      () => openObjectStore({ documentStoreUrl: 'https://example.com/docs', s3 }),
      /file:\/\/ or s3:\/\//,
    );
    assert.throws(() => openObjectStore({ documentStoreUrl: 's3:///prefix', s3 }), /no bucket/);
  });
});
