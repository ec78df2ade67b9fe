import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FFMPEG_VIDEO_DESCRIPTOR } from './ffmpeg-video.descriptor.js';
import { FfmpegVideoRuntime } from './ffmpeg-video.runtime.js';
import { ffprobeEntries, writeVideoSample } from '../../../testing/media-samples.js';
import { convertStep, expectFailure, testContext, leftovers } from '../../../test/support/test-context.js';

const workRoot = mkdtempSync(join(tmpdir(), 'fileshift-video-work-'));
// The test's files live in the engine's scratch directory, as a job's input does: only it is bound into the sandbox.
const dir = mkdtempSync(join(workRoot, 'files-'));
/** Outside any job's scratch directory: what hostile inputs point at. */
const outside = mkdtempSync(join(tmpdir(), 'fileshift-video-outside-'));
afterAll(() => {
  for (const path of [dir, workRoot, outside]) rmSync(path, { recursive: true, force: true });
});
const duration = (path: string) => Number(ffprobeEntries(path, 'format=duration')[0]);

describe('FfmpegVideoRuntime (Debian package ffmpeg)', () => {
  const runtime = new FfmpegVideoRuntime();
  let mp4 = '';
  let silentWebm = '';
  let wide = '';

  beforeAll(async () => {
    const probe = await runtime.probe();
    if (!probe.available) {
      console.error(`\n*** ENGINE MISSING: ffmpeg (${probe.problem}). Install the Debian package ffmpeg; these tests FAIL without it. ***\n`);
      return;
    }
    mp4 = writeVideoSample('mp4', join(dir, 'clip.mp4'), { seconds: 3 });
    silentWebm = writeVideoSample('webm', join(dir, 'silent.webm'), { silent: true });
    wide = writeVideoSample('mkv', join(dir, 'wide.mkv'), { size: '640x360' });
  });

  it('is installed on this machine', async () => {
    expect((await runtime.probe()).available).toBe(true);
  });

  it('offers 11 video formats → 6 video targets and each to itself, 13 audio targets and 2 poster formats', () => {
    expect(FFMPEG_VIDEO_DESCRIPTOR.pairs).toHaveLength(11 * 6 - 5 + 11 + 11 * 13 + 11 * 2);
  });

  it('converts mp4 to webm: VP9 and Opus, duration kept, progress rising to 100, nothing left behind', async () => {
    const progress: number[] = [];
    const [out] = (await convertStep(runtime, { inputPath: mp4, from: 'mp4', to: 'webm' }, dir, { workDir: workRoot, onProgress: (p) => progress.push(p) })) as [string];
    expect(ffprobeEntries(out, 'stream=codec_name')).toEqual(['vp9', 'opus']);
    expect(Math.abs(duration(out) - 3)).toBeLessThan(0.2);
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('converts a video without sound, and refuses its sound track as audio', async () => {
    const [out] = (await convertStep(runtime, { inputPath: silentWebm, from: 'webm', to: 'mp4' }, dir, { workDir: workRoot })) as [string];
    expect(ffprobeEntries(out, 'stream=codec_name')).toEqual(['h264']);
    const error = await expectFailure(convertStep(runtime, { inputPath: silentWebm, from: 'webm', to: 'mp3' }, dir, { workDir: workRoot }), 'unsupported_or_corrupt_input', dir);
    expect(error.message).toBe('The video has no sound track.');
  });

  it('takes the sound track as audio at the bitrate asked for', async () => {
    const [out] = (await convertStep(runtime, { inputPath: mp4, from: 'mp4', to: 'mp3', options: { bitrate: '96k' } }, dir, { workDir: workRoot })) as [string];
    expect(ffprobeEntries(out, 'stream=codec_name')).toEqual(['mp3']);
    expect(Number(ffprobeEntries(out, 'format=bit_rate')[0])).toBeLessThan(110_000);
  });

  it('takes a poster frame a tenth into the video, at the video size', async () => {
    const [png] = (await convertStep(runtime, { inputPath: wide, from: 'mkv', to: 'png' }, dir, { workDir: workRoot })) as [string];
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 640, 360]);
  });

  it('makes an animated GIF at most 480 wide, 10 frames a second', async () => {
    const [gif] = (await convertStep(runtime, { inputPath: wide, from: 'mkv', to: 'gif' }, dir, { workDir: workRoot })) as [string];
    const meta = await sharp(gif, { pages: -1 }).metadata();
    expect([meta.format, meta.width]).toEqual(['gif', 480]);
    expect(meta.pages).toBe(10);
  });

  it('cuts the output at the duration limit', async () => {
    const [out] = (await convertStep(runtime, { inputPath: mp4, from: 'mp4', to: 'mkv' }, dir, testContext(runtime, workRoot, { maxDurationSeconds: 1 }))) as [string];
    expect(duration(out)).toBeLessThan(1.2);
  });

  it('refuses frames past the pixel limit before decoding, naming the limit', async () => {
    const error = await expectFailure(convertStep(runtime, { inputPath: wide, from: 'mkv', to: 'mp4' }, dir, testContext(runtime, workRoot, { maxInputPixels: 320 * 240 })), 'file_too_large', dir);
    expect(error.message).toContain('640×360');
  });

  it('reports corrupt input as unsupported_or_corrupt_input, without paths, and cleans up', async () => {
    const corrupt = join(dir, 'corrupt.mp4');
    writeFileSync(corrupt, Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(200, 7)]));
    const error = await expectFailure(convertStep(runtime, { inputPath: corrupt, from: 'mp4', to: 'webm' }, dir, { workDir: workRoot }), 'unsupported_or_corrupt_input', dir);
    expect(error.retryable).toBe(false);
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('stops at once when the job is aborted', async () => {
    const long = writeVideoSample('mp4', join(dir, 'long.mp4'), { seconds: 30, size: '640x360' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const error = await convertStep(runtime, { inputPath: long, from: 'mp4', to: 'webm' }, dir, { workDir: workRoot, signal: controller.signal }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(leftovers(workRoot, dir)).toEqual([]);
  });
});

/**
 * Classic attacks on ffmpeg: a playlist or a concat list named like a video makes a guessing ffmpeg open
 * other files (here a clip outside the job's directory; elsewhere /etc/passwd or a URL). A permissive ffmpeg
 * (the positive control) shows each sample is live; the runtime reads every input with the demuxer of its
 * claimed format, so it never follows them.
 */
describe('hostile media: playlists and concat lists disguised as videos', () => {
  const runtime = new FfmpegVideoRuntime();
  let secret = '';
  const hostile: Record<string, { file: string; from: string; controlArgs: string[] }> = {};

  beforeAll(() => {
    secret = writeVideoSample('m2ts', join(outside, 'secret.ts'));
    copyFileSync(secret, join(outside, 'secret-segment.ts'));
    const samples = join(dir, 'hostile');
    mkdirSync(samples, { recursive: true });
    const write = (name: string, text: string) => {
      writeFileSync(join(samples, name), text);
      return join(samples, name);
    };
    hostile.hls = {
      file: write('playlist.mp4', `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0,\nfile:${join(outside, 'secret-segment.ts')}\n#EXT-X-ENDLIST\n`),
      from: 'mp4',
      controlArgs: ['-protocol_whitelist', 'file'],
    };
    hostile.concat = {
      file: write('list.mkv', `ffconcat version 1.0\nfile '${secret}'\n`),
      from: 'mkv',
      controlArgs: ['-safe', '0'],
    };
  });

  for (const kind of ['hls', 'concat'] as const) {
    it(`positive control: an ffmpeg that guesses the container follows the ${kind} sample to the file outside`, () => {
      const { file, controlArgs } = hostile[kind]!;
      const out = join(dir, `control-${kind}.mkv`);
      execFileSync('ffmpeg', ['-v', 'error', '-y', ...controlArgs, '-i', file, '-c', 'copy', out]);
      expect(ffprobeEntries(out, 'stream=codec_type', 'v')).toEqual(['video']);
    });

    it(`the runtime refuses the ${kind} sample as corrupt input and never opens the file outside`, async () => {
      const { file, from } = hostile[kind]!;
      await expectFailure(convertStep(runtime, { inputPath: file, from, to: 'mp4' }, dir, { workDir: workRoot }), 'unsupported_or_corrupt_input', outside);
      await expectFailure(convertStep(runtime, { inputPath: file, from, to: 'png' }, dir, { workDir: workRoot }), 'unsupported_or_corrupt_input', outside);
    });
  }
});
