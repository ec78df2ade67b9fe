import type { EngineDescriptor, EnginePair } from '../../platform/engine-descriptor.js';
import { OCR_LANGUAGE_PACKAGES } from './ocr-languages.js';

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
  // About 2 s of one core per 300 dpi page: 50 pages fit the step's 10 minutes. A multi-page TIFF or a PDF with more
  // pages is refused before OCR starts; a picture past 100 MP before it is decoded.
  limits: { timeoutMs: 600_000, maxOutputBytes: 512 * 1024 * 1024, maxPages: 50, maxInputPixels: 100_000_000, cpuSeconds: 600, memoryBytes: 2 * 1024 ** 3 },
  // poppler-utils: pdfinfo reads a PDF before OCRmyPDF does.
  debianPackages: ['tesseract-ocr', 'ocrmypdf', ...OCR_LANGUAGE_PACKAGES, 'poppler-utils'],
  // `tesseract --version`, which OCRmyPDF runs before every conversion, asks libcurl whether IPv6 works by opening an
  // internet socket: refused (EPERM) rather than ending the run; the sandbox has no network to reach either way.
  sockets: 'unix-only-refused',
};
