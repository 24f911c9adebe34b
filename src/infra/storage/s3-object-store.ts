import {
  DeleteObjectCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { ObjectInfo, ObjectStore, ReadOptions } from './object-store.ts';
import { checkedKey, ObjectStoreError } from './object-store.ts';

export interface S3ObjectStoreOptions {
  bucket: string;
  /** Folder inside the bucket under which every key lives (no leading or trailing `/`); may be empty. */
  prefix: string;
  region: string;
  /** An S3-compatible server; unset means AWS itself. */
  endpoint?: string | null;
  /** Unset: the SDK's default chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, profiles, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Limit on one HTTP attempt, connecting included. */
  attemptTimeoutMs?: number;
  /** Attempts per operation, the first included; the SDK retries throttling, 5xx and network errors. */
  maxAttempts?: number;
}

const DEFAULT_ATTEMPT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_ATTEMPTS = 2;

/** The error names S3 uses for "no such object". A missing bucket is NOT among them: that is a broken store. */
function isMissingObject(err: unknown): boolean {
  const name = err instanceof Error ? err.name : undefined;
  return name === 'NoSuchKey' || name === 'NotFound';
}

function isUnsatisfiableRange(err: unknown): boolean {
  const status = (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  return (err instanceof Error && err.name === 'InvalidRange') || status === 416;
}

async function bytesOf(res: GetObjectCommandOutput): Promise<Buffer> {
  return res.Body ? Buffer.from(await res.Body.transformToByteArray()) : Buffer.alloc(0);
}

/**
 * Objects in one S3 bucket under a key prefix, through @aws-sdk/client-s3. Path-style addressing
 * (`<endpoint>/<bucket>/<key>`) so that S3-compatible servers work without wildcard DNS.
 */
export class S3ObjectStore implements ObjectStore {
  readonly bucket: string;
  readonly prefix: string;
  readonly #client: S3Client;
  readonly #operationTimeoutMs: number;

  constructor(options: S3ObjectStoreOptions) {
    if (options.bucket === '') throw new Error('S3 object store: the bucket name is empty');
    this.bucket = options.bucket;
    this.prefix = options.prefix
      .split('/')
      .filter((s) => s !== '')
      .join('/');
    const attemptTimeoutMs = options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
    const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    // A hard stop per operation, retries and backoff included, so that a hung store cannot hold
    // a request past its own timeout.
    this.#operationTimeoutMs = attemptTimeoutMs * maxAttempts + 1_000;
    this.#client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      forcePathStyle: true,
      maxAttempts,
      requestHandler: {
        connectionTimeout: Math.min(attemptTimeoutMs, 3_000),
        requestTimeout: attemptTimeoutMs,
        throwOnRequestTimeout: true,
      },
      // Checksums only where S3 requires them: the SDK's default (a CRC trailer on every upload)
      // is not understood by several S3-compatible servers, and TLS already protects transfers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async get(key: string, options?: ReadOptions): Promise<Buffer | null> {
    const Key = this.#s3Key(key, options);
    return this.#read('get', key, async () =>
      bytesOf(await this.#client.send(new GetObjectCommand({ Bucket: this.bucket, Key }), this.#options())),
    );
  }

  async head(key: string, options?: ReadOptions): Promise<ObjectInfo | null> {
    const Key = this.#s3Key(key, options);
    return this.#read('head', key, async () => {
      const res = await this.#client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key }),
        this.#options(),
      );
      return { size: res.ContentLength ?? 0 };
    });
  }

  async readStart(key: string, length: number, options?: ReadOptions): Promise<Buffer | null> {
    const Key = this.#s3Key(key, options);
    if (length <= 0) return (await this.head(key)) ? Buffer.alloc(0) : null;
    try {
      const res = await this.#client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key, Range: `bytes=0-${length - 1}` }),
        this.#options(),
      );
      const bytes = await bytesOf(res);
      // A server that ignores Range answers 200 with the whole object.
      return bytes.subarray(0, length);
    } catch (err) {
      if (isMissingObject(err)) return null;
      // S3 answers 416 for any range of an empty object.
      if (isUnsatisfiableRange(err)) return (await this.head(key)) ? Buffer.alloc(0) : null;
      throw new ObjectStoreError('readStart', key, { cause: err });
    }
  }

  async put(key: string, body: Buffer, contentType?: string): Promise<void> {
    const Key = this.#s3Key(key);
    try {
      await this.#client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key,
          Body: body,
          ContentLength: body.length,
          ContentType: contentType ?? 'application/octet-stream',
        }),
        this.#options(),
      );
    } catch (err) {
      throw new ObjectStoreError('put', key, { cause: err });
    }
  }

  async delete(key: string): Promise<void> {
    const Key = this.#s3Key(key);
    try {
      await this.#client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }), this.#options());
    } catch (err) {
      if (isMissingObject(err)) return;
      throw new ObjectStoreError('delete', key, { cause: err });
    }
  }

  async close(): Promise<void> {
    this.#client.destroy();
  }

  /** S3 has no symlinks: a key inside the `within` folder names an object inside it. */
  #s3Key(key: string, options?: ReadOptions): string {
    const { segments } = checkedKey(key, options?.within);
    return this.prefix === '' ? segments.join('/') : `${this.prefix}/${segments.join('/')}`;
  }

  /** One read; a missing object reads as null, any other failure is the store's. */
  async #read<T>(operation: 'get' | 'head', key: string, send: () => Promise<T>): Promise<T | null> {
    try {
      return await send();
    } catch (err) {
      if (isMissingObject(err)) return null;
      throw new ObjectStoreError(operation, key, { cause: err });
    }
  }

  #options() {
    return { abortSignal: AbortSignal.timeout(this.#operationTimeoutMs) };
  }
}
