import { allPairs, type EngineDescriptor, type EnginePair } from '../../platform/engine-descriptor.js';
import { AUDIO_WRITES, LOSSY_AUDIO } from './ffmpeg-formats.js';
import { FRAME_OPTION_SCHEMA, MEDIA_EDITS } from './ffmpeg-options.js';

export const VIDEO_READS = ['mp4', 'webm', 'mkv', 'mov', 'avi', 'ogv', 'flv', 'wmv', 'mpeg', 'm2ts', '3gp'] as const;
export const VIDEO_WRITES = ['mp4', 'webm', 'mkv', 'mov', 'avi', 'gif'] as const;
/** A still of the video (its poster frame, or the frame at the `frame` option's time). */
export const POSTER_WRITES = ['png', 'jpg'] as const;
const RECOMMENDED = new Set(['mp4', 'webm', 'gif', 'mp3', 'png']);

const soundTracks: EnginePair[] = VIDEO_READS.flatMap((from) =>
  AUDIO_WRITES.map((to) => ({ from, to, recommended: RECOMMENDED.has(to), options: [...(LOSSY_AUDIO.has(to) ? (['bitrate'] as const) : []), ...MEDIA_EDITS] })),
);

/**
 * Video through ffmpeg, in the sandboxed runner: another container and codecs (chosen by us, never by the
 * caller), the sound track as audio, or a still; and each format to itself (a part of it, or without its metadata).
 * Local files only, each read by its own demuxer.
 */
export const FFMPEG_VIDEO_DESCRIPTOR: EngineDescriptor = {
  id: 'ffmpeg-video',
  engineClass: 'media',
  description: `video (ffmpeg): ${VIDEO_READS.join(' ')} → ${VIDEO_WRITES.join(' ')}, and each to itself (trim, strip metadata), the sound track as audio, a still as png or jpg`,
  cost: 4,
  pairs: [
    ...allPairs(VIDEO_READS, VIDEO_WRITES, (to) => ({ recommended: RECOMMENDED.has(to), options: MEDIA_EDITS })),
    ...VIDEO_READS.map((format) => ({ from: format, to: format, options: MEDIA_EDITS })),
    ...soundTracks,
    ...allPairs(VIDEO_READS, POSTER_WRITES, (to) => ({ recommended: RECOMMENDED.has(to), options: ['frame'] as const })),
  ],
  limits: {
    timeoutMs: 30 * 60_000,
    maxOutputBytes: 2 * 1024 * 1024 * 1024,
    maxDurationSeconds: 2 * 3600,
    // 4K UHD: larger frames are refused before decoding.
    maxInputPixels: 3840 * 2160,
  },
  debianPackages: ['ffmpeg'],
  options: { frame: FRAME_OPTION_SCHEMA },
};
