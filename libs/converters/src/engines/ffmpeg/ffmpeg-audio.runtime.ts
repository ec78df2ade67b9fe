import { ConversionError } from '../../platform/conversion-error.js';
import { FFMPEG_AUDIO_DESCRIPTOR } from './ffmpeg-audio.descriptor.js';
import { singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { AUDIO_ENCODINGS, type AudioTarget, effectiveBitrate } from './ffmpeg-formats.js';
import { FfmpegEngine } from './ffmpeg-engine.js';
import { probeMedia, runFfmpeg } from './ffmpeg-process.js';

/** Audio through ffmpeg (Debian package), inside the sandboxed runner: local files only, no network. */
export class FfmpegAudioRuntime extends FfmpegEngine {
  readonly descriptor = FFMPEG_AUDIO_DESCRIPTOR;

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    const to = request.to as AudioTarget;
    if (!Object.hasOwn(AUDIO_ENCODINGS, to)) throw new ConversionError('unsupported_output_format', `This engine does not write ${request.to}.`);
    const media = await probeMedia(this.tools, request, context, 'audio');
    if (!media.hasAudio) throw new ConversionError('unsupported_or_corrupt_input', `The input could not be read as ${request.from} audio.`);
    const maxDuration = context.limits.maxDurationSeconds ?? FFMPEG_AUDIO_DESCRIPTOR.limits.maxDurationSeconds!;
    const outputPath = singleOutput(request.outputDir, to);
    await runFfmpeg(this.tools, request, context, {
      args: ['-t', String(maxDuration), '-vn', '-sn', '-dn', '-map_metadata', '-1', ...AUDIO_ENCODINGS[to]({ bitrate: effectiveBitrate(to, request.options.bitrate, media.audioChannels) })],
      outputPath,
      durationSeconds: Math.min(media.durationSeconds, maxDuration),
      kind: 'audio',
    });
    return { files: [outputPath] };
  }
}
