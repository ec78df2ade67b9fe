import { stat } from 'node:fs/promises';
import { ConversionError } from './conversion-error.js';
import type { ConversionOptions } from './conversion-options.js';
import { type AUDIO_FORMATS, FFMPEG_AUDIO_DESCRIPTOR } from './descriptors/ffmpeg-audio.descriptor.js';
import { type EngineAvailability, type EngineRuntime, singleOutput, type StepContext, type StepOutcome, type StepRequest } from './engine-runtime.js';
import { SandboxedProcessRunner } from './sandboxed-process.runner.js';

type Audio = (typeof AUDIO_FORMATS)[number];
const PROBE_TIMEOUT_MS = 15_000;
/** nice exits 127 when the engine binary is not there. */
const COMMAND_NOT_FOUND = 127;

/**
 * Encoder and muxer per target: chosen by us, never by the caller, who may only pick a bitrate from the
 * option's fixed list for lossy targets.
 */
const OUTPUT_ARGS: Record<Audio, (options: ConversionOptions) => string[]> = {
  mp3: ({ bitrate }) => ['-c:a', 'libmp3lame', ...(bitrate ? ['-b:a', bitrate] : ['-q:a', '2']), '-f', 'mp3'],
  wav: () => ['-c:a', 'pcm_s16le', '-f', 'wav'],
  ogg: ({ bitrate }) => ['-c:a', 'libvorbis', ...(bitrate ? ['-b:a', bitrate] : ['-q:a', '5']), '-f', 'ogg'],
  flac: () => ['-c:a', 'flac', '-f', 'flac'],
  m4a: ({ bitrate }) => ['-c:a', 'aac', '-b:a', bitrate ?? '192k', '-f', 'ipod'],
  aac: ({ bitrate }) => ['-c:a', 'aac', '-b:a', bitrate ?? '192k', '-f', 'adts'],
  // libopus accepts only these rates; 48 kHz is its native one.
  opus: ({ bitrate }) => ['-c:a', 'libopus', '-b:a', bitrate ?? '128k', '-ar', '48000', '-f', 'opus'],
};

/** Audio through ffmpeg (Debian package), inside the sandboxed runner: local files only, no network. */
export class FfmpegAudioRuntime implements EngineRuntime {
  readonly descriptor = FFMPEG_AUDIO_DESCRIPTOR;

  constructor(
    private readonly runner = new SandboxedProcessRunner(),
    private readonly ffmpeg = 'ffmpeg',
    private readonly ffprobe = 'ffprobe',
  ) {}

  async probe(): Promise<EngineAvailability> {
    try {
      const result = await this.runner.run({ command: this.ffmpeg, args: ['-hide_banner', '-version'], timeoutMs: PROBE_TIMEOUT_MS });
      if (result.exitCode !== 0) return { available: false, problem: `${this.ffmpeg} is not installed (apt-get install ffmpeg)` };
      const probe = await this.runner.run({ command: this.ffprobe, args: ['-version'], timeoutMs: PROBE_TIMEOUT_MS });
      if (probe.exitCode !== 0) return { available: false, problem: `${this.ffprobe} is not installed (apt-get install ffmpeg)` };
      return { available: true, version: result.stdout.split('\n')[0] };
    } catch (error) {
      return { available: false, problem: (error as Error).message };
    }
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    const to = request.to as Audio;
    if (!Object.hasOwn(OUTPUT_ARGS, to)) throw new ConversionError('unsupported_output_format', `This engine does not write ${request.to}.`);
    const limits = context.limits;
    const maxDuration = limits.maxDurationSeconds ?? FFMPEG_AUDIO_DESCRIPTOR.limits.maxDurationSeconds!;
    const durationSeconds = Math.min(await this.durationOf(request, context), maxDuration);
    const outputPath = singleOutput(request.outputDir, to);

    let pending = '';
    const result = await this.runner.run({
      command: this.ffmpeg,
      args: [
        '-nostdin', '-hide_banner', '-loglevel', 'error', '-y',
        '-protocol_whitelist', 'file,pipe',
        '-i', `file:${request.inputPath}`,
        '-t', String(maxDuration),
        '-vn', '-sn', '-dn', '-map_metadata', '-1',
        ...OUTPUT_ARGS[to](request.options),
        '-progress', 'pipe:1', '-nostats',
        `file:${outputPath}`,
      ],
      workRoot: context.workDir,
      timeoutMs: limits.timeoutMs,
      outputPath,
      maxOutputBytes: limits.maxOutputBytes,
      signal: context.signal,
      onStdout: (chunk) => {
        // -progress writes key=value lines; out_time_us against the probed duration gives a percentage.
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          const [key, value] = line.split('=');
          if (key === 'out_time_us' && durationSeconds > 0) {
            const percent = Math.min(99, Math.max(0, (Number(value) / 1e6 / durationSeconds) * 100));
            if (Number.isFinite(percent)) context.onProgress?.(Math.round(percent));
          }
        }
      },
    });
    if (result.exitCode === COMMAND_NOT_FOUND) throw new ConversionError('provider_error', 'The audio engine is not available.', true, result.stderrTail);
    if (result.exitCode !== 0) {
      throw new ConversionError('unsupported_or_corrupt_input', `The input could not be converted as ${request.from} audio.`, false, result.stderrTail);
    }
    context.onProgress?.(100);
    const outputBytes = await stat(outputPath).then((s) => s.size, () => 0);
    if (outputBytes === 0) throw new ConversionError('unsupported_or_corrupt_input', 'The input holds no audio that could be converted.', false, result.stderrTail);
    return { files: [outputPath] };
  }

  /** ffprobe first: it rejects non-audio input early and gives the duration for progress. */
  private async durationOf(request: StepRequest, context: StepContext): Promise<number> {
    const result = await this.runner.run({
      command: this.ffprobe,
      args: [
        '-v', 'error', '-protocol_whitelist', 'file',
        '-select_streams', 'a:0', '-show_entries', 'stream=codec_type:format=duration', '-of', 'default=noprint_wrappers=1',
        `file:${request.inputPath}`,
      ],
      workRoot: context.workDir,
      timeoutMs: Math.min(context.limits.timeoutMs, PROBE_TIMEOUT_MS),
      signal: context.signal,
    });
    if (result.exitCode === COMMAND_NOT_FOUND) throw new ConversionError('provider_error', 'The audio engine is not available.', true, result.stderrTail);
    if (result.exitCode !== 0 || !/codec_type=audio/.test(result.stdout)) {
      throw new ConversionError('unsupported_or_corrupt_input', `The input could not be read as ${request.from} audio.`, false, result.stderrTail);
    }
    const duration = Number(/duration=([\d.]+)/.exec(result.stdout)?.[1]);
    return Number.isFinite(duration) ? duration : 0;
  }
}
