import { z } from 'zod';
import type { OptionName } from '../../platform/conversion-options.js';

/** A day: longer than any recording the engines take (3 h), short enough that seconds stay exact in a double. */
const MAX_SECONDS = 86_400;
const seconds = () => z.number().min(0).max(MAX_SECONDS);

/**
 * The options of the ffmpeg engines' own. `trim` is declared by the audio engine and honoured by the video engine's
 * pairs too; `frame` is the video engine's. An option is declared by one descriptor only (optionCatalogue).
 */
export const TRIM_OPTION_SCHEMA = z
  .strictObject({ start: seconds().optional(), end: seconds().optional() })
  .refine((trim) => trim.start !== undefined || trim.end !== undefined, 'must give start, end or both, in seconds')
  .refine((trim) => trim.start === undefined || trim.end === undefined || trim.start < trim.end, 'start must be before end')
  .describe('Keep only this part of the sound or video, in seconds from its beginning: {"start": 30} drops the first 30 s, {"end": 60} keeps the first minute; an end past the end keeps the rest.');

export const FRAME_OPTION_SCHEMA = seconds().describe('The still taken at this time, in seconds from the beginning of the video (default: a tenth into it, at most 10 s).');

declare module '../../platform/conversion-options.js' {
  interface EngineOptionSchemas {
    trim: typeof TRIM_OPTION_SCHEMA;
    frame: typeof FRAME_OPTION_SCHEMA;
  }
}

/** What every sound or video an engine writes may be asked: a part of it (trim), and to leave its metadata behind. */
export const MEDIA_EDITS: readonly OptionName[] = ['trim', 'strip_metadata'];
