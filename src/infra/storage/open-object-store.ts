import { fileURLToPath } from 'node:url';
import type { FerryConfig } from '../../config.ts';
import { FileObjectStore } from './file-object-store.ts';
import type { ObjectStore } from './object-store.ts';
import { S3ObjectStore, type S3ObjectStoreOptions } from './s3-object-store.ts';

type StoreConfig = Pick<FerryConfig, 'documentStoreUrl' | 's3'>;

/**
 * The document store named by DOCUMENT_STORE_URL: `file:///abs/dir` or `s3://bucket/prefix`.
 * `overrides` is for tests and tools (explicit credentials, shorter timeouts).
 */
export function openObjectStore(
  config: StoreConfig,
  overrides: Partial<Omit<S3ObjectStoreOptions, 'bucket' | 'prefix'>> = {},
): ObjectStore {
  const url = new URL(config.documentStoreUrl);
  switch (url.protocol) {
    case 'file:':
      return new FileObjectStore(fileURLToPath(url));
    case 's3:':
      if (url.hostname === '')
        throw new Error(`DOCUMENT_STORE_URL names no bucket: ${config.documentStoreUrl}`);
      return new S3ObjectStore({
        bucket: url.hostname,
        prefix: decodeURIComponent(url.pathname),
        region: config.s3.region,
        endpoint: config.s3.endpoint,
        ...overrides,
      });
    default:
      throw new Error(`DOCUMENT_STORE_URL must be file:// or s3://, got ${url.protocol}`);
  }
}
