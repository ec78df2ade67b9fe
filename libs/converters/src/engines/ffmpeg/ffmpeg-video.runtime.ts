import { ConversionError } from '../../platform/conversion-error.js';
import { FFMPEG_VIDEO_DESCRIPTOR, type POSTER_WRITES, type VIDEO_WRITES } from './ffmpeg-video.descriptor.js';
import { singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { AUDIO_ENCODINGS, type AudioTarget, effectiveBitrate } from './ffmpeg-formats.js';
import { FfmpegEngine } from './ffmpeg-engine.js';
import { IDENTITY_MUXERS, keyframeAt, shown, STRIP_ARGS, strippingMetadata, type TrimWindow, trimWindow, windowArgs } from './ffmpeg-operations.js';
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

/**
 * The picture's codec when a trim of a video to its own format must encode it (a cut that a copy would not make
 * exact): the format's usual codec, at a quality close to the source's (CRF 18). Only the picture (`:V`, not cover
 * art) is encoded; sound and subtitles are copied.
 */
const H264_EDIT = ['-c:V', 'libx264', '-preset', 'veryfast', '-crf', '18', '-pix_fmt:V', 'yuv420p', '-filter:V', EVEN_SIZE];
const EDIT_ENCODINGS: Readonly<Record<string, readonly string[]>> = {
  mp4: H264_EDIT, mov: H264_EDIT, mkv: H264_EDIT, m2ts: H264_EDIT, '3gp': H264_EDIT, flv: H264_EDIT,
  webm: ['-c:V', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8', '-row-mt', '1', '-crf', '30', '-b:V', '0', '-pix_fmt:V', 'yuv420p', '-filter:V', EVEN_SIZE],
  avi: ['-c:V', 'mpeg4', '-q:V', '3', '-tag:V', 'xvid', '-pix_fmt:V', 'yuv420p', '-filter:V', EVEN_SIZE],
  ogv: ['-c:V', 'libtheora', '-q:V', '7', '-pix_fmt:V', 'yuv420p', '-filter:V', EVEN_SIZE],
  wmv: ['-c:V', 'wmv2', '-q:V', '3', '-pix_fmt:V', 'yuv420p', '-filter:V', EVEN_SIZE],
  mpeg: ['-c:V', 'mpeg2video', '-q:V', '2', '-pix_fmt:V', 'yuv420p', '-filter:V', EVEN_SIZE],
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
    const identity = request.from === to;
    const isVideo = Object.hasOwn(VIDEO_ENCODINGS, to);
    const isPoster = Object.hasOwn(POSTER_ENCODINGS, to);
    if (identity ? !Object.hasOwn(IDENTITY_MUXERS, to) : !isVideo && !isPoster && !Object.hasOwn(AUDIO_ENCODINGS, to)) {
      throw new ConversionError('unsupported_output_format', `This engine does not write ${to}.`);
    }
    const media = await probeMedia(this.tools, request, context, 'video');
    const maxDuration = context.limits.maxDurationSeconds ?? FFMPEG_VIDEO_DESCRIPTOR.limits.maxDurationSeconds!;
    const outputPath = singleOutput(request.outputDir, to);

    if (isPoster) {
      this.checkFrames(media, context);
      const { inputOptions, args } = this.still(request, media);
      await runFfmpeg(this.tools, request, context, { inputOptions, args: [...args, ...POSTER_ENCODINGS[to as 'png']], outputPath, durationSeconds: 0, kind: 'video' });
      return { files: [outputPath] };
    }

    const window = trimWindow(request.options.trim, media.durationSeconds, maxDuration);
    const { inputOptions, length } = windowArgs(window);
    const strip = request.options.strip_metadata === true;
    let durationSeconds = Math.max(0, Math.min(media.durationSeconds - window.start, window.seconds));
    let args: string[];
    let kind = 'video';
    if (identity) {
      args = await this.identityArgs(request, context, media, window, strip);
    } else if (!isVideo) {
      if (!media.hasAudio) throw new ConversionError('unsupported_or_corrupt_input', 'The video has no sound track.');
      kind = 'audio';
      args = [...length, '-map', '0:a:0', '-vn', '-sn', '-dn', '-map_metadata', '-1', ...(strip ? STRIP_ARGS : []), ...AUDIO_ENCODINGS[to as AudioTarget]({ bitrate: effectiveBitrate(to, request.options.bitrate, media.audioChannels) })];
    } else {
      this.checkFrames(media, context);
      const output = videoOutputArgs(to as VideoTarget, window.seconds);
      args = [...output.args, ...(strip ? STRIP_ARGS : [])];
      durationSeconds = Math.min(durationSeconds, output.limitSeconds);
    }
    const write = () => runFfmpeg(this.tools, request, context, { inputOptions, args, outputPath, durationSeconds, kind });
    const notes = strip ? await strippingMetadata(this.tools, request, context, outputPath, kind, write) : (await write(), []);
    return { files: [outputPath], ...(window.notes.length + notes.length > 0 ? { notes: [...window.notes, ...notes] } : {}) };
  }

  /**
   * A video to its own format. Copied, streams and all, unless a cut would not be exact: a copy cuts between packets,
   * which is between frames only where the packets are in display order (no B-frames) and the first one is a keyframe
   * (the start is 0 or on one). Otherwise the picture is encoded again, exact to the frame, and the rest copied.
   * Data tracks (timecode, telemetry) are left out: a muxer may not take them back.
   */
  private async identityArgs(request: StepRequest, context: StepContext, media: MediaProbe, window: TrimWindow, strip: boolean): Promise<string[]> {
    const { length } = windowArgs(window);
    const video = media.video;
    const copy = !window.cuts || !video || (!video.reordered && (window.start === 0 || (await keyframeAt(this.tools, request, context, media, window.start))));
    const muxer = ['-f', IDENTITY_MUXERS[request.to]!];
    // Stripped, only the content: the picture (not cover art), sound and subtitles; attachments and chapters stay behind.
    const content = ['-map', '0:V?', '-map', '0:a?', '-map', '0:s?'];
    // After a seek, a copied track starts at its first packet at or after the start, not at the keyframe before it
    // (without a seek, packets before 0 are the codec's priming: they stay).
    const fromStart = window.start > 0 ? ['-copypriorss', '0'] : [];
    if (copy) return [...length, ...(strip ? content : ['-map', '0', '-map', '-0:d']), '-c', 'copy', ...fromStart, ...(strip ? STRIP_ARGS : []), ...muxer];
    this.checkFrames(media, context);
    return [...length, ...content, ...(strip ? [] : ['-map', '0:t?']), '-c', 'copy', ...EDIT_ENCODINGS[request.to]!, ...fromStart, ...(strip ? STRIP_ARGS : []), ...muxer];
  }

  /**
   * The still: the frame at the `frame` option's time (an input seek, decoded up to the frame: exact), else the frame a
   * tenth into the video. A time past the video's end fails; one within its last frame takes that frame.
   */
  private still(request: StepRequest, media: MediaProbe): { inputOptions: string[]; args: string[] } {
    const at = request.options.frame;
    const tracks = ['-frames:v', '1', '-an', '-sn', '-dn', '-map_metadata', '-1'];
    if (at === undefined) {
      const offset = Math.min(media.durationSeconds / 10, POSTER_MAX_OFFSET_SECONDS);
      return { inputOptions: [], args: ['-ss', offset.toFixed(3), '-map', '0:v:0', ...tracks] };
    }
    const end = media.video?.durationSeconds || media.durationSeconds;
    if (end > 0 && at >= end) throw new ConversionError('unsupported_or_corrupt_input', `The frame at ${shown(at)} s is after the end of the video (${shown(end)} s).`);
    const frameSeconds = media.video?.frameRate ? 1 / media.video.frameRate : 0;
    const seek = end > 0 ? Math.min(at, Math.max(0, end - frameSeconds)) : at;
    return { inputOptions: ['-ss', seek.toFixed(6)], args: ['-map', '0:V:0', ...tracks] };
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
