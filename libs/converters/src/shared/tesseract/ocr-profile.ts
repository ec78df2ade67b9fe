import type { EngineDescriptor } from '../../platform/engine-descriptor.js';
import { OCR_LANGUAGE_PACKAGES } from './ocr-languages.js';

/**
 * What every OCR process runs under, whichever engine's step asks (the OCR engine, or poppler for a PDF's scanned
 * pages): the OCR engine's limits, socket policy and Debian packages. Its descriptor takes them from here, so that
 * poppler needs no import of the OCR engine.
 */
export const OCR_PROFILE = {
  // About 2 s of one core per 300 dpi page: 50 pages fit the step's 10 minutes. A multi-page TIFF or a PDF with more
  // pages is refused before OCR starts; a picture past 100 MP before it is decoded.
  limits: { timeoutMs: 600_000, maxOutputBytes: 512 * 1024 * 1024, maxPages: 50, maxInputPixels: 100_000_000, cpuSeconds: 600, memoryBytes: 2 * 1024 ** 3 },
  // poppler-utils: pdfinfo reads a PDF before OCRmyPDF does.
  debianPackages: ['tesseract-ocr', 'ocrmypdf', ...OCR_LANGUAGE_PACKAGES, 'poppler-utils'],
  // `tesseract --version`, which OCRmyPDF runs before every conversion, asks libcurl whether IPv6 works by opening an
  // internet socket: refused (EPERM) rather than ending the run; the sandbox has no network to reach either way.
  sockets: 'unix-only-refused',
} satisfies Pick<EngineDescriptor, 'limits' | 'debianPackages' | 'sockets'>;
