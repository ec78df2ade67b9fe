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
  video?: { width: number; height: number };
  hasAudio: boolean;
  /** Of the first sound track (0 without one). */
  audioChannels: number;
  hasSubtitles: boolean;
  /** Packets of the first stream (cues of a subtitle file), when counted: it reads the whole file. */
  packets?: number;
}

/** ffprobe first: it refuses what its claimed demuxer cannot read, and gives the duration for progress. */
export async function probeMedia({ runner, ffprobe }: FfmpegTools, request: StepRequest, context: StepContext, kind: string, { countPackets = false } = {}): Promise<MediaProbe> {
  if (!Object.hasOwn(DEMUXERS, request.from)) throw new ConversionError('unsupported_or_corrupt_input', `This engine does not read ${request.from}.`);
  const result = await runner.run({
    command: ffprobe,
    args: [
      '-v', 'error', ...inputArgs(request.from, request.inputPath), ...(countPackets ? ['-count_packets'] : []),
      '-show_entries', `stream=codec_type,width,height,channels${countPackets ? ',nb_read_packets' : ''}:format=duration`, '-of', 'default=noprint_wrappers=1',
    ],
    scratchDir: context.workDir,
    timeoutMs: Math.min(context.limits.timeoutMs, PROBE_TIMEOUT_MS),
    signal: context.signal,
  });
  throwIfEngineMissing(result, 'media');
  if (result.exitCode !== 0) throw new ConversionError('unsupported_or_corrupt_input', `The input could not be read as ${request.from} ${kind}.`, false, result.stderrTail);
  const values = (key: string) => [...result.stdout.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((match) => match[1]!.trim());
  const types = values('codec_type');
  const widths = values('width').map(Number).filter((n) => n > 0);
  const heights = values('height').map(Number).filter((n) => n > 0);
  const duration = Number(values('duration')[0]);
  return {
    durationSeconds: Number.isFinite(duration) ? duration : 0,
    video: types.includes('video') && widths[0] && heights[0] ? { width: widths[0], height: heights[0] } : undefined,
    hasAudio: types.includes('audio'),
    audioChannels: values('channels').map(Number).find((n) => n > 0) ?? 0,
    hasSubtitles: types.includes('subtitle'),
    packets: countPackets ? Number(values('nb_read_packets')[0] ?? 0) : undefined,
  };
}

export interface FfmpegStep {
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
      ...inputArgs(request.from, request.inputPath),
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
