import { allPairs, type EngineDescriptor } from '../../platform/engine-descriptor.js';

export const SUBTITLE_FORMATS = ['srt', 'vtt', 'ass'] as const;

/** Subtitles through ffmpeg: SubRip, WebVTT and Advanced SubStation Alpha, each to the others. */
export const FFMPEG_SUBTITLES_DESCRIPTOR: EngineDescriptor = {
  id: 'ffmpeg-subtitles',
  engineClass: 'media',
  description: `subtitles (ffmpeg): ${SUBTITLE_FORMATS.join(' ')}, each to the others`,
  cost: 1,
  pairs: allPairs(SUBTITLE_FORMATS, SUBTITLE_FORMATS, () => ({ recommended: true })),
  limits: { timeoutMs: 30_000, maxOutputBytes: 64 * 1024 * 1024 },
  debianPackages: ['ffmpeg'],
};
