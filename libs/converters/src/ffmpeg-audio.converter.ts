import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ConversionError } from './conversion-error.js';
import type { ConversionContext, ConversionPair, ConversionRequest, Converter } from './converter.js';
import { SandboxedProcessRunner } from './sandboxed-process.runner.js';

const AUDIO = ['mp3', 'wav', 'ogg', 'flac', 'm4a', 'aac', 'opus'] as const;
type Audio = (typeof AUDIO)[number];
const RECOMMENDED = new Set<Audio>(['mp3', 'wav', 'flac']);

/** Encoder and muxer per target: chosen by us, never by the caller. */
const OUTPUT_ARGS: Record<Audio, string[]> = {
  mp3: ['-c:a', 'libmp3lame', '-q:a', '2', '-f', 'mp3'],
  wav: ['-c:a', 'pcm_s16le', '-f', 'wav'],
  ogg: ['-c:a', 'libvorbis', '-q:a', '5', '-f', 'ogg'],
  flac: ['-c:a', 'flac', '-f', 'flac'],
  m4a: ['-c:a', 'aac', '-b:a', '192k', '-f', 'ipod'],
  aac: ['-c:a', 'aac', '-b:a', '192k', '-f', 'adts'],
  opus: ['-c:a', 'libopus', '-b:a', '128k', '-f', 'opus'],
};

export interface FfmpegLimits {
  timeoutMs: number;
  maxOutputBytes: number;
  maxDurationSeconds: number;
}

export const DEFAULT_FFMPEG_LIMITS: FfmpegLimits = { timeoutMs: 120_000, maxOutputBytes: 512 * 1024 * 1024, maxDurationSeconds: 3 * 3600 };

/** Audio through ffmpeg (Debian package), inside the sandboxed runner: local files only, no network. */
export class FfmpegAudioConverter implements Converter {
  readonly id = 'ffmpeg-audio';

  constructor(
    private readonly runner = new SandboxedProcessRunner(),
    private readonly limits: FfmpegLimits = DEFAULT_FFMPEG_LIMITS,
    private readonly binary = 'ffmpeg',
  ) {}

  async probe() {
    try {
      const { stdout } = await promisify(execFile)(this.binary, ['-hide_banner', '-version'], { timeout: 5000 });
      return { available: true, version: stdout.split('\n')[0] };
    } catch (error) {
      return { available: false, problem: `${this.binary} is not installed (apt-get install ffmpeg): ${(error as Error).message}` };
    }
  }

  pairs(): readonly ConversionPair[] {
    return AUDIO.flatMap((from) => AUDIO.filter((to) => to !== from).map((to) => ({ from, to, recommended: RECOMMENDED.has(to) })));
  }

  async convert(request: ConversionRequest, context: ConversionContext): Promise<void> {
    const to = request.to as Audio;
    if (!OUTPUT_ARGS[to]) throw new ConversionError('unsupported_output_format', `ffmpeg does not write ${request.to} here.`);
    const workDir = await mkdtemp(join(request.workRoot ?? '/tmp', 'ffmpeg-'));
    try {
      const result = await this.runner.run({
        command: this.binary,
        args: [
          '-nostdin', '-hide_banner', '-loglevel', 'error', '-y',
          '-protocol_whitelist', 'file,pipe',
          '-i', `file:${request.inputPath}`,
          '-t', String(this.limits.maxDurationSeconds),
          '-vn', '-sn', '-dn', '-map_metadata', '-1',
          ...OUTPUT_ARGS[to],
          '-progress', 'pipe:1',
          `file:${request.outputPath}`,
        ],
        cwd: workDir,
        timeoutMs: this.limits.timeoutMs,
        outputPath: request.outputPath,
        maxOutputBytes: this.limits.maxOutputBytes,
        signal: context.signal,
        onStdout: (chunk) => {
          if (/progress=end/.test(chunk)) context.onProgress?.(100);
        },
      });
      if (result.exitCode !== 0) {
        throw new ConversionError('unsupported_or_corrupt_input', `The input could not be read as ${request.from} audio.`, false, result.stderrTail);
      }
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }
}
