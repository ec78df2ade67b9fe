import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { type FileStorage, StorageBackendError, StoredFileMissingError } from './file-storage.js';
import { assertStorageKey } from './storage-key.js';

/** S3's smallest part but the last; a put holds at most (queueSize + 1) parts in memory. */
export const DEFAULT_PART_SIZE = 5 * 1024 * 1024;
export const DEFAULT_QUEUE_SIZE = 2;

export interface S3FileStorageOptions {
  client: S3Client;
  bucket: string;
  /** Objects live under `<keyPrefix>/`, so several deployments can share a bucket. */
  keyPrefix?: string;
  partSize?: number;
  queueSize?: number;
}

/**
 * Files as objects in an S3-compatible bucket, one object per key. A put is a multipart upload of bounded
 * parts (a small file is one PutObject), so a 40 MB upload never sits in memory, and an object appears only
 * once every part is in: a failed body leaves nothing, and the incomplete upload is aborted.
 */
export class S3FileStorage implements FileStorage {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly partSize: number;
  private readonly queueSize: number;

  constructor(options: S3FileStorageOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    this.prefix = options.keyPrefix ? `${options.keyPrefix}/` : '';
    this.partSize = options.partSize ?? DEFAULT_PART_SIZE;
    this.queueSize = options.queueSize ?? DEFAULT_QUEUE_SIZE;
  }

  async put(key: string, body: Readable): Promise<void> {
    const objectKey = this.objectKey(key);
    let bodyError: unknown;
    // Listening also keeps a body failure from going unhandled while the upload waits on the store.
    body.on('error', (error) => (bodyError ??= error));
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: objectKey, Body: body },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      // The body's own failure is what the caller must see (a client gone, a size limit), even when the store
      // then refused to abort the incomplete upload: that upload never becomes an object.
      if (bodyError !== undefined) throw bodyError;
      body.destroy();
      throw new StorageBackendError(`put ${key}`, error);
    }
  }

  async get(key: string): Promise<Readable> {
    const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) })).catch((error: unknown) => {
      throw isMissing(error) ? new StoredFileMissingError(key) : new StorageBackendError(`get ${key}`, error);
    });
    if (!(answer.Body instanceof Readable)) throw new StorageBackendError(`get ${key}`, new Error('the object body is not a Node stream'));
    return answer.Body;
  }

  async copyToFile(key: string, path: string, signal?: AbortSignal): Promise<void> {
    await pipeline(await this.get(key), createWriteStream(path), { signal });
  }

  async delete(key: string): Promise<void> {
    // S3 answers a delete of a missing key with success.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) })).catch((error: unknown) => {
      throw new StorageBackendError(`delete ${key}`, error);
    });
  }

  async size(key: string): Promise<number | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return null;
      throw new StorageBackendError(`size ${key}`, error);
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.size(key)) !== null;
  }

  private objectKey(key: string): string {
    assertStorageKey(key);
    return this.prefix + key;
  }
}

/** GetObject says NoSuchKey; HeadObject has no body, so only its 404 (also what a missing bucket answers). */
function isMissing(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NoSuchKey' || (name === 'NotFound' && $metadata?.httpStatusCode === 404);
}
