import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3TestServer, type S3TestServer } from '../../test/support/s3-test-server.js';
import { DEFAULT_PART_SIZE, DEFAULT_QUEUE_SIZE, S3FileStorage } from './s3-file-storage.js';

const MB = 1024 * 1024;

describe('S3FileStorage against a real S3-protocol server (s3rver)', () => {
  let server: S3TestServer;
  beforeAll(async () => {
    server = await startS3TestServer();
  });
  afterAll(() => server?.close());

  /**
   * Bytes held by a put = bytes it has read from the body minus bytes the store has acknowledged (parts
   * answered). Sampled on every read of the body, so it measures what the driver holds, not how fast anything
   * runs: a driver that collected the body before sending would hold all 40 MB at its last read.
   */
  it('puts a 40 MB stream holding at most (queue size + 1) parts at any time', async () => {
    let acknowledged = 0;
    server.client.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        const body = (args.input as { Body?: unknown }).Body;
        if ((context.commandName === 'UploadPartCommand' || context.commandName === 'PutObjectCommand') && body instanceof Uint8Array) acknowledged += body.byteLength;
        return result;
      },
      { step: 'initialize', name: 'countAcknowledgedBytes' },
    );
    const total = 40 * MB;
    let produced = 0;
    let peakHeld = 0;
    const body = new Readable({
      highWaterMark: 64 * 1024,
      read() {
        peakHeld = Math.max(peakHeld, produced - acknowledged);
        if (produced === total) return void this.push(null);
        produced += 64 * 1024;
        this.push(Buffer.alloc(64 * 1024, produced % 251));
      },
    });

    await new S3FileStorage({ client: server.client, bucket: server.config.bucket }).put('jobs/forty/input', body);

    expect(produced).toBe(total);
    expect(acknowledged).toBe(total);
    const bound = (DEFAULT_QUEUE_SIZE + 1) * DEFAULT_PART_SIZE + MB;
    expect(peakHeld).toBeLessThanOrEqual(bound);
    expect(bound).toBeLessThan(total / 2);
    // The measure sees the parts in flight: it is not trivially zero.
    expect(peakHeld).toBeGreaterThanOrEqual(DEFAULT_PART_SIZE);
    expect(await new S3FileStorage({ client: server.client, bucket: server.config.bucket }).size('jobs/forty/input')).toBe(total);
  });

  it('keeps objects under the configured key prefix', async () => {
    const storage = new S3FileStorage({ client: server.client, bucket: server.config.bucket, keyPrefix: 'deployment-a' });
    await storage.put('jobs/p/input', Readable.from(['x']));
    expect(await server.keys()).toContain('deployment-a/jobs/p/input');
    expect(await storage.exists('jobs/p/input')).toBe(true);
    expect(await new S3FileStorage({ client: server.client, bucket: server.config.bucket }).exists('jobs/p/input')).toBe(false);
    await storage.delete('jobs/p/input');
    expect(await server.keys()).not.toContain('deployment-a/jobs/p/input');
  });

  it('reports a store failure as StorageBackendError, not as a missing file', async () => {
    const wrongBucket = new S3FileStorage({ client: server.client, bucket: 'no-such-bucket' });
    await expect(wrongBucket.get('jobs/x/input')).rejects.toMatchObject({ name: 'StorageBackendError' });
    await expect(wrongBucket.put('jobs/x/input', Readable.from(['x']))).rejects.toMatchObject({ name: 'StorageBackendError' });
  });
});
