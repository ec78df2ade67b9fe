import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FFMPEG_AUDIO_DESCRIPTOR } from './ffmpeg-audio.descriptor.js';
import { FfmpegAudioRuntime } from './ffmpeg-audio.runtime.js';
import { AUDIO_READS } from './ffmpeg-formats.js';
import { metadataNotes, trimWindow } from './ffmpeg-operations.js';
import { VIDEO_READS } from './ffmpeg-video.descriptor.js';
import { FfmpegVideoRuntime } from './ffmpeg-video.runtime.js';
import { ENGINE_DESCRIPTORS } from '../engines.js';
import { validateOptions } from '../option-catalogue.js';
import { ConversionGraph } from '../../platform/conversion-graph.js';
import type { ConversionOptions } from '../../platform/conversion-options.js';
import type { EngineRuntime, StepOutcome } from '../../platform/engine-runtime.js';
import { convertStep, expectFailure, leftovers, testContext } from '../../../test/support/test-context.js';
import { reportMissingEngine } from '../../../testing/pdf-samples.js';
import { decodePixels, psnr, videoFrame } from '../../../testing/pixel-checks.js';
import { soundFacts } from '../../../testing/sound-checks.js';

const workRoot = mkdtempSync(join(tmpdir(), 'fileshift-ffmpeg-operations-'));
// The test's files live in the engine's scratch directory, as a job's input does: only it is bound into the sandbox.
const dir = mkdtempSync(join(workRoot, 'files-'));
afterAll(() => rmSync(workRoot, { recursive: true, force: true }));

const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);
/** ffprobe's reading (not the engine's) of some entries, as JSON. */
const probe = (path: string, ...args: string[]) => JSON.parse(execFileSync('ffprobe', ['-v', 'error', ...args, '-of', 'json', path], { encoding: 'utf8' })) as {
  format?: { duration?: string; tags?: Record<string, string> };
  streams?: Array<{ codec_name?: string; codec_type?: string; nb_read_frames?: string; disposition?: { attached_pic?: number }; tags?: Record<string, string> }>;
  chapters?: unknown[];
};
const durationOf = (path: string) => Number(probe(path, '-show_entries', 'format=duration').format!.duration);
/** The frames of the first picture track, decoded and counted by ffprobe. */
const framesOf = (path: string) => Number(probe(path, '-count_frames', '-select_streams', 'V:0', '-show_entries', 'stream=nb_read_frames').streams![0]!.nb_read_frames);
/** Every tag name ffprobe shows, of the container and of each track, lower-cased. */
const tagNames = (path: string) => {
  const probed = probe(path, '-show_entries', 'format_tags:stream_tags');
  return [probed.format?.tags, ...(probed.streams ?? []).map((stream) => stream.tags)].flatMap((tags) => Object.keys(tags ?? {})).map((name) => name.toLowerCase());
};
/**
 * The checksums of a track's packets, as ffmpeg's framemd5 muxer lists them: a copied track's packets are packets of
 * its source, an encoded one's are not.
 */
const packetHashes = (path: string, track: string) =>
  execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-map', `0:${track}`, '-c', 'copy', '-f', 'framemd5', '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    // stream, dts, pts, duration, size, checksum (then side data's, which a muxer may rewrite).
    .map((line) => line.split(',')[5]!.trim());
