import { mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ConversionError } from '../../platform/conversion-error.js';
import type { ConversionOptions } from '../../platform/conversion-options.js';
import { throwIfEngineMissing } from '../../platform/engine-probe.js';
import type { StepContext, StepRequest } from '../../platform/engine-runtime.js';
import { DEMUXERS, inputArgs } from './ffmpeg-formats.js';
import { type FfmpegTools, type MediaProbe, runFfmpeg } from './ffmpeg-process.js';

// The file operations of the ffmpeg engines: a format to itself (trim, strip_metadata) and the options every
// conversion honours (trim, strip_metadata). Conversions re-encode anyway; an identity copies the streams where that
// stays exact.

const PROBE_TIMEOUT_MS = 15_000;

/** The muxer that writes each format the engines read, for a file converted to its own format. */
export const IDENTITY_MUXERS: Readonly<Record<string, string>> = {
  mp3: 'mp3', wav: 'wav', ogg: 'ogg', opus: 'opus', flac: 'flac', m4a: 'ipod', aac: 'adts', aiff: 'aiff', wma: 'asf',
  ac3: 'ac3', amr: 'amr', au: 'au', caf: 'caf', wv: 'wv',
  // An MPEG-TS named .m2ts is written with the 192-byte packets of Blu-ray and camcorders (the muxer's own choice).
  mp4: 'mp4', mov: 'mov', '3gp': '3gp', mkv: 'matroska', webm: 'webm', avi: 'avi', ogv: 'ogg', flv: 'flv', wmv: 'asf', mpeg: 'mpeg', m2ts: 'mpegts',
};

/**
 * Lossless sound codecs: an identity re-encodes them to themselves, which keeps every sample and cuts at the exact
 * sample (a copy cuts between packets, up to 90 ms apart in FLAC). Lossy ones are copied, never encoded again.
 */
const LOSSLESS_AUDIO = /^(pcm_(s|u|f)\d+(le|be)?|pcm_(alaw|mulaw)|flac|alac|wavpack)$/;
export const isLosslessAudio = (codec: string) => LOSSLESS_AUDIO.test(codec);

/** Where the muxer of the format holds cover art (an attached picture) a copy keeps. */
export const COVER_ART_FORMATS: ReadonlySet<string> = new Set(['mp3', 'flac', 'm4a']);

/** Seconds as the messages show them: 32.5, 40, 12.25. */
export const shown = (seconds: number) => String(Number(seconds.toFixed(2)));

/** The part of the input a step writes: from `start`, `seconds` long at most (the engine's limit included). */
export interface TrimWindow {
  start: number;
  seconds: number;
  /** The caller asked for a cut (a start past 0, or an end before the end). */
  cuts: boolean;
  /** What the caller should know (an end past the end, kept to the end). */
  notes: string[];
}

/**
 * Pure: the window `trim` keeps of a recording `durationSeconds` long (0 when unknown), at most `maxSeconds`. A start
 * at or past the end fails (an empty file is no answer); an end past the end keeps the rest, and says so.
 */
export function trimWindow(trim: ConversionOptions['trim'], durationSeconds: number, maxSeconds: number): TrimWindow {
  const start = trim?.start ?? 0;
  let end = trim?.end;
  const notes: string[] = [];
  if (durationSeconds > 0 && start >= durationSeconds) {
    throw new ConversionError('unsupported_or_corrupt_input', `The trim starts at ${shown(start)} s, after the end of the recording (${shown(durationSeconds)} s).`);
  }
  if (end !== undefined && durationSeconds > 0 && end >= durationSeconds) {
    notes.push(`the trim ends at ${shown(end)} s, after the end of the recording (${shown(durationSeconds)} s): kept to the end`);
    end = undefined;
  }
  return { start, seconds: Math.min(end === undefined ? Infinity : end - start, maxSeconds), cuts: start > 0 || end !== undefined, notes };
}

/** The seek (an input option: fast, and exact wherever the stream is decoded) and the length of a window. */
export function windowArgs(window: TrimWindow): { inputOptions: string[]; length: string[] } {
  return { inputOptions: window.start > 0 ? ['-ss', window.start.toFixed(6)] : [], length: ['-t', String(window.seconds)] };
}

