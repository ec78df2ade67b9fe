import { allPairs, type EngineDescriptor, type EnginePair } from '../../platform/engine-descriptor.js';
import { AUDIO_WRITES, LOSSY_AUDIO } from './ffmpeg-formats.js';

export const VIDEO_READS = ['mp4', 'webm', 'mkv', 'mov', 'avi', 'ogv', 'flv', 'wmv', 'mpeg', 'm2ts', '3gp'] as const;
export const VIDEO_WRITES = ['mp4', 'webm', 'mkv', 'mov', 'avi', 'gif'] as const;
/** A still of the video (its poster frame). */
export const POSTER_WRITES = ['png', 'jpg'] as const;
const RECOMMENDED = new Set(['mp4', 'webm', 'gif', 'mp3', 'png']);

const soundTracks: EnginePair[] = VIDEO_READS.flatMap((from) =>
  AUDIO_WRITES.map((to) => ({ from, to, recommended: RECOMMENDED.has(to), options: LOSSY_AUDIO.has(to) ? (['bitrate'] as const) : [] })),
);

/**
 * Video through ffmpeg, in the sandboxed runner: another container and codecs (chosen by us, never by the
 * caller), the sound track as audio, or a poster frame. Local files only, each read by its own demuxer.
 */
export const FFMPEG_VIDEO_DESCRIPTOR: EngineDescriptor = {
  id: 'ffmpeg-video',
  engineClass: 'media',
  description: `video (ffmpeg): ${VIDEO_READS.join(' ')} → ${VIDEO_WRITES.join(' ')}, the sound track as audio, a poster frame as png or jpg`,
  cost: 4,
  pairs: [
    ...allPairs(VIDEO_READS, VIDEO_WRITES, (to) => ({ recommended: RECOMMENDED.has(to) })),
    ...soundTracks,
    ...allPairs(VIDEO_READS, POSTER_WRITES, (to) => ({ recommended: RECOMMENDED.has(to) })),
  ],
  limits: {
    timeoutMs: 30 * 60_000,
    maxOutputBytes: 2 * 1024 * 1024 * 1024,
    maxDurationSeconds: 2 * 3600,
    // 4K UHD: larger frames are refused before decoding.
    maxInputPixels: 3840 * 2160,
  },
  debianPackages: ['ffmpeg'],
};
