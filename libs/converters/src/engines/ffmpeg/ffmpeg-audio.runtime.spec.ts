import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FFMPEG_AUDIO_DESCRIPTOR } from './ffmpeg-audio.descriptor.js';
import { FfmpegAudioRuntime } from './ffmpeg-audio.runtime.js';
import { convertStep, expectFailure, testContext, leftovers } from '../../../test/support/test-context.js';

const workRoot = mkdtempSync(join(tmpdir(), 'fileshift-ffmpeg-work-'));
// The test's files live in the engine's scratch directory, as a job's input does: only it is bound into the sandbox.
const dir = mkdtempSync(join(workRoot, 'files-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(workRoot, { recursive: true, force: true });
});
const ffprobe = (path: string, entry: string) => execFileSync('ffprobe', ['-v', 'error', '-show_entries', entry, '-of', 'csv=p=0', path], { encoding: 'utf8' }).trim();

describe('FfmpegAudioRuntime (Debian package ffmpeg)', () => {
  const runtime = new FfmpegAudioRuntime();
  let mp3 = '';
  let wav = '';
  let flac = '';

  beforeAll(async () => {
    const probe = await runtime.probe();
    if (!probe.available) {
      console.error(`\n*** ENGINE MISSING: ffmpeg (${probe.problem}). Install the Debian package ffmpeg; these tests FAIL without it. ***\n`);
      return;
    }
    mp3 = join(dir, 'tone.mp3');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-c:a', 'libmp3lame', mp3]);
    wav = join(dir, 'tone.wav');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', wav]);
    flac = join(dir, 'tone.flac');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', flac]);
  });

  it('is installed on this machine', async () => {
    expect((await runtime.probe()).available).toBe(true);
  });

  it('offers every pair of 14 formats it reads to the 13 it writes, and each to itself (amr only to itself: copied)', () => {
    expect(FFMPEG_AUDIO_DESCRIPTOR.pairs).toHaveLength(14 * 13 - 13 + 14);
    expect(FFMPEG_AUDIO_DESCRIPTOR.pairs.filter((pair) => pair.to === 'amr')).toEqual([{ from: 'amr', to: 'amr', options: ['trim', 'strip_metadata'] }]);
  });

  const cases: Array<[() => string, string, string, RegExp, string]> = [
    [() => mp3, 'mp3', 'wav', /^wav$/, 'pcm_s16le'],
    [() => wav, 'wav', 'mp3', /^mp3$/, 'mp3'],
    [() => flac, 'flac', 'ogg', /^ogg$/, 'vorbis'],
    [() => mp3, 'mp3', 'opus', /^ogg$/, 'opus'],
    [() => wav, 'wav', 'm4a', /mp4/, 'aac'],
    [() => wav, 'wav', 'aac', /^aac$/, 'aac'],
    [() => wav, 'wav', 'flac', /^flac$/, 'flac'],
    [() => flac, 'flac', 'aiff', /^aiff$/, 'pcm_s16be'],
    [() => mp3, 'mp3', 'wma', /^asf$/, 'wmav2'],
    [() => wav, 'wav', 'ac3', /^ac3$/, 'ac3'],
    [() => wav, 'wav', 'au', /^au$/, 'pcm_s16be'],
    [() => wav, 'wav', 'caf', /^caf$/, 'pcm_s16le'],
    [() => wav, 'wav', 'wv', /^wv$/, 'wavpack'],
  ];
  for (const [input, from, to, container, codec] of cases) {
    it(`converts ${from} to ${to}: right container and codec, duration kept, progress reported`, async () => {
      const progress: number[] = [];
      const [out] = (await convertStep(runtime, { inputPath: input(), from, to }, dir, { workDir: workRoot, onProgress: (p) => progress.push(p) })) as [string];
      expect(ffprobe(out, 'format=format_name')).toMatch(container);
      expect(ffprobe(out, 'stream=codec_name')).toBe(codec);
      // ADTS has no duration header: ffprobe estimates it from the bitrate, so allow more.
      expect(Math.abs(Number(ffprobe(out, 'format=duration')) - 2)).toBeLessThan(to === 'aac' ? 0.5 : 0.15);
      expect(progress.at(-1)).toBe(100);
      expect(leftovers(workRoot, dir)).toEqual([]);
    });
  }

  it('cuts the output at the duration limit', async () => {
    const [out] = (await convertStep(runtime, { inputPath: mp3, from: 'mp3', to: 'wav' }, dir, testContext(runtime, workRoot, { maxDurationSeconds: 1 }))) as [string];
    expect(Number(ffprobe(out, 'format=duration'))).toBeCloseTo(1, 1);
  });

  it('encodes at the bitrate asked for', async () => {
    const [low] = (await convertStep(runtime, { inputPath: wav, from: 'wav', to: 'mp3', options: { bitrate: '64k' } }, dir, { workDir: workRoot })) as [string];
    const [high] = (await convertStep(runtime, { inputPath: wav, from: 'wav', to: 'mp3', options: { bitrate: '320k' } }, dir, { workDir: workRoot })) as [string];
    expect(Number(ffprobe(low, 'format=bit_rate'))).toBeLessThan(80_000);
    expect(Number(ffprobe(high, 'format=bit_rate'))).toBeGreaterThan(250_000);
  });

  it('lowers a bitrate its encoder cannot take for the channels there are, rather than failing', async () => {
    // libvorbis refuses 320k for one channel, libopus more than 256k per channel; the tone is mono.
    const [vorbis] = (await convertStep(runtime, { inputPath: wav, from: 'wav', to: 'ogg', options: { bitrate: '320k' } }, dir, { workDir: workRoot })) as [string];
    const [opus] = (await convertStep(runtime, { inputPath: wav, from: 'wav', to: 'opus', options: { bitrate: '320k' } }, dir, { workDir: workRoot })) as [string];
    expect(ffprobe(vorbis, 'stream=codec_name')).toBe('vorbis');
    expect(ffprobe(opus, 'stream=codec_name')).toBe('opus');
  });

  it('reads each file with the demuxer of its format, never one guessed from the content', async () => {
    // A WAV claimed as FLAC is not read as WAV: the claim (checked against the bytes by the detector) decides.
    await expectFailure(convertStep(runtime, { inputPath: wav, from: 'flac', to: 'mp3' }, dir, { workDir: workRoot }), 'unsupported_or_corrupt_input', dir);
  });

  it('reports corrupt input as unsupported_or_corrupt_input, not a crash, and cleans up', async () => {
    const corrupt = join(dir, 'corrupt.mp3');
    writeFileSync(corrupt, 'this is not audio at all');
    const error = await expectFailure(convertStep(runtime, { inputPath: corrupt, from: 'mp3', to: 'wav' }, dir, { workDir: workRoot }), 'unsupported_or_corrupt_input', dir);
    expect(error.retryable).toBe(false);
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('treats a hostile file name as a name', async () => {
    const hostile = join(dir, 'a; rm -rf x $(touch pwned).wav');
    execFileSync('cp', [wav, hostile]);
    const [out] = (await convertStep(runtime, { inputPath: hostile, from: 'wav', to: 'mp3' }, join(dir, 'hostile out; echo'), { workDir: workRoot })) as [string];
    expect(ffprobe(out, 'format=format_name')).toBe('mp3');
    expect(readdirSync(dir)).not.toContain('pwned');
  });

  it('refuses an output format it does not write', async () => {
    await expectFailure(convertStep(runtime, { inputPath: wav, from: 'wav', to: 'mid' }, dir, { workDir: workRoot }), 'unsupported_output_format', dir);
  });
});