/**
 * What strip_metadata adds to a conversion (which already leaves the input's tags behind, `-map_metadata -1`):
 * chapters (their titles) stay behind too, and the muxer and encoders write their name without a version.
 */
export const STRIP_ARGS = ['-map_metadata', '-1', '-map_chapters', '-1', '-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact'];

/**
 * Whether the video has a keyframe at `start` (within half a frame): a copy that starts there is exact. Only the
 * packets of the two seconds around it are read.
 */
export async function keyframeAt({ runner, ffprobe }: FfmpegTools, request: StepRequest, context: StepContext, media: MediaProbe, start: number): Promise<boolean> {
  const at = media.startSeconds + start;
  const result = await runner.run({
    command: ffprobe,
    args: ['-v', 'error', ...inputArgs(request.from, request.inputPath), '-select_streams', 'V:0', '-read_intervals', `${Math.max(0, at - 1).toFixed(6)}%${(at + 1).toFixed(6)}`, '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0'],
    scratchDir: context.workDir,
    timeoutMs: Math.min(context.limits.timeoutMs, PROBE_TIMEOUT_MS),
    signal: context.signal,
  });
  throwIfEngineMissing(result, 'media');
  if (result.exitCode !== 0) return false;
  const halfFrame = media.video && media.video.frameRate > 0 ? 0.5 / media.video.frameRate : 0.01;
  return result.stdout.split('\n').some((line) => {
    const [time, flags = ''] = line.trim().split(',');
    return flags.includes('K') && Math.abs(Number(time) - at) <= halfFrame;
  });
}

/** What a file holds besides its content, as ffprobe reads it: tags (names and values), cover art, chapters, tracks. */
export interface MetadataFacts {
  /** Every tag of the container and of its tracks, as [name, value]. */
  tags: Array<[string, string]>;
  /** A track carries an `encoder` tag (written by ffmpeg's encoders, version-less with bitexact but still there). */
  trackEncoderTag: boolean;
  coverArt: number;
  chapters: number;
  attachments: number;
  dataTracks: number;
}

const NO_METADATA: MetadataFacts = { tags: [], trackEncoderTag: false, coverArt: 0, chapters: 0, attachments: 0, dataTracks: 0 };

interface ProbedMetadata {
  streams?: Array<{ codec_type?: string; disposition?: { attached_pic?: number }; tags?: Record<string, string> }>;
  chapters?: unknown[];
  format?: { tags?: Record<string, string> };
}

/**
 * Reads the metadata of a file with ffprobe (sandboxed). Its answer is written to a file of the scratch directory:
 * tags can be long (lyrics), longer than the end of stdout the runner keeps.
 */
