import { allPairs, type EngineDescriptor } from '../../platform/engine-descriptor.js';
import { AUDIO_READS, AUDIO_WRITES, LOSSY_AUDIO, RECOMMENDED_AUDIO } from './ffmpeg-formats.js';
import { MEDIA_EDITS, TRIM_OPTION_SCHEMA } from './ffmpeg-options.js';

/**
 * Audio through ffmpeg, in the sandboxed runner: local files only, each read by its own demuxer. Each format it reads
 * also converts to itself (amr included: copied, never encoded): a part of it (trim), or the sound without its
 * metadata.
 */
export const FFMPEG_AUDIO_DESCRIPTOR: EngineDescriptor = {
  id: 'ffmpeg-audio',
  engineClass: 'media',
  description: `audio (ffmpeg): ${AUDIO_READS.join(' ')} → ${AUDIO_WRITES.join(' ')}, and each to itself (trim, strip metadata)`,
  cost: 2,
  pairs: [
    ...allPairs(AUDIO_READS, AUDIO_WRITES, (to) => ({ recommended: RECOMMENDED_AUDIO.has(to), options: [...(LOSSY_AUDIO.has(to) ? (['bitrate'] as const) : []), ...MEDIA_EDITS] })),
    ...AUDIO_READS.map((format) => ({ from: format, to: format, options: MEDIA_EDITS })),
  ],
  limits: { timeoutMs: 120_000, maxOutputBytes: 512 * 1024 * 1024, maxDurationSeconds: 3 * 3600 },
  debianPackages: ['ffmpeg'],
  // `trim` is honoured by the video engine's pairs too; an option is declared by one engine.
  options: { trim: TRIM_OPTION_SCHEMA },
};
