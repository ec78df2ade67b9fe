import { HeadBucketCommand } from '@aws-sdk/client-s3';
import type { S3StorageConfig } from '../config/app-config.js';
import { createS3Client } from './s3-client.js';

/**
 * One HeadBucket, bounded in time. Start-up calls it so a missing bucket, wrong credentials or an unreachable
 * endpoint end the process with one clear line, not with the first upload failing. Never shows the secret.
 */
export async function checkBucketReachable(config: S3StorageConfig, timeoutMs: number): Promise<string | null> {
  const client = createS3Client(config);
  try {
    await client.send(new HeadBucketCommand({ Bucket: config.bucket }), { abortSignal: AbortSignal.timeout(timeoutMs) });
    return null;
  } catch (error) {
    const where = config.endpoint ? new URL(config.endpoint).origin : `AWS S3 in ${config.region}`;
    return `The S3 bucket "${config.bucket}" is not usable at ${where} (${reasonOf(error)}). Create the bucket, or check S3_ENDPOINT, S3_REGION, S3_BUCKET and the credentials.`;
  } finally {
    client.destroy();
  }
}

function reasonOf(error: unknown): string {
  const { name, code, message, $metadata } = error as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  // HeadBucket answers have no body: the status is all there is.
  if ($metadata?.httpStatusCode === 404) return 'no such bucket';
  if ($metadata?.httpStatusCode === 403) return 'access denied: check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY';
  if ($metadata?.httpStatusCode === 301) return 'the bucket is in another region: check S3_REGION';
  return code ?? (name === 'TimeoutError' || name === 'AbortError' ? 'no answer in time' : (message ?? name ?? String(error)));
}
