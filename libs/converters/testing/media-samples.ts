import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Media samples written by other encoders than the ones the engines use (VP8 and Vorbis for WebM, Theora,
// Sorenson, WMV2, MPEG-2…), tiny so the matrix stays fast: one second, 160×120, with a 440 Hz tone.

/** The words every subtitle sample holds, for the checks. */
export const SUBTITLE_LINE = 'Fileshift subtitle line';

const VIDEO_ENCODERS: Record<string, string[]> = {
  mp4: ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'mp4'],
  mov: ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'mov'],
  '3gp': ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-ar', '16000', '-f', '3gp'],
  mkv: ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'flac', '-f', 'matroska'],
  webm: ['-c:v', 'libvpx', '-b:v', '200k', '-c:a', 'libvorbis', '-f', 'webm'],
  avi: ['-c:v', 'mpeg4', '-c:a', 'libmp3lame', '-f', 'avi'],
  ogv: ['-c:v', 'libtheora', '-c:a', 'libvorbis', '-f', 'ogg'],
  flv: ['-c:v', 'flv', '-c:a', 'libmp3lame', '-f', 'flv'],
  wmv: ['-c:v', 'wmv2', '-c:a', 'wmav2', '-f', 'asf'],
  mpeg: ['-c:v', 'mpeg2video', '-c:a', 'mp2', '-f', 'mpeg'],
  m2ts: ['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'mpegts'],
};

const AUDIO_ENCODERS: Record<string, string[]> = {
  mp3: ['-c:a', 'libmp3lame'],
  wav: ['-c:a', 'pcm_s16le'],
  ogg: ['-c:a', 'libvorbis'],
  flac: ['-c:a', 'flac'],
  m4a: ['-c:a', 'aac', '-f', 'ipod'],
  aac: ['-c:a', 'aac', '-f', 'adts'],
  opus: ['-c:a', 'libopus', '-f', 'opus'],
  aiff: ['-c:a', 'pcm_s24be', '-f', 'aiff'],
  wma: ['-c:a', 'wmav1', '-f', 'asf'],
  ac3: ['-c:a', 'ac3', '-ar', '48000', '-f', 'ac3'],
  au: ['-c:a', 'pcm_mulaw', '-f', 'au'],
  caf: ['-c:a', 'alac', '-f', 'caf'],
  wv: ['-c:a', 'wavpack', '-f', 'wv'],
};

