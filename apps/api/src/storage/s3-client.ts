import { S3Client } from '@aws-sdk/client-s3';
import type { S3StorageConfig } from '../config/app-config.js';

/**
 * Downloads stream from the bucket for as long as the client reads, each holding a socket: the SDK's default
 * of 50 sockets would make slow downloaders queue every other storage call behind them.
 */
const MAX_SOCKETS = 512;

/** The SDK client of an S3 storage configuration. */
export function createS3Client(config: S3StorageConfig): S3Client {
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    requestHandler: { httpAgent: { keepAlive: true, maxSockets: MAX_SOCKETS }, httpsAgent: { keepAlive: true, maxSockets: MAX_SOCKETS } },
    // The SDK's default CRC checksums on every upload are not understood by every S3-compatible store (older
    // MinIO, s3rver, some gateways); AWS itself keeps them.
    ...(config.endpoint ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } : {}),
  });
}
