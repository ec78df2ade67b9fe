import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getFormat } from '@fileshift/formats';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeysRepository } from '../src/api-keys/api-keys.repository.js';
import { LiveConversionsService } from '../src/live-conversions/live-conversions.service.js';
import { uploadStorageKey } from '../src/key-api/key-api-uploads.js';
import { FILE_STORAGE, type FileStorage } from '../src/storage/file-storage.js';
import { type KeyApiError, keyApiClient, rawGet } from './support/key-api-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { runPurgeExpired } from './support/test-queue.js';

interface Converted {
  Status: 'OK';
  file: { ext_out: string; urls: string[] };
}

function ffmpeg(args: string[]): Buffer {
  try {
    return execFileSync('ffmpeg', ['-v', 'error', ...args]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('ffmpeg is not installed: the audio conversion cannot be tested (CI installs it; apt-get install ffmpeg)');
    throw error;
  }
}

describe('key API (real service, queue, workers and engines)', () => {
  let t: TestApp;
  let api: ReturnType<typeof keyApiClient>;
  let png: Buffer;
  const limits = { requestsPerMinute: 10_000, dailyQuota: 100_000, maxUploadBytes: 41_943_040 };

  const json = async <T>(response: Response) => (await response.json()) as T;
  const expectError = async (response: Response, status: number, message: RegExp) => {
    expect(response.status).toBe(status);
    const body = await json<KeyApiError>(response);
    expect(body).toEqual({ Status: 'Error', Message: expect.stringMatching(message) });
  };

  beforeAll(async () => {
    t = await startTestApp();
    const { secret } = await t.app.get(ApiKeysRepository).create('e2e', limits);
    api = keyApiClient(t.baseUrl, secret);
    png = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#0066cc' } }).png().toBuffer();
  });
  afterAll(async () => t?.close());

  it('upload → convert PNG to webp → download the URL: the bytes are a 64×40 webp', async () => {
    const uploaded = await api.upload(png, 'photo.png');
    expect(uploaded.status).toBe(200);
    const { Status, Filename } = await json<{ Status: string; Filename: string }>(uploaded);
    expect(Status).toBe('OK');
    expect(Filename).toMatch(/^[A-Za-z0-9_-]{32}\.png$/);

    const response = await api.post('convert', { filename: Filename, ext_in: 'png', ext_out: 'webp' });
    expect(response.status).toBe(200);
    const converted = await json<Converted>(response);
    expect(converted).toEqual({ Status: 'OK', file: { ext_out: 'webp', urls: [expect.stringMatching(/^\/tmp\/[A-Za-z0-9_-]{32}\.webp$/)] } });

    const download = await fetch(`${t.baseUrl}${converted.file.urls[0]}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/webp');
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="photo\.webp"/);
    const metadata = await sharp(Buffer.from(await download.arrayBuffer())).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 64, height: 40 });

    // The same request again is the same conversion; another target is another one.
    const again = await json<Converted>(await api.post('convert', { filename: Filename, ext_in: 'png', ext_out: 'webp' }));
    expect(again.file.urls).toEqual(converted.file.urls);
    const jpeg = await json<Converted>(await api.post('convert', { filename: Filename, ext_in: '.PNG', ext_out: 'jpeg' }));
    expect(jpeg.file).toEqual({ ext_out: 'jpeg', urls: [expect.stringMatching(/\.jpeg$/)] });
    const jpegBytes = Buffer.from(await (await fetch(`${t.baseUrl}${jpeg.file.urls[0]}`)).arrayBuffer());
    expect(jpegBytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('upload → convert WAV to mp3 through ffmpeg → the download is MP3 audio of the same length', async () => {
    const wav = ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-f', 'wav', 'pipe:1']);
    const response = await api.uploadAndConvert(wav, 'tone.wav', 'wav', 'mp3');
    expect(response.status).toBe(200);
    const { file } = await json<Converted>(response);
    const download = await fetch(`${t.baseUrl}${file.urls[0]}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('audio/mpeg');
    const mp3Path = join(t.config.dataDir, 'downloaded.mp3');
    writeFileSync(mp3Path, Buffer.from(await download.arrayBuffer()));
    const probe = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=format_name,duration', '-of', 'json', mp3Path]);
    const { format } = JSON.parse(probe.toString()) as { format: { format_name: string; duration: string } };
    expect(format.format_name).toBe('mp3');
    expect(Number(format.duration)).toBeCloseTo(1, 0);
  });

  it('lists output formats from the conversion graph: an image, an audio and an unknown extension', async () => {
    const { graph } = await t.app.get(LiveConversionsService).current();
    const expected = (id: string) => graph.targetsOf(id).map((target) => getFormat(target)!.extension).sort();

    const image = await json<{ Status: string; extensions: string[]; losses: Record<string, string[]> }>(await api.post('list_ext_out', { ext_in: 'png' }));
    expect(image.Status).toBe('OK');
    expect(image.extensions).toEqual(expected('png'));
    expect(image.extensions).toEqual(expect.arrayContaining(['webp', 'jpg', 'avif']));
    // What each target loses, in sentences; a target that keeps the content is not listed.
    expect(image.losses.jpg).toEqual([expect.stringMatching(/^Compressed with loss/), expect.stringMatching(/^Transparent areas become white/)]);
    expect(image.losses.tiff).toBeUndefined();

    const byType = await json<{ Status: string; extensions_by_type: Record<string, Record<string, number>>; menu_popular: Array<Record<string, string[]>>; type: string }>(
      await api.post('list_ext_out_by_type', { ext_in: 'jpeg' }),
    );
    expect(byType.Status).toBe('OK');
    expect(byType.type).toBe('image');
    expect(byType.extensions_by_type.image).toMatchObject({ webp: graph.isRecommended('jpg', 'webp') ? 1 : 0, png: graph.isRecommended('jpg', 'png') ? 1 : 0 });
    expect(Object.values(byType.extensions_by_type).flatMap((group) => Object.keys(group)).sort()).toEqual(expected('jpg'));
    expect(Object.keys(byType.menu_popular[0]!)).toEqual(['image']);

    const audio = await json<{ extensions_by_type: Record<string, Record<string, number>>; type: string }>(await api.post('list_ext_out_by_type', { ext_in: 'wav' }));
    expect(audio.type).toBe('audio');
    expect(Object.keys(audio.extensions_by_type.audio!)).toEqual(expect.arrayContaining(['mp3', 'flac']));
    expect((await json<{ extensions: string[] }>(await api.post('list_ext_out', { ext_in: 'mp3' }))).extensions).toEqual(expected('mp3'));

    await expectError(await api.post('list_ext_out', { ext_in: 'xyz' }), 400, /^Unknown input extension "xyz"\.$/);
    await expectError(await api.post('list_ext_out_by_type', { ext_in: 'xyz' }), 400, /^Unknown input extension "xyz"\.$/);
    await expectError(await api.post('list_ext_out', {}), 400, /ext_in/);
  });

  it('detects under the same key rules: a sentence, or JSON when asked', async () => {
    const body = Buffer.concat([Buffer.from('png\xfe4d2\xfeimage/png\xfephoto.png\xfe', 'latin1'), png.subarray(0, 200)]);
    const sentence = await api.detect(body, 'text/plain');
    expect(sentence.status).toBe(200);
    expect(await sentence.text()).toMatch(/PNG/);
    const structured = await api.detect(body, 'application/json');
    expect(await json<{ Status: string }>(structured)).toMatchObject({ Status: 'OK' });
    await expectError(await keyApiClient(t.baseUrl, 'fsk_wrong').detect(body), 401, /^Invalid API key\.$/);
  });

  it('answers every conversion error with its own message and status', async () => {
    const { Filename } = await json<{ Filename: string }>(await api.upload(png, 'picture.png'));
    const convert = (body: Record<string, unknown>) => api.post('convert', body);

    await expectError(await convert({ filename: 'A'.repeat(32), ext_in: 'png', ext_out: 'webp' }), 404, /No uploaded file named/);
    await expectError(await convert({ filename: '../../etc/passwd', ext_in: 'png', ext_out: 'webp' }), 404, /No uploaded file named/);
    await expectError(await convert({ filename: Filename, ext_in: 'nope', ext_out: 'webp' }), 400, /^Unknown input extension "nope"\.$/);
    await expectError(await convert({ filename: Filename, ext_in: 'png', ext_out: 'nope' }), 400, /^Unknown output extension "nope"\.$/);
    await expectError(await convert({ filename: Filename, ext_in: 'png', ext_out: 'mp3' }), 400, /\(png\) judging by its bytes; png cannot be converted to mp3 here\. POST \/api\/v1\/list_ext_out/);
    await expectError(await convert({ filename: Filename, ext_in: 'png' }), 400, /ext_out/);
    await expectError(await convert({ filename: Filename, ext_in: 'png', ext_out: 'web p' }), 400, /ext_out/);

    // ext_in contradicts the bytes: the bytes win when they can reach the target, else the contradiction is named.
    const relabelled = await json<Converted>(await convert({ filename: Filename, ext_in: 'gif', ext_out: 'webp' }));
    const webp = Buffer.from(await (await fetch(`${t.baseUrl}${relabelled.file.urls[0]}`)).arrayBuffer());
    expect((await sharp(webp).metadata()).format).toBe('webp');
    await expectError(await convert({ filename: Filename, ext_in: 'wav', ext_out: 'mp3' }), 400, /is PNG image .*\(png\) judging by its bytes, not wav as declared; png cannot be converted to mp3/);

    // A file that claims to be a PNG but is broken: the conversion fails, with the engine's reason.
    const corrupt = Buffer.concat([png.subarray(0, 60), Buffer.alloc(200, 7)]);
    await expectError(await api.uploadAndConvert(corrupt, 'broken.png', 'png', 'webp'), 422, /^The conversion failed \(unsupported_or_corrupt_input\)/);

    // Another key's upload does not exist for this key.
    const { secret } = await t.app.get(ApiKeysRepository).create('other', limits);
    await expectError(await keyApiClient(t.baseUrl, secret).post('convert', { filename: Filename, ext_in: 'png', ext_out: 'webp' }), 404, /No uploaded file named/);
  });

  it('refuses bad uploads in the key API shape', async () => {
    const noMultipart = await fetch(`${t.baseUrl}/api/v1/upload`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'a file' });
    await expectError(noMultipart, 415, /multipart\/form-data/);
    const noSourceUrl = await fetch(`${t.baseUrl}/api/v1/upload`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await expectError(noSourceUrl, 400, /source_url/);
    const form = new FormData();
    form.append('document', new Blob([png]), 'a.png');
    await expectError(await fetch(`${t.baseUrl}/api/v1/upload`, { method: 'POST', body: form }), 400, /part named "file"/);
    await expectError(await api.upload(Buffer.alloc(0), 'empty.png'), 400, /^The file is empty\.$/);
    const truncated = await fetch(`${t.baseUrl}/api/v1/upload`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nno closing boundary',
    });
    await expectError(truncated, 400, /multipart/i);
  });

  it('serves /tmp/ files only by their exact unguessable name: no path escapes the storage directory', async () => {
    const { file } = await json<Converted>(await api.uploadAndConvert(png, 'x.png', 'png', 'webp'));
    const name = file.urls[0]!.slice('/tmp/'.length);
    const token = name.split('.')[0]!;
    expect((await rawGet(t.baseUrl, `/tmp/${name}`)).status).toBe(200);
    const attempts = [
      `/tmp/${token}.png`,
      `/tmp/${token}`,
      `/tmp/${token}.webp%00.png`,
      '/tmp/../package.json',
      '/tmp/..%2F..%2Fpackage.json',
      '/tmp/%2e%2e%2f%2e%2e%2fpackage.json',
      '/tmp/..%5c..%5cpackage.json',
      '/tmp//etc/passwd',
      '/tmp/%2Fetc%2Fpasswd',
      `/tmp/${encodeURIComponent(t.config.dataDir)}`,
      '/tmp/%00',
      '/tmp/key-api%2Fuploads',
      `/tmp/${'A'.repeat(32)}.webp`,
    ];
    for (const path of attempts) {
      const response = await rawGet(t.baseUrl, path);
      expect(response.status, path).toBe(404);
      expect(JSON.parse(response.body), path).toMatchObject({ Status: 'Error' });
    }
  });

  it('refuses an unknown, an empty and a revoked key with 401', async () => {
    const keys = t.app.get(ApiKeysRepository);
    const { key, secret } = await keys.create('short-lived', limits);
    const client = keyApiClient(t.baseUrl, secret);
    expect((await client.post('list_ext_out', { ext_in: 'png' })).status).toBe(200);
    await keys.revoke(key.id);
    await expectError(await client.post('list_ext_out', { ext_in: 'png' }), 401, /^This API key has been revoked\.$/);
    await expectError(await client.upload(png, 'a.png'), 401, /revoked/);
    await expectError(await client.detect(Buffer.from('png')), 401, /revoked/);
    await expectError(await keyApiClient(t.baseUrl, `fsk_${'x'.repeat(43)}`).post('list_ext_out', { ext_in: 'png' }), 401, /^Invalid API key\.$/);
    await expectError(await keyApiClient(t.baseUrl, '').post('list_ext_out', { ext_in: 'png' }), 401, /header is empty/);
  });

  it('expires uploads and converted files after 24 hours through the same purge', async () => {
    const { Filename } = await json<{ Filename: string }>(await api.upload(png, 'old.png'));
    const { file } = await json<Converted>(await api.post('convert', { filename: Filename, ext_in: 'png', ext_out: 'webp' }));
    const db = t.app.get(DataSource);
    await db.query(`UPDATE key_api_uploads SET expires_at = now() - interval '1 second' WHERE filename = $1`, [Filename]);
    await db.query(`UPDATE conversion_jobs SET expires_at = now() - interval '1 second' WHERE origin = 'key_api'`);
    await expectError(await api.post('convert', { filename: Filename, ext_in: 'png', ext_out: 'webp' }), 404, /expire after 24 hours/);
    await expectError(await fetch(`${t.baseUrl}${file.urls[0]}`), 404, /expire after 24 hours/);

    // The scheduled job itself, run by the worker, removes every expired conversion of this file's tests and the upload.
    const [{ n: expiredConversions }] = await db.query(`SELECT count(*)::int AS n FROM conversion_jobs WHERE origin = 'key_api'`);
    expect(await runPurgeExpired({ redisUrl: t.config.redisUrl, prefix: t.config.queuePrefix, databaseUrl: t.config.databaseUrl! })).toEqual({ purged: expiredConversions, purgedUploads: 1 });
    expect(await t.app.get<FileStorage>(FILE_STORAGE).exists(uploadStorageKey(Filename))).toBe(false);
    expect((await db.query(`SELECT count(*)::int AS n FROM conversion_jobs WHERE origin = 'key_api'`))[0].n).toBe(0);
  });
});
