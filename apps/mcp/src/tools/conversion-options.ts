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
      // Codes as text: the service checks them and names those it reads when one is not.
      languages: (z.array(z.string()).min(1).max(4) as unknown as z.ZodType<NonNullable<ConversionOptions['languages']>>)
        .optional()
        .describe('Languages OCR reads (pictures to txt/md/pdf, scanned PDF pages): ISO 639 codes such as en, de, fr, es, it, pt, nl, ru, ar, hi, zh, zh-hant, ja, ko. Default: by the script on the page.'),
    })
    .optional()
    .describe('Conversion options; each applies to some conversions only (list_formats names them). One that does not apply is refused before anything is paid.'),
} satisfies Record<'options', z.ZodType<ConversionOptions | undefined>>;
