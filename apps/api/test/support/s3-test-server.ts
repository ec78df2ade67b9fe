import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3StorageConfig } from '../../src/config/app-config.js';
import { createS3Client } from '../../src/storage/s3-client.js';

/** A real S3-protocol server (s3rver) of one test file, with one bucket, on a free port. */
export interface S3TestServer {
  config: S3StorageConfig;
  /** The service's environment for this bucket (STORAGE_DRIVER=s3 and the S3_* settings). */
  env: Record<string, string>;
  client: S3Client;
  /** Every object key in the bucket, sorted. */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startS3TestServer(bucket = 'fileshift-test'): Promise<S3TestServer> {
  const directory = mkdtempSync(join(tmpdir(), 'fileshift-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, resetOnClose: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  // s3rver's fixed credentials; path-style because it serves every bucket on one host.
  const config: S3StorageConfig = {
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  const client = createS3Client(config);
  return {
    config,
    env: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: config.endpoint!,
      S3_REGION: config.region,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: config.accessKeyId,
      S3_SECRET_ACCESS_KEY: config.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    client,
    async keys() {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((object) => object.Key!));
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
