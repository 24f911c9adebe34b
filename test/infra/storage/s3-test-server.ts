import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver's fixed credentials: it checks request signatures against them. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  region: string;
  close(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver) on 127.0.0.1 with a random port, storing into a fresh
 * temporary directory, with `bucket` created over the S3 API the way an operator would.
 */
export async function startS3TestServer(bucket = 'ferry-documents'): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'ferry-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'eu-west-2';
  const admin = new S3Client({ region, endpoint, forcePathStyle: true, credentials: S3RVER_CREDENTIALS });
  try {
    await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    admin.destroy();
  }
  return {
    endpoint,
    bucket,
    region,
    async close() {
      // Keep-alive sockets left by clients would otherwise hold close() open.
      server.httpServer?.closeAllConnections();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