const ffmpeg = (args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);
const tone = (seconds: number) => ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`];
/**
 * What a sample video shows: ffmpeg's test pattern (colour bars, a counter: detail a codec must keep), or moving colour
 * gradients (smooth, as filmed pictures are, so that a still's pixels can be compared with the source's).
 */
export type VideoScene = 'test pattern' | 'gradients';
const SCENES: Record<VideoScene, (options: string) => string> = {
  'test pattern': (options) => `testsrc=${options}`,
  // Its frames are RGBA, which some encoders (VP8) do not take.
  gradients: (options) => `gradients=${options},format=yuv420p`,
};
const picture = (seconds: number, size: string, scene: VideoScene) => ['-f', 'lavfi', '-i', SCENES[scene](`size=${size}:rate=25:duration=${seconds}`)];

/** A video sample of `format` (video and a sound track unless `silent`) at `path`. */
export function writeVideoSample(format: string, path: string, { seconds = 1, silent = false, size = '160x120', scene = 'test pattern' as VideoScene } = {}): string {
  const encoder = VIDEO_ENCODERS[format];
  if (!encoder) throw new Error(`no video sample for ${format}`);
  const encoding = silent ? encoder.filter((arg, i, all) => !(arg.startsWith('-c:a') || all[i - 1]?.startsWith('-c:a') || arg === '-ar' || all[i - 1] === '-ar')) : encoder;
  ffmpeg([...picture(seconds, size, scene), ...(silent ? ['-an'] : [...tone(seconds), '-shortest']), ...encoding, path]);
  return path;
}

/** An audio sample of `format` (a tone). AMR is written by hand: Debian's ffmpeg has no AMR encoder. */
export function writeAudioSample(format: string, path: string, { seconds = 1 } = {}): string {
  if (format === 'amr') writeFileSync(path, amrNarrowband(seconds * 50));
  else if (AUDIO_ENCODERS[format]) ffmpeg([...tone(seconds), ...AUDIO_ENCODERS[format]!, path]);
  else throw new Error(`no audio sample for ${format}`);
  return path;
}

/**
 * An AMR-NB file (RFC 4867 storage format) of `frames` 20 ms frames of mode 12.2 kbit/s: the magic, then per
 * frame a header byte (mode 7, quality bit) and 31 bytes of speech parameters (a fixed pattern: it decodes
 * to a noise, which is all a conversion test needs).
 */
export function amrNarrowband(frames: number): Buffer {
  const frame = Buffer.alloc(32, 0x5a);
  frame[0] = (7 << 3) | 0x04;
  return Buffer.concat([Buffer.from('#!AMR\n', 'latin1'), ...Array.from({ length: frames }, () => frame)]);
}

/** Subtitle samples as three tools write them: SubRip with CRLF, WebVTT with a header note, ASS from Aegisub. */
export const SUBTITLE_SAMPLES: Record<string, string> = {
  srt: `1\r\n00:00:01,000 --> 00:00:03,500\r\n${SUBTITLE_LINE}\r\n\r\n2\r\n00:00:04,000 --> 00:00:06,000\r\nA <i>second</i> cue\r\n\r\n`,
  vtt: `WEBVTT - made by hand\n\nNOTE a comment the converters drop\n\n00:00:01.000 --> 00:00:03.500\n${SUBTITLE_LINE}\n\ncue-2\n00:00:04.000 --> 00:00:06.000\nA second cue\n`,
  ass:
    '[Script Info]\nScriptType: v4.00+\nPlayResX: 384\nPlayResY: 288\n\n' +
    '[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n' +
    'Style: Default,Arial,16,&Hffffff,&Hffffff,&H0,&H0,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,0\n\n' +
    '[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n' +
    `Dialogue: 0,0:00:01.00,0:00:03.50,Default,,0,0,0,,${SUBTITLE_LINE}\n` +
    'Dialogue: 0,0:00:04.00,0:00:06.00,Default,,0,0,0,,A {\\i1}second{\\i0} cue\n',
};

export const VIDEO_SAMPLE_FORMATS = Object.keys(VIDEO_ENCODERS);
export const AUDIO_SAMPLE_FORMATS = [...Object.keys(AUDIO_ENCODERS), 'amr'];

/**
 * One sample of every media format (video, audio, subtitles) in `dir`, by format id, `seconds` long (a codec's fixed
 * delay, up to a tenth of a second, is a tenth of a one-second sample's length).
 */
export function writeMediaSamples(dir: string, { seconds = 1, scene = 'test pattern' as VideoScene } = {}): Map<string, string> {
  const samples = new Map<string, string>();
  for (const format of VIDEO_SAMPLE_FORMATS) samples.set(format, writeVideoSample(format, join(dir, `clip.${format}`), { seconds, scene }));
  for (const format of AUDIO_SAMPLE_FORMATS) samples.set(format, writeAudioSample(format, join(dir, `tone.${format}`), { seconds }));
  for (const [format, text] of Object.entries(SUBTITLE_SAMPLES)) {
    const path = join(dir, `captions.${format}`);
    writeFileSync(path, text);
    samples.set(format, path);
  }
  return samples;
}

/** ffprobe, a decoder that is not ours: `entries` (e.g. stream=codec_name) of `path`, one value per line. */
export function ffprobeEntries(path: string, entries: string, select?: string): string[] {
  const args = ['-v', 'error', ...(select ? ['-select_streams', select] : []), '-show_entries', entries, '-of', 'csv=p=0', path];
  return execFileSync('ffprobe', args, { encoding: 'utf8' }).split('\n').map((line) => line.trim()).filter(Boolean);
}
