import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyApiClient } from './support/key-api-client.js';
import { startPaidTestApp, type PaidTestApp } from './support/paid-test-app.js';
import { startTestApp } from './support/test-app.js';
import { startS3TestServer, type S3TestServer } from './support/s3-test-server.js';
import { convertFile, jobEnded } from './support/x402-jobs.js';

/** The whole service with STORAGE_DRIVER=s3 against a real S3-protocol server: nothing may assume a local path. */
describe('the service on object storage (STORAGE_DRIVER=s3, s3rver)', () => {
  let s3: S3TestServer;
  let t: PaidTestApp;
  let png: Buffer;
  const prefix = 'e2e';
  // Past one 5 MB multipart part, so a refused upload has parts to abort.
  const LIMIT = 5.5 * 1024 * 1024;

  beforeAll(async () => {
    s3 = await startS3TestServer();
    t = await startPaidTestApp({ payerIndex: 4, env: { ...s3.env, S3_KEY_PREFIX: prefix, KEY_API_ANONYMOUS_MAX_UPLOAD_BYTES: String(LIMIT) } });
    png = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#0066cc' } }).png().toBuffer();
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const jobKeys = async (jobId: string) => (await s3.keys()).filter((key) => key.startsWith(`${prefix}/jobs/${jobId}/`));

  it('x402: upload, convert PNG → webp, buy, download from the bucket through the API, then DELETE removes the objects', async () => {
    const done = await jobEnded(await convertFile(t.baseUrl, t.pay, png, 'picture.png', 'webp'));
    expect(done).toMatchObject({ status: 'done', detected_input_format: 'png', target_format: 'webp' });
    expect(await jobKeys(done.job_id)).toEqual([`${prefix}/jobs/${done.job_id}/input`, `${prefix}/jobs/${done.job_id}/output.webp`]);
    // Nothing went to the local disk.
    expect(existsSync(join(t.config.dataDir, 'files'))).toBe(false);

    const bought = await t.pay(done.result_url!);
    expect(bought.status).toBe(200);
    const purchase = (await bought.json()) as { download_url: string; result_size_bytes: number };
    // The download stays an API URL (payment and expiry are checked there), streamed from the bucket.
    expect(purchase.download_url.startsWith(t.baseUrl)).toBe(true);
    const download = await fetch(purchase.download_url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.length).toBe(purchase.result_size_bytes);
    expect(Number(download.headers.get('content-length'))).toBe(bytes.length);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'webp', width: 64, height: 40 });

    const deleted = await fetch(`${t.baseUrl}/api/x402/v1/convert-file/${done.job_id}/delete`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await jobKeys(done.job_id)).toEqual([]);
    expect((await fetch(purchase.download_url)).status).not.toBe(200);
  });

  it('key API: an upload is copied object to object for its conversion, and the result downloads', async () => {
    const api = keyApiClient(t.baseUrl);
    const converted = (await (await api.uploadAndConvert(png, 'photo.png', 'png', 'webp')).json()) as { Status: string; file: { urls: string[] } };
    expect(converted.Status).toBe('OK');
    const download = await fetch(`${t.baseUrl}${converted.file.urls[0]}`);
    expect(download.status).toBe(200);
    expect(await sharp(Buffer.from(await download.arrayBuffer())).metadata()).toMatchObject({ format: 'webp', width: 64, height: 40 });
    expect((await s3.keys()).some((key) => key.startsWith(`${prefix}/key-api/uploads/`))).toBe(true);
  });

  it('an upload over the limit is refused (413) while it streams, and leaves no object', async () => {
    const before = await s3.keys();
    const refused = await keyApiClient(t.baseUrl).upload(Buffer.alloc(LIMIT + 100_000, 3), 'big.bin');
    expect(refused.status).toBe(413);
    expect(await s3.keys()).toEqual(before);
  });

  it('a store that refuses the upload is the service failing (500), not a malformed request (400)', async () => {
    const broken = await startTestApp({ ...s3.env, S3_BUCKET: 'never-created' });
    try {
      const answer = await keyApiClient(broken.baseUrl).upload(png, 'photo.png');
      expect(answer.status).toBe(500);
      expect(await answer.text()).not.toContain('S3RVER');
    } finally {
      await broken.close();
    }
  });
});