/** The decoded samples of the first sound track, `-ss`/`-t` applied by ffmpeg's decoder (sample-exact). */
const samplesOf = (path: string, ...cut: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-i', path, ...cut, '-map', '0:a:0', '-f', 's16le', '-ac', '1', '-ar', '44100', '-'], { maxBuffer: 64 * 1024 * 1024 });
/** The length of the sound as a player decodes it (ffmpeg's decoder, which skips what the file says is priming). */
const decodedSeconds = (path: string) => samplesOf(path).length / 2 / 44_100;

const MP3_FRAME = 1152 / 44_100;
/**
 * LAME's encoder delay (576 + 529 samples): ffprobe counts an encoded MP3's first frames, which a player skips, in its
 * duration.
 */
const LAME_DELAY = 1105 / 44_100;
const MP3_DECODER_DELAY = 529 / 44_100;
const FPS = 25;

async function step(runtime: EngineRuntime, inputPath: string, from: string, to: string, options: ConversionOptions): Promise<{ file: string; notes: string[] }> {
  const outputDir = mkdtempSync(join(dir, `${from}-to-${to}-`));
  const outcome: StepOutcome = await runtime.convert({ inputPath, outputDir, from, to, options }, testContext(runtime, workRoot));
  expect(outcome.files).toHaveLength(1);
  return { file: outcome.files[0]!, notes: outcome.notes ?? [] };
}

describe('ffmpeg operations: trim, a still at a time, metadata removed (checked by ffprobe and exiftool)', () => {
  const audio = new FfmpegAudioRuntime();
  const video = new FfmpegVideoRuntime();
  /** 32.5 s: 440 Hz for 15 s, then 880 Hz (a cut's start shows in the pitch). */
  let mp3 = '';
  let flac = '';
  /** 10 s of testsrc2 (its frames differ from one to the next) and a tone; keyframes every second, no B-frames. */
  let plainMp4 = '';
  let plainMkv = '';
  /** The same with x264's defaults: B-frames, one keyframe. */
  let reorderedMp4 = '';
  let webm = '';

  beforeAll(async () => {
    const probed = await audio.probe();
    if (!probed.available) {
      reportMissingEngine('ffmpeg', probed.problem, FFMPEG_AUDIO_DESCRIPTOR.debianPackages);
      return;
    }
    const twoTones = ['-f', 'lavfi', '-i', 'aevalsrc=0.5*sin(2*PI*if(lt(t\\,15)\\,440\\,880)*t):s=44100:d=32.5'];
    const cover = join(dir, 'cover.png');
    ffmpeg('-f', 'lavfi', '-i', 'color=red:s=64x64', '-frames:v', '1', cover);
    mp3 = join(dir, 'song.mp3');
    ffmpeg(...twoTones, '-i', cover, '-map', '0', '-map', '1', '-c:a', 'libmp3lame', '-b:a', '128k', '-c:v', 'copy', '-disposition:v', 'attached_pic',
      '-metadata', 'title=Secret title', '-metadata', 'artist=Somebody', '-metadata', 'location=+48.8577+002.2950/', mp3);
    flac = join(dir, 'song.flac');
    ffmpeg(...twoTones, '-c:a', 'flac', flac);
    const clip = ['-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=${FPS}:duration=10`, '-f', 'lavfi', '-i', 'sine=frequency=440:duration=10', '-shortest'];
    const tags = ['-metadata', 'title=Secret title', '-metadata', 'artist=Somebody', '-metadata', 'location=+48.8577+002.2950/'];
    plainMp4 = join(dir, 'plain.mp4');
    ffmpeg(...clip, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-g', String(FPS), '-bf', '0', '-c:a', 'aac', ...tags, plainMp4);
    plainMkv = join(dir, 'plain.mkv');
    const chapters = join(dir, 'chapters.txt');
    writeFileSync(chapters, ';FFMETADATA1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=4000\ntitle=Opening\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=4000\nEND=10000\ntitle=Rest\n');
    ffmpeg('-i', chapters, ...clip, '-map', '1:v', '-map', '2:a', '-map_chapters', '0', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-g', String(FPS), '-bf', '0', '-c:a', 'flac', ...tags, plainMkv);
    reorderedMp4 = join(dir, 'reordered.mp4');
    ffmpeg(...clip, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', ...tags, reorderedMp4);
    webm = join(dir, 'clip.webm');
    ffmpeg(...clip, '-c:v', 'libvpx', '-b:v', '400k', '-c:a', 'libvorbis', ...tags, webm);
  }, 120_000);

  it('offers each format the engines read to itself, one step, taking trim and strip_metadata; stills take frame', () => {
    const graph = new ConversionGraph(ENGINE_DESCRIPTORS);
    for (const format of [...AUDIO_READS, ...VIDEO_READS]) {
      const plans = graph.plans(format, format);
      expect(plans.map((plan) => plan.steps.map((s) => s.engine)), format).toEqual([[AUDIO_READS.includes(format as 'mp3') ? 'ffmpeg-audio' : 'ffmpeg-video']]);
      expect(graph.optionsOf(format, format), format).toEqual(['strip_metadata', 'trim']);
    }
    expect(graph.optionsOf('wav', 'mp3')).toEqual(['bitrate', 'strip_metadata', 'trim']);
    expect(graph.optionsOf('mkv', 'mp4')).toEqual(['strip_metadata', 'trim']);
    expect(graph.optionsOf('mov', 'png')).toEqual(['frame']);
  });

  it('validates trim and frame: seconds from 0 to 86400, a start before the end, nothing else', () => {
    const trim = (value: unknown) => validateOptions({ trim: value }, ['trim']);
    expect(trim({ start: 30 })).toEqual({ ok: true, options: { trim: { start: 30 } } });
    expect(trim({ start: 1.5, end: 2.25 })).toEqual({ ok: true, options: { trim: { start: 1.5, end: 2.25 } } });
    const refused = (value: unknown) => {
      const result = trim(value);
      expect(result.ok, JSON.stringify(value)).toBe(false);
      return result.ok ? '' : result.problems[0]!.message;
    };
    expect(refused({ start: 30, end: 30 })).toMatch(/start must be before end/);
    expect(refused({ start: 40, end: 30 })).toMatch(/start must be before end/);
    expect(refused({ start: -1 })).toMatch(/>=0|too small/i);
    expect(refused({ end: -5 })).toMatch(/>=0|too small/i);
    expect(refused({ end: 86_401 })).toMatch(/<=86400|too big/i);
    expect(refused({})).toMatch(/start, end or both/);
    expect(refused({ start: 1, duration: 2 })).toMatch(/unrecognized key/i);
    expect(refused('0:30')).toMatch(/object/);
    expect(validateOptions({ frame: 2.5 }, ['frame'])).toEqual({ ok: true, options: { frame: 2.5 } });
    expect(validateOptions({ frame: -0.1 }, ['frame']).ok).toBe(false);
    // On a pair that does not take it, trim is refused.
    expect(validateOptions({ trim: { start: 1 } }, ['frame']).ok).toBe(false);
  });

  it('notes name the tags removed, never a value; a name that is not a plain word is counted, not shown', () => {
    const none = { trackEncoderTag: false, coverArt: 0, chapters: 0, attachments: 0, dataTracks: 0 };
    const before = {
      ...none,
      tags: [['TITLE', 'x'], ['LOCATION-eng', '+48'], ['major_brand', 'isom'], ['encoder', 'Lavf59.27.100'], ['handler_name', 'SoundHandler'], ['<b>"hi"</b>', 'z']] as Array<[string, string]>,
      coverArt: 1,
      chapters: 2,
      dataTracks: 1,
    };
    const after = { ...none, tags: [['major_brand', 'mp42'], ['encoder', 'Lavf'], ['handler_name', 'SoundHandler']] as Array<[string, string]> };
    expect(metadataNotes(before, after)).toEqual(['removed tags: title, location, encoder, 1 other', 'removed cover art', 'removed chapters (2)', 'removed data tracks']);
    const many = { ...none, tags: Array.from({ length: 25 }, (_, i): [string, string] => [`tag${i}`, 'v']) };
    expect(metadataNotes(many, { ...none, tags: [] })[0]).toMatch(/tag19, 5 others$/);
    expect(metadataNotes(after, after)).toEqual(['found no metadata to remove']);
  });

  it('a trim\'s window: the start, the length within the limit, an end past the end kept to the end', () => {
    expect(trimWindow({ start: 10, end: 70 }, 120, 3600)).toEqual({ start: 10, seconds: 60, cuts: true, notes: [] });
    expect(trimWindow({ start: 10 }, 0, 3600)).toEqual({ start: 10, seconds: 3600, cuts: true, notes: [] });
    expect(trimWindow(undefined, 120, 3600)).toEqual({ start: 0, seconds: 3600, cuts: false, notes: [] });
    expect(trimWindow({ end: 130 }, 120, 3600)).toMatchObject({ start: 0, seconds: 3600, cuts: false, notes: ['the trim ends at 130 s, after the end of the recording (120 s): kept to the end'] });
    expect(() => trimWindow({ start: 120 }, 120, 3600)).toThrow('The trim starts at 120 s, after the end of the recording (120 s).');
  });

  describe('trim', () => {
    it('mp3 → mp3 copies the lossy sound: the packets are the source\'s, cut within one MP3 frame, from the right place', async () => {
      const { file, notes } = await step(audio, mp3, 'mp3', 'mp3', { trim: { start: 15, end: 25 } });
      expect(Math.abs(durationOf(file) - 10), `duration ${durationOf(file)}`).toBeLessThanOrEqual(MP3_FRAME);
      // Played: as long, but for the decoder's own delay (529 samples), the cut declaring no encoder delay it does not
      // have (ffmpeg's first Xing header would, and players would skip 90 ms).
      expect(Math.abs(decodedSeconds(file) - 10), `decoded ${decodedSeconds(file)}`).toBeLessThanOrEqual(MP3_FRAME + MP3_DECODER_DELAY);
      const source = new Set(packetHashes(mp3, 'a'));
      const packets = packetHashes(file, 'a');
      expect(packets.length).toBeGreaterThan(350);
      expect(packets.filter((hash) => !source.has(hash))).toEqual([]);
      // After 15 s the source is at 880 Hz: the cut starts there, not at the beginning.
      expect(Math.abs(soundFacts(file).toneHz - 880)).toBeLessThan(20);
      // Kept unless asked: the tags and the cover art.
      expect(probe(file, '-show_entries', 'format_tags').format?.tags?.['title']).toBe('Secret title');
      expect(probe(file, '-show_entries', 'stream=codec_type:stream_disposition=attached_pic').streams!.some((s) => s.disposition?.attached_pic === 1)).toBe(true);
      expect(notes).toEqual([]);
    });

    it('"cut the first 30 seconds": mp3 → mp3 with only a start keeps the rest', async () => {
      const { file } = await step(audio, mp3, 'mp3', 'mp3', { trim: { start: 30 } });
      expect(Math.abs(durationOf(file) - 2.5), `duration ${durationOf(file)}`).toBeLessThanOrEqual(MP3_FRAME);
      expect(Math.abs(decodedSeconds(file) - 2.5), `decoded ${decodedSeconds(file)}`).toBeLessThanOrEqual(MP3_FRAME + MP3_DECODER_DELAY);
      // And only an end: the encoder delay of the beginning kept, the padding of the end not.
      const first = (await step(audio, mp3, 'mp3', 'mp3', { trim: { end: 10 } })).file;
      expect(Math.abs(durationOf(first) - 10 - LAME_DELAY), `duration ${durationOf(first)}`).toBeLessThanOrEqual(MP3_FRAME);
      expect(Math.abs(decodedSeconds(first) - 10), `decoded ${decodedSeconds(first)}`).toBeLessThanOrEqual(MP3_FRAME);
    });

    it('flac → flac encodes the lossless sound again: every sample of the cut kept, exact to the sample', async () => {
      const { file } = await step(audio, flac, 'flac', 'flac', { trim: { start: 10, end: 12.5 } });
      expect(durationOf(file)).toBeCloseTo(2.5, 4);
      expect(samplesOf(file).equals(samplesOf(flac, '-ss', '10', '-t', '2.5'))).toBe(true);
    });

    it('m4a → m4a and opus → opus copy their sound too: within one codec frame', async () => {
      for (const [format, muxer, frame] of [['m4a', 'ipod', 1024 / 44_100], ['opus', 'opus', 0.02]] as const) {
        const source = join(dir, `song.${format}`);
        ffmpeg('-i', flac, '-c:a', format === 'm4a' ? 'aac' : 'libopus', '-f', muxer, source);
        const { file } = await step(audio, source, format, format, { trim: { start: 12.3, end: 20 } });
        expect(Math.abs(durationOf(file) - 7.7), `${format} ${durationOf(file)}`).toBeLessThanOrEqual(frame);
        const packets = new Set(packetHashes(source, 'a'));
        expect(packetHashes(file, 'a').filter((hash) => !packets.has(hash)), format).toEqual([]);
      }
    });

    it('wav → mp3 and m4a (encoded): the trimmed duration within one codec frame', async () => {
      const wav = join(dir, 'song.wav');
      ffmpeg('-i', flac, wav);
      const mp3Cut = (await step(audio, wav, 'wav', 'mp3', { trim: { start: 2, end: 7 } })).file;
      expect(Math.abs(durationOf(mp3Cut) - 5 - LAME_DELAY), `mp3 ${durationOf(mp3Cut)}`).toBeLessThanOrEqual(MP3_FRAME);
      expect(Math.abs(decodedSeconds(mp3Cut) - 5), `decoded ${decodedSeconds(mp3Cut)}`).toBeLessThanOrEqual(MP3_FRAME);
      const m4aCut = (await step(audio, wav, 'wav', 'm4a', { trim: { end: 4 } })).file;
      expect(Math.abs(durationOf(m4aCut) - 4), `m4a ${durationOf(m4aCut)}`).toBeLessThanOrEqual(1024 / 44_100);
    });

    it('an end past the end keeps the rest, and says so', async () => {
      const { file, notes } = await step(audio, flac, 'flac', 'flac', { trim: { start: 30, end: 100 } });
      expect(durationOf(file)).toBeCloseTo(2.5, 4);
      expect(notes).toEqual(['the trim ends at 100 s, after the end of the recording (32.5 s): kept to the end']);
    });

    it('a start past the end fails clearly, and writes no empty file', async () => {
      const error = await expectFailure(convertStep(audio, { inputPath: flac, from: 'flac', to: 'flac', options: { trim: { start: 40 } } }, dir, { workDir: workRoot }), 'unsupported_or_corrupt_input', dir);
      expect(error.message).toBe('The trim starts at 40 s, after the end of the recording (32.5 s).');
      const videoError = await expectFailure(convertStep(video, { inputPath: plainMp4, from: 'mp4', to: 'webm', options: { trim: { start: 12 } } }, dir, { workDir: workRoot }), 'unsupported_or_corrupt_input', dir);
      expect(videoError.message).toMatch(/^The trim starts at 12 s, after the end of the recording \(10(\.\d+)? s\)\.$/);
    });

    it('mp4 → mp4 without B-frames, cut on keyframes: copied, every packet the source\'s, within one frame', async () => {
      const { file } = await step(video, plainMp4, 'mp4', 'mp4', { trim: { start: 2, end: 5 } });
      expect(Math.abs(framesOf(file) / FPS - 3)).toBeLessThanOrEqual(1 / FPS + 1e-9);
      const source = new Set(packetHashes(plainMp4, 'v:0'));
      expect(packetHashes(file, 'v:0').filter((hash) => !source.has(hash))).toEqual([]);
      expect(psnr(decodePixels(file).rgba, videoFrame(plainMp4, 2).rgba)).toBeGreaterThanOrEqual(35);
    });

    it('mkv → mkv from a keyframe to the end: copied, within one frame', async () => {
      const { file } = await step(video, plainMkv, 'mkv', 'mkv', { trim: { start: 4 } });
      expect(Math.abs(framesOf(file) / FPS - 6)).toBeLessThanOrEqual(1 / FPS + 1e-9);
      const source = new Set(packetHashes(plainMkv, 'v:0'));
      expect(packetHashes(file, 'v:0').filter((hash) => !source.has(hash))).toEqual([]);
      // Chapters and tags stay unless metadata is stripped.
      expect(probe(file, '-show_chapters').chapters).toHaveLength(2);
    });

    it('mp4 → mp4 with B-frames, cut between keyframes: the picture encoded again, exact to the frame; the sound copied', async () => {
      const { file } = await step(video, reorderedMp4, 'mp4', 'mp4', { trim: { start: 2.52, end: 5.2 } });
      expect(Math.abs(framesOf(file) / FPS - 2.68)).toBeLessThanOrEqual(1 / FPS + 1e-9);
      // The first frame is the source's at 2.52 s (PSNR ≥ 35 dB), not one near it (testsrc2 changes every frame).
      const first = decodePixels(file).rgba;
      expect(psnr(first, videoFrame(reorderedMp4, 2.52).rgba)).toBeGreaterThanOrEqual(35);
      expect(psnr(first, videoFrame(reorderedMp4, 2.56).rgba)).toBeLessThan(25);
      expect(probe(file, '-show_entries', 'stream=codec_name').streams!.map((s) => s.codec_name)).toEqual(['h264', 'aac']);
      const source = new Set(packetHashes(reorderedMp4, 'a:0'));
      expect(packetHashes(file, 'a:0').filter((hash) => !source.has(hash))).toEqual([]);
    });

    it('webm → mp4 and mp4 → mp3 (encoded anyway): within one frame', async () => {
      const { file } = await step(video, webm, 'webm', 'mp4', { trim: { start: 1, end: 3 } });
      expect(Math.abs(framesOf(file) / FPS - 2)).toBeLessThanOrEqual(1 / FPS + 1e-9);
      expect(psnr(decodePixels(file).rgba, videoFrame(webm, 1).rgba)).toBeGreaterThanOrEqual(35);
      const sound = (await step(video, plainMp4, 'mp4', 'mp3', { trim: { end: 4 } })).file;
      expect(Math.abs(durationOf(sound) - 4 - LAME_DELAY), `mp3 ${durationOf(sound)}`).toBeLessThanOrEqual(MP3_FRAME);
      expect(Math.abs(decodedSeconds(sound) - 4), `decoded ${decodedSeconds(sound)}`).toBeLessThanOrEqual(MP3_FRAME);
    });
  });

  describe('frame', () => {
    for (const [time, to] of [[3.2, 'png'], [7, 'jpg'], [0, 'png']] as const) {
      it(`mp4 → ${to} at ${time} s: the video's frame at that time, as ffmpeg extracts it (PSNR ≥ 35 dB)`, async () => {
        const { file } = await step(video, reorderedMp4, 'mp4', to, { frame: time });
        const still = decodePixels(file);
        expect([still.width, still.height]).toEqual([320, 240]);
        expect(psnr(still.rgba, videoFrame(reorderedMp4, time).rgba)).toBeGreaterThanOrEqual(35);
        // A frame later is another picture.
        expect(psnr(still.rgba, videoFrame(reorderedMp4, time + 1 / FPS).rgba)).toBeLessThan(25);
      });
    }

    it('within the last frame, the last frame; past the end, a clear failure', async () => {
      const { file } = await step(video, reorderedMp4, 'mp4', 'png', { frame: 9.99 });
      expect(psnr(decodePixels(file).rgba, videoFrame(reorderedMp4, 9.96).rgba)).toBeGreaterThanOrEqual(35);
      const error = await expectFailure(convertStep(video, { inputPath: reorderedMp4, from: 'mp4', to: 'png', options: { frame: 40 } }, dir, { workDir: workRoot }), 'unsupported_or_corrupt_input', dir);
      expect(error.message).toBe('The frame at 40 s is after the end of the video (10 s).');
    });
  });

  describe('strip_metadata', () => {
    const SECRETS = ['title', 'artist', 'encoder', 'location'];

    it('mp3 → mp3: tags and cover art gone, the sound copied as it was, the notes naming what went', async () => {
      expect(tagNames(mp3)).toEqual(expect.arrayContaining(SECRETS));
      const { file, notes } = await step(audio, mp3, 'mp3', 'mp3', { strip_metadata: true });
      expect(tagNames(file).filter((name) => SECRETS.includes(name))).toEqual([]);
      expect(probe(file, '-show_entries', 'stream=codec_type').streams!.map((s) => s.codec_type)).toEqual(['audio']);
      expect(packetHashes(file, 'a')).toEqual(packetHashes(mp3, 'a'));
      expect(notes).toHaveLength(2);
      expect(notes[0]).toMatch(/^removed tags: /);
      for (const name of SECRETS) expect(notes[0]!.split(/: |, /)).toContain(name);
      expect(notes[1]).toBe('removed cover art');
      // No value is ever shown.
      expect(notes.join(' ')).not.toMatch(/Secret|Somebody|48\.8577|Lavf/);
      // exiftool, another reader: no ID3 title, artist or picture left.
      const exif = JSON.parse(execFileSync('exiftool', ['-j', '-ID3:all', file], { encoding: 'utf8' })) as Array<Record<string, unknown>>;
      expect(Object.keys(exif[0]!).filter((key) => /Title|Artist|Picture/.test(key))).toEqual([]);
    });

    it('mp4 → mp4: the location (©xyz), title, artist and encoder gone; every packet copied', async () => {
      const { file, notes } = await step(video, plainMp4, 'mp4', 'mp4', { strip_metadata: true });
      expect(tagNames(file).filter((name) => SECRETS.includes(name) || name.startsWith('location'))).toEqual([]);
      expect(packetHashes(file, 'v:0')).toEqual(packetHashes(plainMp4, 'v:0'));
      expect(notes[0]!.replace('removed tags: ', '').split(', ')).toEqual(expect.arrayContaining(SECRETS));
      const exif = JSON.parse(execFileSync('exiftool', ['-j', '-GPSCoordinates', '-Title', '-Artist', '-Encoder', file], { encoding: 'utf8' })) as Array<Record<string, unknown>>;
      expect(Object.keys(exif[0]!).filter((key) => key !== 'SourceFile')).toEqual([]);
      expect(leftovers(workRoot, dir)).toEqual([]);
    });

    it('mkv → mkv: tags and chapters gone, the muxer named without a version', async () => {
      const { file, notes } = await step(video, plainMkv, 'mkv', 'mkv', { strip_metadata: true, trim: { end: 6 } });
      const probed = probe(file, '-show_entries', 'format_tags:stream_tags', '-show_chapters');
      expect(probed.chapters).toEqual([]);
      // Matroska must name the application that wrote it: only "Lavf" is left, no version.
      expect(probed.format?.tags).toEqual({ encoder: 'Lavf' });
      expect(tagNames(file).filter((name) => ['title', 'artist', 'location'].includes(name))).toEqual([]);
      expect(notes).toContain('removed chapters (2)');
      expect(Math.abs(framesOf(file) / FPS - 6)).toBeLessThanOrEqual(1 / FPS + 1e-9);
    });

    it('conversions: mp4 → webm and mp3 → ogg leave no tag of the source and no encoder version', async () => {
      for (const [runtime, input, from, to] of [[video, plainMp4, 'mp4', 'webm'], [audio, mp3, 'mp3', 'ogg']] as const) {
        const { file, notes } = await step(runtime, input, from, to, { strip_metadata: true });
        const probed = probe(file, '-show_entries', 'format_tags:stream_tags');
        const values = [probed.format?.tags, ...probed.streams!.map((s) => s.tags)].flatMap((tags) => Object.entries(tags ?? {}));
        expect(values.filter(([name]) => ['title', 'artist', 'location'].includes(name.toLowerCase())), to).toEqual([]);
        // An encoder tag, where the container keeps one at all, names no version (Matroska's muxing application).
        expect(values.filter(([name, value]) => name.toLowerCase() === 'encoder' && /\d/.test(value)), to).toEqual([]);
        expect(notes[0], to).toMatch(/^removed tags: .*title/);
      }
    });

    it('a file without metadata: says so', async () => {
      const bare = join(dir, 'bare.flac');
      ffmpeg('-i', flac, '-map_metadata', '-1', '-fflags', '+bitexact', bare);
      expect((await step(audio, bare, 'flac', 'flac', { strip_metadata: true })).notes).toEqual(['found no metadata to remove']);
    });
  });
});
