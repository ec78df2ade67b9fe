import { stat } from 'node:fs/promises';
import { ConversionError } from '../../platform/conversion-error.js';
import { throwIfEngineMissing } from '../../platform/engine-probe.js';
import type { StepContext, StepRequest } from '../../platform/engine-runtime.js';
import type { SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';
import { DEMUXERS, inputArgs } from './ffmpeg-formats.js';

const PROBE_TIMEOUT_MS = 15_000;

/** The ffmpeg and ffprobe binaries, run in the sandboxed runner. */
export interface FfmpegTools {
  runner: SandboxedProcessRunner;
  ffmpeg: string;
  ffprobe: string;
}

/** What ffprobe found in an input, read with the demuxer of its claimed format. */
export interface MediaProbe {
  durationSeconds: number;
  /** The container's first timestamp (an MPEG-TS starts at 1.4 s): `-ss` counts from it, packet times do not. */
  startSeconds: number;
  /** The first picture track that is not cover art. */
  video?: {
    width: number;
    height: number;
    codec: string;
    /** Frames a second (0 when unknown). */
    frameRate: number;
    /** Its own length where the container says (0 when not): a still past it does not exist. */
    durationSeconds: number;
    /** Frames are stored out of display order (B-frames): a cut between packets is not a cut between frames. */
    reordered: boolean;
  };
  hasAudio: boolean;
  /** Of the first sound track ('' without one). */
  audioCodec: string;
  /** Of the first sound track (0 without one). */
  audioChannels: number;
  hasSubtitles: boolean;
  /** Packets of the first stream (cues of a subtitle file), when counted: it reads the whole file. */
  packets?: number;
}

/** ffprobe's JSON of the entries probeMedia asks for. */
interface ProbedStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  channels?: number;
  avg_frame_rate?: string;
  has_b_frames?: number;
  duration?: string;
  nb_read_packets?: string;
  disposition?: { attached_pic?: number };
}

/** ffprobe first: it refuses what its claimed demuxer cannot read, and gives the duration for progress. */
export async function probeMedia({ runner, ffprobe }: FfmpegTools, request: StepRequest, context: StepContext, kind: string, { countPackets = false } = {}): Promise<MediaProbe> {
  if (!Object.hasOwn(DEMUXERS, request.from)) throw new ConversionError('unsupported_or_corrupt_input', `This engine does not read ${request.from}.`);
  const entries = `codec_type,codec_name,width,height,channels,avg_frame_rate,has_b_frames,duration${countPackets ? ',nb_read_packets' : ''}`;
  const result = await runner.run({
    command: ffprobe,
    args: [
      '-v', 'error', ...inputArgs(request.from, request.inputPath), ...(countPackets ? ['-count_packets'] : []),
      '-show_entries', `stream=${entries}:stream_disposition=attached_pic:format=duration,start_time`, '-of', 'json',
    ],
    scratchDir: context.workDir,
    timeoutMs: Math.min(context.limits.timeoutMs, PROBE_TIMEOUT_MS),
    signal: context.signal,
  });
  throwIfEngineMissing(result, 'media');
  const unreadable = () => new ConversionError('unsupported_or_corrupt_input', `The input could not be read as ${request.from} ${kind}.`, false, result.stderrTail);
  if (result.exitCode !== 0) throw unreadable();
  let probed: { streams?: ProbedStream[]; format?: { duration?: string; start_time?: string } };
  try {
    probed = JSON.parse(result.stdout) as typeof probed;
  } catch {
    // Only the end of a very long answer is kept (thousands of tracks): no file we convert has that many.
    throw unreadable();
  }
  const streams = probed.streams ?? [];
  const number = (value: unknown) => (Number.isFinite(Number(value)) ? Number(value) : 0);
  const pictures = streams.filter((stream) => stream.codec_type === 'video' && number(stream.width) > 0 && number(stream.height) > 0);
  const picture = pictures.find((stream) => !stream.disposition?.attached_pic) ?? pictures[0];
  const sound = streams.find((stream) => stream.codec_type === 'audio');
  const [rateNumerator = 0, rateDenominator = 0] = (picture?.avg_frame_rate ?? '').split('/').map(Number);
  return {
    durationSeconds: number(probed.format?.duration),
    startSeconds: number(probed.format?.start_time),
    video: picture && {
      width: number(picture.width),
      height: number(picture.height),
      codec: picture.codec_name ?? '',
      frameRate: rateDenominator > 0 ? rateNumerator / rateDenominator : 0,
      durationSeconds: number(picture.duration),
      reordered: number(picture.has_b_frames) > 0,
    },
    hasAudio: Boolean(sound),
    audioCodec: sound?.codec_name ?? '',
    audioChannels: number(streams.map((stream) => stream.channels).find((channels) => number(channels) > 0)),
    hasSubtitles: streams.some((stream) => stream.codec_type === 'subtitle'),
    packets: countPackets ? number(streams[0]?.nb_read_packets) : undefined,
  };
}

export interface FfmpegStep {
  /** Options of the input, before it (`-ss`: a seek). */
  inputOptions?: readonly string[];
  /** The input is read a second time, without `inputOptions` (input 1: cover art a seek would skip). */
  rereadInput?: boolean;
  /** Everything between the input and the output (codecs, filters, muxer). */
  args: readonly string[];
  outputPath: string;
  /** For progress; 0 when unknown (progress then only ends at 100). */
  durationSeconds: number;
  /** Words for the failure message: "video", "audio"… */
  kind: string;
}

/**
 * Runs ffmpeg on one input into one output, with progress from `-progress` (out_time_us against the
 * probed duration) and ffmpeg's failures as the spec's failure types.
 */
export async function runFfmpeg({ runner, ffmpeg }: FfmpegTools, request: StepRequest, context: StepContext, step: FfmpegStep): Promise<void> {
  let pending = '';
  const result = await runner.run({
    command: ffmpeg,
    args: [
      '-nostdin', '-hide_banner', '-loglevel', 'error', '-y',
      ...(step.inputOptions ?? []),
      ...inputArgs(request.from, request.inputPath),
      ...(step.rereadInput ? inputArgs(request.from, request.inputPath) : []),
      ...step.args,
      '-progress', 'pipe:1', '-nostats',
      `file:${step.outputPath}`,
    ],
    scratchDir: context.workDir,
    timeoutMs: context.limits.timeoutMs,
    outputPath: step.outputPath,
    maxOutputBytes: context.limits.maxOutputBytes,
    signal: context.signal,
    onStdout: (chunk) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const [key, value] = line.split('=');
        if (key === 'out_time_us' && step.durationSeconds > 0) {
          const percent = Math.min(99, Math.max(0, (Number(value) / 1e6 / step.durationSeconds) * 100));
          if (Number.isFinite(percent)) context.onProgress?.(Math.round(percent));
        }
      }
    },
  });
  throwIfEngineMissing(result, 'media');
  if (result.exitCode !== 0) throw new ConversionError('unsupported_or_corrupt_input', `The input could not be converted as ${request.from} ${step.kind}.`, false, result.stderrTail);
  const outputBytes = await stat(step.outputPath).then((s) => s.size, () => 0);
  if (outputBytes === 0) throw new ConversionError('unsupported_or_corrupt_input', `The input holds no ${step.kind} that could be converted.`, false, result.stderrTail);
  context.onProgress?.(100);
}
