import { OPTION_NAMES, OPTION_SCHEMAS } from '@fileshift/converters';
import { z } from 'zod';
import { apiSchema } from '../http-kit/api-schema-registry.js';

/**
 * The options of a conversion as both APIs take them (the catalogue's schemas, each optional). Another name passes
 * this schema (documented closed) so that the conversion's own check refuses it naming the options that conversion takes.
 */
export const ConversionOptionsSchema = apiSchema(
  'ConversionOptions',
  z.looseObject(Object.fromEntries(OPTION_NAMES.map((name) => [name, OPTION_SCHEMAS[name].optional()])) as { [N in keyof typeof OPTION_SCHEMAS]: z.ZodOptional<(typeof OPTION_SCHEMAS)[N]> }),
  'Options of a conversion. Each applies to some conversions only: quality (jpg, webp, avif outputs; jpg pages), width/height/fit (image outputs), ' +
    'pages and dpi (PDF pages to images; pages also for PDF output and PDF text), bitrate (lossy audio), pdfa and compress (PDF output), ' +
    'ocr (a searchable PDF of a picture or a scanned PDF) and languages (what OCR reads: pictures to text, Markdown or PDF; PDF text). ' +
    'File operations, most on a conversion from a format to itself (pdf → pdf, jpg → jpg, mp3 → mp3): rotate (pictures, PDF pages; rotate_pages picks pages), ' +
    'crop and grayscale (pictures), stamp, password, decrypt, flatten and metadata (pdf → pdf), split (pdf → zip), trim (audio and video), frame (video → picture), ' +
    'strip_metadata (pictures, PDF, office documents, audio, video). ' +
    'An option that does not apply to the conversion asked for is refused before any payment, naming those that do. ' +
    'Passwords (password, decrypt) are forgotten when the job ends.',
  true,
);
