import { allPairs, type EngineDescriptor } from '../../platform/engine-descriptor.js';
import { AUDIO_READS, AUDIO_WRITES, LOSSY_AUDIO, RECOMMENDED_AUDIO } from './ffmpeg-formats.js';

/** Audio through ffmpeg, in the sandboxed runner: local files only, each read by its own demuxer. */
export const FFMPEG_AUDIO_DESCRIPTOR: EngineDescriptor = {
  id: 'ffmpeg-audio',
  engineClass: 'media',
  description: `audio (ffmpeg): ${AUDIO_READS.join(' ')} → ${AUDIO_WRITES.join(' ')}`,
  cost: 2,
  pairs: allPairs(AUDIO_READS, AUDIO_WRITES, (to) => ({ recommended: RECOMMENDED_AUDIO.has(to), options: LOSSY_AUDIO.has(to) ? ['bitrate'] : [] })),
  limits: { timeoutMs: 120_000, maxOutputBytes: 512 * 1024 * 1024, maxDurationSeconds: 3 * 3600 },
  debianPackages: ['ffmpeg'],
};
