import { ConversionError } from '../../platform/conversion-error.js';
import { FFMPEG_VIDEO_DESCRIPTOR, type POSTER_WRITES, type VIDEO_WRITES } from './ffmpeg-video.descriptor.js';
import { singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { AUDIO_ENCODINGS, type AudioTarget, effectiveBitrate } from './ffmpeg-formats.js';
import { FfmpegEngine } from './ffmpeg-engine.js';
import { type MediaProbe, probeMedia, runFfmpeg } from './ffmpeg-process.js';

/** H.264 and yuv420p want even dimensions; odd ones are rounded down by one pixel. */
const EVEN_SIZE = 'scale=trunc(iw/2)*2:trunc(ih/2)*2';
const H264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-vf', EVEN_SIZE];
const AAC = ['-c:a', 'aac', '-b:a', '160k'];
/** An animated GIF: at most this long and this wide, 10 frames a second, one palette made for the clip. */
const GIF_MAX_SECONDS = 60;
const GIF_MAX_WIDTH = 480;

type VideoTarget = (typeof VIDEO_WRITES)[number];

/** Codecs and muxer per video target: ours, never the caller's. Audio is optional (`0:a:0?`). */
const VIDEO_ENCODINGS: Record<VideoTarget, string[]> = {
  mp4: [...H264, ...AAC, '-movflags', '+faststart', '-f', 'mp4'],
  mov: [...H264, ...AAC, '-movflags', '+faststart', '-f', 'mov'],
  mkv: [...H264, ...AAC, '-f', 'matroska'],
  // VP9 at realtime speed: a web-playable file in about the time H.264 takes.
  webm: ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1', '-crf', '33', '-b:v', '0', '-pix_fmt', 'yuv420p', '-vf', EVEN_SIZE, '-c:a', 'libopus', '-b:a', '128k', '-f', 'webm'],
  // MPEG-4 part 2 and MP3: what players of AVI files expect.
  avi: ['-c:v', 'mpeg4', '-q:v', '4', '-vtag', 'xvid', '-pix_fmt', 'yuv420p', '-vf', EVEN_SIZE, '-c:a', 'libmp3lame', '-q:a', '2', '-f', 'avi'],
  gif: [
    '-an',
    '-vf', `fps=10,scale='min(${GIF_MAX_WIDTH},iw)':-2:flags=lanczos,split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=bayer`,
    '-loop', '0', '-f', 'gif',
  ],
};

const POSTER_ENCODINGS: Record<(typeof POSTER_WRITES)[number], string[]> = {
  png: ['-c:v', 'png', '-f', 'image2', '-update', '1'],
  jpg: ['-c:v', 'mjpeg', '-q:v', '2', '-pix_fmt', 'yuvj420p', '-f', 'image2', '-update', '1'],
};
/** The poster frame is taken a tenth into the video, at most this far: past fades from black. */
const POSTER_MAX_OFFSET_SECONDS = 10;

/**
 * The output arguments of a video conversion (tracks, duration cut, codecs, muxer): what the runtime runs
 * between the input and the output file, and what the video benchmark runs alone as its baseline.
 */
export function videoOutputArgs(to: VideoTarget, maxDurationSeconds: number): { args: string[]; limitSeconds: number } {
  const gif = to === 'gif';
  const limitSeconds = gif ? Math.min(maxDurationSeconds, GIF_MAX_SECONDS) : maxDurationSeconds;
  const tracks = gif ? ['-map', '0:v:0'] : ['-map', '0:v:0', '-map', '0:a:0?'];
  return { args: ['-t', String(limitSeconds), ...tracks, '-sn', '-dn', '-map_metadata', '-1', ...VIDEO_ENCODINGS[to]], limitSeconds };
}

/** Video through ffmpeg (Debian package), inside the sandboxed runner: local files only, no network. */
export class FfmpegVideoRuntime extends FfmpegEngine {
  readonly descriptor = FFMPEG_VIDEO_DESCRIPTOR;

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    const to = request.to;
    const isVideo = Object.hasOwn(VIDEO_ENCODINGS, to);
    const isPoster = Object.hasOwn(POSTER_ENCODINGS, to);
    if (!isVideo && !isPoster && !Object.hasOwn(AUDIO_ENCODINGS, to)) throw new ConversionError('unsupported_output_format', `This engine does not write ${to}.`);
    const media = await probeMedia(this.tools, request, context, 'video');
    const maxDuration = context.limits.maxDurationSeconds ?? FFMPEG_VIDEO_DESCRIPTOR.limits.maxDurationSeconds!;
    const durationSeconds = Math.min(media.durationSeconds, maxDuration);
    const outputPath = singleOutput(request.outputDir, to);
    const run = (args: string[], kind: string, duration = durationSeconds) => runFfmpeg(this.tools, request, context, { args, outputPath, durationSeconds: duration, kind });

    if (!isVideo && !isPoster) {
      if (!media.hasAudio) throw new ConversionError('unsupported_or_corrupt_input', 'The video has no sound track.');
      await run(['-t', String(maxDuration), '-map', '0:a:0', '-vn', '-sn', '-dn', '-map_metadata', '-1', ...AUDIO_ENCODINGS[to as AudioTarget]({ bitrate: effectiveBitrate(to, request.options.bitrate, media.audioChannels) })], 'audio');
      return { files: [outputPath] };
    }
    this.checkFrames(media, context);
    if (isPoster) {
      const offset = Math.min(media.durationSeconds / 10, POSTER_MAX_OFFSET_SECONDS);
      await run(['-ss', offset.toFixed(3), '-map', '0:v:0', '-frames:v', '1', '-an', '-sn', '-dn', '-map_metadata', '-1', ...POSTER_ENCODINGS[to as 'png']], 'video', 0);
      return { files: [outputPath] };
    }
    const { args, limitSeconds } = videoOutputArgs(to as VideoTarget, maxDuration);
    await run(args, 'video', Math.min(durationSeconds, limitSeconds));
    return { files: [outputPath] };
  }

  /** Refuses a file without a picture, or with frames past the pixel limit, before decoding any. */
  private checkFrames(media: MediaProbe, context: StepContext): void {
    if (!media.video) throw new ConversionError('unsupported_or_corrupt_input', 'The input holds no video picture.');
    const maxPixels = context.limits.maxInputPixels;
    if (maxPixels !== undefined && media.video.width * media.video.height > maxPixels) {
      throw new ConversionError('file_too_large', `The video's frames (${media.video.width}×${media.video.height}) are larger than this service converts (at most ${maxPixels} pixels, e.g. 3840×2160).`);
    }
  }
}
