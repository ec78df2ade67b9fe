import { allPairs, type EngineDescriptor } from '../engine-descriptor.js';

export const AUDIO_FORMATS = ['mp3', 'wav', 'ogg', 'flac', 'm4a', 'aac', 'opus'] as const;
const LOSSY = new Set(['mp3', 'ogg', 'm4a', 'aac', 'opus']);
/** The targets most people want: a universal lossy one, a lossless one, an editable one. */
const RECOMMENDED = new Set(['mp3', 'wav', 'flac']);

/** Audio through ffmpeg, in the sandboxed runner: local files only, no network. */
export const FFMPEG_AUDIO_DESCRIPTOR: EngineDescriptor = {
  id: 'ffmpeg-audio',
  engineClass: 'media',
  description: 'audio (ffmpeg): mp3 wav ogg flac m4a aac opus, every pair',
  cost: 2,
  pairs: allPairs(AUDIO_FORMATS, AUDIO_FORMATS, (to) => ({ recommended: RECOMMENDED.has(to), options: LOSSY.has(to) ? ['bitrate'] : [] })),
  limits: { timeoutMs: 120_000, maxOutputBytes: 512 * 1024 * 1024, maxDurationSeconds: 3 * 3600 },
  debianPackages: ['ffmpeg'],
};