export async function readMetadata({ runner, ffprobe }: FfmpegTools, format: string, path: string, context: StepContext): Promise<MetadataFacts> {
  if (!Object.hasOwn(DEMUXERS, format)) return NO_METADATA;
  const dir = await mkdtemp(join(context.workDir, 'ffprobe-'));
  try {
    const answer = join(dir, 'metadata.json');
    const result = await runner.run({
      command: ffprobe,
      args: [
        '-v', 'error', ...inputArgs(format, path),
        '-show_entries', 'format_tags:stream=codec_type:stream_disposition=attached_pic:stream_tags:chapter=id', '-of', 'json', '-o', `file:${answer}`,
      ],
      scratchDir: context.workDir,
      timeoutMs: Math.min(context.limits.timeoutMs, PROBE_TIMEOUT_MS),
      signal: context.signal,
    });
    throwIfEngineMissing(result, 'media');
    if (result.exitCode !== 0) throw new ConversionError('unsupported_or_corrupt_input', `The metadata of the ${format} file could not be read.`, false, result.stderrTail);
    const probed = JSON.parse(await readFile(answer, 'utf8')) as ProbedMetadata;
    const streams = probed.streams ?? [];
    const tagsOf = (tags: Record<string, string> | undefined) => Object.entries(tags ?? {}).map(([name, value]): [string, string] => [name, String(value)]);
    return {
      tags: [...tagsOf(probed.format?.tags), ...streams.flatMap((stream) => tagsOf(stream.tags))],
      trackEncoderTag: streams.some((stream) => Object.keys(stream.tags ?? {}).some((name) => name.toLowerCase() === 'encoder')),
      coverArt: streams.filter((stream) => stream.disposition?.attached_pic === 1).length,
      chapters: probed.chapters?.length ?? 0,
      attachments: streams.filter((stream) => stream.codec_type === 'attachment').length,
      dataTracks: streams.filter((stream) => stream.codec_type === 'data').length,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Tags that describe the container, not the recording: rewritten by the muxer, never worth reporting. */
const STRUCTURAL_TAGS = new Set(['duration', 'major_brand', 'minor_version', 'compatible_brands']);
const MAX_NAMED_TAGS = 20;

/** A tag's name as a note may show it (lower case, no language suffix), or undefined for a name that is not a plain word. */
function tagName(name: string): string | undefined {
  const plain = name.toLowerCase().replace(/-[a-z]{3}$/, '');
  return /^[a-z0-9_][a-z0-9_. :()-]{0,47}$/.test(plain) ? plain : undefined;
}

/**
 * Pure: what went from `before` to `after`, in words safe to show: the names of the tags whose values are gone (never
 * the values), cover art, chapters, attached files and data tracks.
 */
export function metadataNotes(before: MetadataFacts, after: MetadataFacts): string[] {
  const kept = new Set(after.tags.map(([name, value]) => `${name.toLowerCase()}\u0000${value}`));
  const removed = new Set<string>();
  let unnamed = 0;
  for (const [name, value] of before.tags) {
    if (kept.has(`${name.toLowerCase()}\u0000${value}`) || STRUCTURAL_TAGS.has(name.toLowerCase())) continue;
    const shownName = tagName(name);
    if (shownName === undefined) unnamed++;
    else removed.add(shownName);
  }
  const names = [...removed];
  const more = Math.max(0, names.length - MAX_NAMED_TAGS) + unnamed;
  const notes: string[] = [];
  if (names.length > 0 || unnamed > 0) {
    notes.push(`removed tags: ${[...names.slice(0, MAX_NAMED_TAGS), ...(more > 0 ? [`${more} other${more === 1 ? '' : 's'}`] : [])].join(', ')}`);
  }
  const gone = (count: number, what: string) => count > 0 && notes.push(`removed ${what}${count > 1 ? ` (${count})` : ''}`);
  gone(before.coverArt - after.coverArt, 'cover art');
  gone(before.chapters - after.chapters, 'chapters');
  gone(before.attachments - after.attachments, 'attached files');
  gone(before.dataTracks - after.dataTracks, 'data tracks');
  return notes.length > 0 ? notes : ['found no metadata to remove'];
}

/**
 * Copies a file the step wrote onto itself through ffmpeg again (`args`: maps, copy, muxer): what a muxer writes from
 * what it is given, not from what the first run carried along.
 */
export async function remuxInPlace(tools: FfmpegTools, request: StepRequest, context: StepContext, path: string, args: readonly string[], kind: string): Promise<void> {
  const copy = `${path}.copy`;
  await runFfmpeg(tools, { ...request, from: request.to, inputPath: path }, { ...context, onProgress: undefined }, { args, outputPath: copy, durationSeconds: 0, kind });
  await rename(copy, path);
}

/**
 * Runs a step that strips metadata (`write`, with STRIP_ARGS or their like) between two readings: the input's metadata
 * before, the output's after. An encoder's name left on a track (ffmpeg tags what it encodes, bitexact or not) goes in
 * a copy of the output made without it. The notes say what went.
 */
export async function strippingMetadata(tools: FfmpegTools, request: StepRequest, context: StepContext, outputPath: string, kind: string, write: () => Promise<void>): Promise<string[]> {
  const before = await readMetadata(tools, request.from, request.inputPath, context);
  await write();
  let after = await readMetadata(tools, request.to, outputPath, context);
  const muxer = IDENTITY_MUXERS[request.to];
  if (after.trackEncoderTag && muxer) {
    await remuxInPlace(tools, request, context, outputPath, ['-map', '0', '-c', 'copy', ...STRIP_ARGS, '-f', muxer], kind);
    after = await readMetadata(tools, request.to, outputPath, context);
  }
  return metadataNotes(before, after);
}
