import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffprobeEntries, SUBTITLE_LINE, SUBTITLE_SAMPLES, writeVideoSample } from '@fileshift/converters/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyApiClient } from './support/key-api-client.js';
import { type PaidTestApp, startPaidTestApp } from './support/paid-test-app.js';
import { convertFile, jobEnded } from './support/x402-jobs.js';


/** Video, sound tracks, poster frames and subtitles through the whole service, formats named by their aliases too. */
describe('media (real service, ffmpeg and settlement)', () => {
  let t: PaidTestApp;
  const dir = mkdtempSync(join(tmpdir(), 'fileshift-media-e2e-'));
  let mp4: Buffer;

  const convert = (fetcher: typeof fetch, file: Buffer, filename: string, target: string, options?: object) => convertFile(t.baseUrl, fetcher, file, filename, target, options);

  const saved = (name: string, bytes: Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  const download = async (url: string) => Buffer.from(await (await fetch(`${t.baseUrl}${url}`)).arrayBuffer());

  beforeAll(async () => {
    t = await startPaidTestApp({ payerIndex: 6 });
    mp4 = readFileSync(writeVideoSample('mp4', join(dir, 'clip.mp4'), { seconds: 2 }));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('key API: MP4 → WebM, GIF and the sound track as MP3, each checked by ffprobe or sharp', async () => {
    const api = keyApiClient(t.baseUrl);
    const webm = await api.uploadAndConvert(mp4, 'clip.mp4', 'mp4', 'webm');
    expect(webm.status).toBe(200);
    const webmPath = saved('clip.webm', await download(((await webm.json()) as { file: { urls: string[] } }).file.urls[0]!));
    expect(ffprobeEntries(webmPath, 'stream=codec_name')).toEqual(['vp9', 'opus']);
    expect(Number(ffprobeEntries(webmPath, 'format=duration')[0])).toBeCloseTo(2, 0);

    const gif = await api.uploadAndConvert(mp4, 'clip.mp4', 'mp4', 'gif');
    const gifMeta = await sharp(await download(((await gif.json()) as { file: { urls: string[] } }).file.urls[0]!), { pages: -1 }).metadata();
    expect([gifMeta.format, gifMeta.pages]).toEqual(['gif', 20]);

    const mp3 = await api.uploadAndConvert(mp4, 'clip.mp4', 'mp4', 'mp3');
    expect(ffprobeEntries(saved('clip.mp3', await download(((await mp3.json()) as { file: { urls: string[] } }).file.urls[0]!)), 'stream=codec_name')).toEqual(['mp3']);
  });

  it('x402: a poster frame asked for as "JPEG" (an alias) is sold as jpg', async () => {
    const done = await jobEnded(await convert(t.pay, mp4, 'holiday.mp4', 'JPEG'));
    expect(done).toMatchObject({ status: 'done', target_format: 'jpg', detected_input_format: 'mp4' });
    const purchase = (await (await t.pay(done.result_url!)).json()) as { download_url: string; filename: string; mime_type: string };
    expect([purchase.filename, purchase.mime_type]).toEqual(['holiday.jpg', 'image/jpeg']);
    const meta = await sharp(Buffer.from(await (await fetch(purchase.download_url)).arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 160, 120]);
  });

  it('x402: SubRip → WebVTT keeps the cues', async () => {
    const srt = Buffer.from(SUBTITLE_SAMPLES.srt!);
    const done = await jobEnded(await convert(t.pay, srt, 'captions.srt', 'vtt'));
    const purchase = (await (await t.pay(done.result_url!)).json()) as { download_url: string };
    const text = Buffer.from(await (await fetch(purchase.download_url)).arrayBuffer()).toString('utf8');
    expect(text).toMatch(/^WEBVTT/);
    expect(text).toContain(`00:01.000 --> 00:03.500\n${SUBTITLE_LINE}`);
  });

  it('an HLS playlist named like a video is refused before any payment is asked for', async () => {
    const playlist = Buffer.from('#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nfile:/etc/passwd\n#EXT-X-ENDLIST\n');
    const refused = await convert(fetch, playlist, 'video.mp4', 'webm');
    expect(refused.status).toBe(422);
    expect(refused.headers.get('payment-required')).toBeNull();
    const api = keyApiClient(t.baseUrl);
    const keyRefusal = await api.uploadAndConvert(playlist, 'video.mp4', 'mp4', 'webm');
    expect(keyRefusal.status).not.toBe(200);
    expect(((await keyRefusal.json()) as { Message: string }).Message).toMatch(/bytes/);
  });
});
