import type { ConversionOptions } from '@fileshift/sdk';
import { z } from 'zod';

/**
 * The `options` input of the conversion tools. Types and allowed values only: the service checks ranges
 * and which options apply to the conversion (list_formats shows them), before any payment.
 */
export const conversionOptionsShape = {
  options: z
    .strictObject({
      quality: z.number().int().optional().describe('Lossy image quality, 1..100 (jpg, webp, avif outputs).'),
      width: z.number().int().optional().describe('Output width in pixels (image outputs).'),
      height: z.number().int().optional().describe('Output height in pixels (image outputs).'),
      fit: z.enum(['cover', 'contain', 'fill', 'inside', 'outside']).optional().describe('How the image fits width × height (default inside).'),
      pages: z.string().optional().describe('Pages to convert, e.g. "1-3,5" (PDF inputs).'),
      dpi: z.number().int().optional().describe('Resolution of rendered PDF pages, 36..600.'),
      bitrate: z.enum(['64k', '96k', '128k', '160k', '192k', '256k', '320k']).optional().describe('Audio bitrate of lossy outputs.'),
      pdfa: z.enum(['1b', '2b', '3b']).optional().describe('Write PDF/A of this level.'),
      compress: z.enum(['screen', 'ebook', 'printer', 'prepress']).optional().describe('Re-compress a PDF output for this use.'),
      paper: z.enum(['a4', 'letter', 'legal', 'a3', 'a5']).optional().describe('Paper size of a PDF printed from HTML (default: the page’s CSS, else a4).'),
      margin: z.number().int().optional().describe('Margin of a PDF printed from HTML, in millimetres, 0..50 (default 10).'),
      ocr: z.literal(true).optional().describe('true: a searchable PDF (text read by OCR under the page image) of a picture or a scanned PDF.'),
      // File operations: mostly a conversion to the file's own format (pdf → pdf, jpg → jpg, mp3 → mp3).
      rotate: z.literal([90, 180, 270]).optional().describe("Turn clockwise by 90, 180 or 270 degrees: a picture, or a PDF's pages (pdf → pdf)."),
      rotate_pages: z.string().optional().describe('The PDF pages rotate turns, e.g. "1-3,5" (default: every page).'),
      password: z
        .strictObject({ user: z.string().describe('The password that opens the PDF.'), owner: z.string().optional().describe('The password that may change its security (default: user).') })
        .optional()
        .describe('Protect a PDF with a password (AES-256), pdf → pdf. Never logged by this server.'),
      decrypt: z.string().optional().describe('The password of an encrypted PDF, to remove its protection (pdf → pdf). Never logged by this server.'),
      flatten: z.literal(true).optional().describe("true: a PDF's form fields and annotations drawn into its pages (pdf → pdf)."),
      stamp: z
        .strictObject({
          text: z.string(),
          position: z.enum(['center', 'top', 'bottom', 'top-left', 'top-right', 'bottom-left', 'bottom-right']).optional(),
          opacity: z.number().optional().describe('0.05..1.'),
          angle: z.number().optional().describe('Degrees counter-clockwise.'),
          size: z.number().optional().describe('Points.'),
          pages: z.string().optional().describe('e.g. "1-3,5" (default: every page).'),
        })
        .optional()
        .describe('A text watermark over the pages of a PDF (pdf → pdf), e.g. {"text": "CONFIDENTIAL"}.'),
      metadata: z
        .strictObject({ title: z.string().optional(), author: z.string().optional(), subject: z.string().optional(), keywords: z.string().optional() })
        .optional()
        .describe("Set a PDF's title, author, subject and keywords (pdf → pdf)."),
      strip_metadata: z.literal(true).optional().describe('true: remove metadata (EXIF and GPS location, authors, editing history) from a picture, PDF, document, sound or video.'),
      split: z
        .strictObject({ every: z.number().int().optional().describe('Pages per part.'), ranges: z.string().optional().describe('One part per range, e.g. "1-3,4-7".') })
        .optional()
        .describe('Split a PDF into parts, one PDF each in a ZIP (target_format "zip"); default one part per page.'),
      crop: z
        .strictObject({ left: z.number().int(), top: z.number().int(), width: z.number().int(), height: z.number().int() })
        .optional()
        .describe('The rectangle of a picture to keep, in pixels.'),
      grayscale: z.literal(true).optional().describe('true: a picture in shades of grey.'),
      trim: z
        .strictObject({ start: z.number().optional(), end: z.number().optional() })
        .optional()
        .describe('Keep only this part of a sound or video, in seconds from its beginning.'),
      frame: z.number().optional().describe('The still of a video (to png, jpg or webp) at this time, in seconds.'),
      // Codes as text: the service checks them and names those it reads when one is not.
      languages: (z.array(z.string()).min(1).max(4) as unknown as z.ZodType<NonNullable<ConversionOptions['languages']>>)
        .optional()
        .describe('Languages OCR reads (pictures to txt/md/pdf, scanned PDF pages): ISO 639 codes such as en, de, fr, es, it, pt, nl, ru, ar, hi, zh, zh-hant, ja, ko. Default: by the script on the page.'),
    })
    .optional()
    .describe('Conversion options; each applies to some conversions only (list_formats names them). One that does not apply is refused before anything is paid.'),
} satisfies Record<'options', z.ZodType<ConversionOptions | undefined>>;
