import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ObjectStoreError } from '../../../src/infra/storage/object-store.ts';
import { S3ObjectStore } from '../../../src/infra/storage/s3-object-store.ts';
import { describeObjectStoreContract } from './object-store-contract.ts';
import { S3RVER_CREDENTIALS, type S3TestServer, startS3TestServer } from './s3-test-server.ts';

const storeOn = (server: S3TestServer, options: { bucket?: string; prefix?: string } = {}) =>
  new S3ObjectStore({
    bucket: options.bucket ?? server.bucket,
    prefix: options.prefix ?? 'env/documents',
    region: server.region,
    endpoint: server.endpoint,
    credentials: S3RVER_CREDENTIALS,
  });

describeObjectStoreContract(
  'S3 (s3rver over HTTP)',
  async () => {
    const server = await startS3TestServer();
    return { store: storeOn(server), cleanup: () => server.close() };
  },
  {
    // S3 replaces an object whole, last writer wins: the store sends one PUT and relies on that.
    // s3rver writes the object's file in place, so concurrent PUTs of one key can interleave
    // there (a CI run read a mix of two bodies): a property of the test server, not of the store.
    tornConcurrentPuts: 's3rver writes an object in place; S3 itself replaces it whole',
  },
);

describe('S3ObjectStore against an S3-protocol server', () => {
  let server: S3TestServer;
  before(async () => {
    server = await startS3TestServer();
  });
  after(() => server.close());

  it('keeps objects under the key prefix of the store URL', async () => {
    const store = storeOn(server, { prefix: '/tenant/docs/' });
    const whole = storeOn(server, { prefix: '' });
    try {
      await store.put('SUPPLIER/a.pdf', Buffer.from('%PDF'), 'application/pdf');
      assert.deepEqual(await whole.get('tenant/docs/SUPPLIER/a.pdf'), Buffer.from('%PDF'));
      assert.equal(await whole.head('SUPPLIER/a.pdf'), null);
    } finally {
      await store.close();
      await whole.close();
    }
  });

  it('fails loudly, not with null, when the bucket does not exist', async () => {
    const store = storeOn(server, { bucket: 'no-such-bucket' });
    try {
      await assert.rejects(store.get('a.pdf'), ObjectStoreError);
      await assert.rejects(store.readStart('a.pdf', 5), ObjectStoreError);
    } finally {
      await store.close();
    }
  });

  it('fails with ObjectStoreError within its timeout when the server does not answer', async () => {
    // A listener that accepts connections and never replies.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const store = new S3ObjectStore({
      bucket: 'b',
      prefix: '',
      region: 'eu-west-2',
      endpoint: `http://127.0.0.1:${port}`,
      credentials: S3RVER_CREDENTIALS,
      attemptTimeoutMs: 300,
      maxAttempts: 1,
    });
    const started = performance.now();
    try {
      await assert.rejects(store.head('a.pdf'), ObjectStoreError);
      assert.ok(performance.now() - started < 3_000, 'gave up within the timeout');
    } finally {
      await store.close();
      silent.close();
    }
  });
});
