import { z } from 'zod';
import type { EngineDescriptor, EnginePair } from '../../platform/engine-descriptor.js';
import { OCR_LANGUAGE_CODES } from '../../shared/tesseract/ocr-languages.js';
import { OCR_PROFILE } from '../../shared/tesseract/ocr-profile.js';

/** The options OCR declares (poppler's pairs honour `languages` too, for a PDF's scanned pages). */
export const OCR_OPTION_SCHEMAS = {
  languages: z
    // Codes in any case ("zh-Hant", "DE"), lower-cased before they are checked.
    .array(z.string().toLowerCase().pipe(z.enum(OCR_LANGUAGE_CODES)))
    .min(1)
    .max(4)
    .describe('Languages OCR reads, most used first, as ISO 639 or tesseract codes, e.g. ["de"] or ["ja", "en"] (default: by the script found on the page; English for Latin).'),
};

declare module '../../platform/conversion-options.js' {
  interface EngineOptionSchemas {
    languages: (typeof OCR_OPTION_SCHEMAS)['languages'];
  }
}

/**
 * The pictures tesseract reads itself (leptonica); others reach it through an image engine's png: heic, gif, psd…,
 * and bmp (leptonica 1.82 refuses a BMP with a colour profile, as ImageMagick and GIMP write them).
 */
export const OCR_IMAGE_SOURCES = ['png', 'jpg', 'tiff', 'webp'] as const;

const pictureTo = (to: 'txt' | 'md' | 'pdf'): EnginePair[] =>
  OCR_IMAGE_SOURCES.map((from) => ({
    from,
    to,
    recommended: to !== 'pdf',
    // The PDF of a picture is img2pdf's unless the caller asks for a searchable one (ocr, languages).
    options: to === 'pdf' ? ['ocr', 'languages'] : ['languages'],
    ...(to === 'pdf' ? { chosenBy: ['ocr', 'languages'] as const } : {}),
    onlyAfter: 'images',
    // What OCR reads is for the caller: a step on (png → txt → docx) would pass a guess off as a document.
    lastStepOnly: true,
  }));

/**
 * OCR: the text of pictures of text (tesseract 5) as text, Markdown (headings, paragraphs, columns and tables from
 * tesseract's layout) or a searchable PDF, and scanned PDFs made searchable (OCRmyPDF). The text of scanned pages in a
 * PDF converted to text or Markdown is poppler's step, which asks tesseract for the pages that have no text.
 */
export const OCR_DESCRIPTOR: EngineDescriptor = {
  id: 'ocr',
  engineClass: 'documents',
  description: 'OCR of pictures and scanned PDFs to text, Markdown and searchable PDF (tesseract 5, OCRmyPDF), 14 languages',
  // Dearer than any other engine: a picture's PDF is img2pdf's, a PDF's rewrite Ghostscript's, unless OCR is asked for.
  cost: 9,
  pairs: [...pictureTo('txt'), ...pictureTo('md'), ...pictureTo('pdf'), { from: 'pdf', to: 'pdf', options: ['ocr', 'languages'], chosenBy: ['ocr', 'languages'] }],
  // Its processes' limits (50 pages, 10 minutes, 100 MP), packages and socket policy, shared with poppler's reading of
  // a PDF's scanned pages.
  ...OCR_PROFILE,
  options: OCR_OPTION_SCHEMAS,
};
