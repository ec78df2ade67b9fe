import { join, resolve } from 'node:path';
import type { AppConfig } from '../config/app-config.js';
import type { FileStorage } from './file-storage.js';
import { LocalFileStorage } from './local-file-storage.js';
import { createS3Client } from './s3-client.js';
import { S3FileStorage } from './s3-file-storage.js';

/** The storage driver of a configuration (tests use it too, so they never need to know a driver's layout). */
export function createFileStorage(config: Pick<AppConfig, 'dataDir' | 'storage'>): FileStorage {
  const { storage } = config;
  if (storage.driver === 's3') return new S3FileStorage({ client: createS3Client(storage.s3), bucket: storage.s3.bucket, keyPrefix: storage.s3.keyPrefix });
  return new LocalFileStorage(join(config.dataDir, 'files'));
}

/** Where files go, for the start-up log (never the credentials). */
export function storageDescription(config: Pick<AppConfig, 'dataDir' | 'storage'>): string {
  const { storage } = config;
  if (storage.driver === 'local') return `local directory ${resolve(join(config.dataDir, 'files'))}`;
  const where = storage.s3.endpoint ? new URL(storage.s3.endpoint).origin : `AWS ${storage.s3.region}`;
  return `S3 bucket ${storage.s3.bucket}${storage.s3.keyPrefix ? `/${storage.s3.keyPrefix}` : ''} at ${where}`;
}
