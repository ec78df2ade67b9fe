import { ConversionError } from '../../platform/conversion-error.js';
import { FFMPEG_SUBTITLES_DESCRIPTOR, type SUBTITLE_FORMATS } from './ffmpeg-subtitles.descriptor.js';
import { singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { FfmpegEngine } from './ffmpeg-engine.js';
import { probeMedia, runFfmpeg } from './ffmpeg-process.js';

const SUBTITLE_ENCODINGS: Record<(typeof SUBTITLE_FORMATS)[number], string[]> = {
  srt: ['-c:s', 'srt', '-f', 'srt'],
  vtt: ['-c:s', 'webvtt', '-f', 'webvtt'],
  ass: ['-c:s', 'ass', '-f', 'ass'],
};

/** Subtitles through ffmpeg (Debian package), inside the sandboxed runner: cue timings and text carried across. */
export class FfmpegSubtitlesRuntime extends FfmpegEngine {
  readonly descriptor = FFMPEG_SUBTITLES_DESCRIPTOR;

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    const to = request.to as keyof typeof SUBTITLE_ENCODINGS;
    if (!Object.hasOwn(SUBTITLE_ENCODINGS, to)) throw new ConversionError('unsupported_output_format', `This engine does not write ${request.to}.`);
    const media = await probeMedia(this.tools, request, context, 'subtitles', { countPackets: true });
    if (!media.hasSubtitles || !media.packets) throw new ConversionError('unsupported_or_corrupt_input', `The input could not be read as ${request.from} subtitles.`);
    const outputPath = singleOutput(request.outputDir, to);
    await runFfmpeg(this.tools, request, context, { args: ['-map', '0:s:0', '-map_metadata', '-1', ...SUBTITLE_ENCODINGS[to]], outputPath, durationSeconds: 0, kind: 'subtitles' });
    return { files: [outputPath] };
  }
}
