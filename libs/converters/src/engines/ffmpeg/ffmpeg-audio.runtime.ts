import { ConversionError } from '../../platform/conversion-error.js';
import { FFMPEG_AUDIO_DESCRIPTOR } from './ffmpeg-audio.descriptor.js';
import { singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { AUDIO_ENCODINGS, type AudioTarget, effectiveBitrate } from './ffmpeg-formats.js';
import { FfmpegEngine } from './ffmpeg-engine.js';
import { COVER_ART_FORMATS, IDENTITY_MUXERS, isLosslessAudio, remuxInPlace, STRIP_ARGS, strippingMetadata, trimWindow, windowArgs } from './ffmpeg-operations.js';
import { probeMedia, runFfmpeg } from './ffmpeg-process.js';

/** Audio through ffmpeg (Debian package), inside the sandboxed runner: local files only, no network. */
export class FfmpegAudioRuntime extends FfmpegEngine {
  readonly descriptor = FFMPEG_AUDIO_DESCRIPTOR;

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    const to = request.to;
    const identity = request.from === to;
    if (!identity && !Object.hasOwn(AUDIO_ENCODINGS, to)) throw new ConversionError('unsupported_output_format', `This engine does not write ${to}.`);
    if (identity && !Object.hasOwn(IDENTITY_MUXERS, to)) throw new ConversionError('unsupported_output_format', `This engine does not write ${to}.`);
    const media = await probeMedia(this.tools, request, context, 'audio');
    if (!media.hasAudio) throw new ConversionError('unsupported_or_corrupt_input', `The input could not be read as ${request.from} audio.`);
    const maxDuration = context.limits.maxDurationSeconds ?? FFMPEG_AUDIO_DESCRIPTOR.limits.maxDurationSeconds!;
    const window = trimWindow(request.options.trim, media.durationSeconds, maxDuration);
    const { inputOptions, length } = windowArgs(window);
    const strip = request.options.strip_metadata === true;
    const outputPath = singleOutput(request.outputDir, to);
    // Lossless sound is decoded and encoded again, sample-exact; lossy sound is copied (no generation lost), cut
    // between its packets (a frame: 26 ms of MP3, 21 ms of AAC at 48 kHz), the first one at or after the start.
    const copy = identity && !isLosslessAudio(media.audioCodec);
    const keepsCover = identity && !strip && COVER_ART_FORMATS.has(to);
    const args = identity
      ? [
          ...length,
          // Cover art is kept where the format holds it, unless metadata is stripped (it is a tag: ID3's APIC…); after
          // a seek, from the input read again (its one picture is at 0 s, before the cut).
          '-map', '0:a', ...(keepsCover ? ['-map', window.start > 0 ? '1:v?' : '0:v?', '-c:v', 'copy'] : []),
          ...(copy ? ['-c:a', 'copy', ...(window.start > 0 ? ['-copypriorss', '0'] : [])] : ['-c:a', media.audioCodec]),
          // An MP3 cut after its start gets its Xing header in a second run: ffmpeg's first would declare an encoder
          // delay the cut does not have, and players would skip 90 ms of it.
          ...(copy && to === 'mp3' && window.start > 0 ? ['-write_xing', '0'] : []),
          '-sn', '-dn', ...(strip ? STRIP_ARGS : []), '-f', IDENTITY_MUXERS[to]!,
        ]
      : [
          ...length, '-vn', '-sn', '-dn', '-map_metadata', '-1', ...(strip ? STRIP_ARGS : []),
          ...AUDIO_ENCODINGS[to as AudioTarget]({ bitrate: effectiveBitrate(to, request.options.bitrate, media.audioChannels) }),
        ];
    const write = async () => {
      await runFfmpeg(this.tools, request, context, { inputOptions, rereadInput: keepsCover && window.start > 0, args, outputPath, durationSeconds: Math.max(0, Math.min(media.durationSeconds - window.start, window.seconds)), kind: 'audio' });
      if (args.includes('-write_xing')) await remuxInPlace(this.tools, request, context, outputPath, ['-map', '0', '-c', 'copy', ...(strip ? STRIP_ARGS : []), '-f', 'mp3'], 'audio');
    };
    const notes = strip ? await strippingMetadata(this.tools, request, context, outputPath, 'audio', write) : (await write(), []);
    return { files: [outputPath], ...(window.notes.length + notes.length > 0 ? { notes: [...window.notes, ...notes] } : {}) };
  }
}
