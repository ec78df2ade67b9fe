import { z } from 'zod';
import type { EngineDescriptor, EnginePair } from '../../platform/engine-descriptor.js';

/**
 * One field of a PDF's document information: one line (exiftool's argument file takes an argument a line, and a
 * title is a line anyway), without control characters; trimmed, as the argument file would trim it.
 */
const infoField = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .regex(/^[^\p{Cc}\p{Zl}\p{Zp}]*$/u, 'must be one line without control characters')
    .describe(what)
    .optional();

/** The options exiftool declares (`strip_metadata` is the platform's: ffmpeg strips sound and video). */
export const EXIFTOOL_OPTION_SCHEMAS = {
  metadata: z
    .strictObject({
      title: infoField("The PDF's title."),
      author: infoField("The PDF's author."),
      subject: infoField("The PDF's subject."),
      keywords: infoField("The PDF's keywords, as one line (e.g. \"report, 2025\")."),
    })
    .refine((fields) => Object.values(fields).some((value) => value !== undefined), 'must set at least one of title, author, subject, keywords')
    .describe(
      'Set a PDF\'s title, author, subject and keywords (its document information and XMP; the old values do not stay in the file), e.g. {"title": "Report", "author": "Fileshift"}: each one line, 1000 characters or fewer.',
    ),
};

declare module '../../platform/conversion-options.js' {
  interface EngineOptionSchemas {
    metadata: (typeof EXIFTOOL_OPTION_SCHEMAS)['metadata'];
  }
}

/**
 * The pictures whose metadata exiftool removes without touching their pixels. Raw photos are not among them (a raw
 * converter needs their maker notes), nor PSD (its resources hold layer information).
 */
export const EXIFTOOL_PICTURES = ['jpg', 'png', 'webp', 'avif', 'heic', 'tiff', 'gif'] as const;
/** Office packages, whose metadata parts the runtime rewrites itself (exiftool reads them but does not write them). */
export const EXIFTOOL_OFFICE_PACKAGES = ['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp'] as const;

const strip = (format: string): EnginePair => ({ from: format, to: format, options: ['strip_metadata'], chosenBy: ['strip_metadata'] });

/**
 * Metadata operations: a picture, a PDF or an office document with its metadata removed (EXIF, GPS, XMP, IPTC,
 * comments; a document's authors and dates), or a PDF's title, author, subject and keywords set. Each pair turns a
 * format into itself, chosen only by its options: jpg → jpg stays sharp's and pdf → pdf Ghostscript's otherwise.
 */
export const EXIFTOOL_DESCRIPTOR: EngineDescriptor = {
  id: 'exiftool',
  // Quick work: exiftool never decodes a picture nor renders a page, and qpdf only copies a PDF's objects, so a step
  // takes time in proportion to the bytes, a second or two for the largest file; it does not hold up the images queue.
  engineClass: 'images',
  description: 'metadata of pictures, PDFs and office documents removed (exiftool; qpdf rewrites a PDF), a PDF\'s title, author, subject and keywords set',
  // Dearer than the engines that rewrite these formats by default (sharp, Ghostscript): its plans are never the
  // cheapest, only the ones its options choose.
  cost: 8,
  pairs: [
    ...EXIFTOOL_PICTURES.map(strip),
    { from: 'pdf', to: 'pdf', options: ['strip_metadata', 'metadata'], chosenBy: ['strip_metadata', 'metadata'] },
    ...EXIFTOOL_OFFICE_PACKAGES.map(strip),
  ],
  // exiftool holds a file's metadata segments in memory and qpdf a PDF's object table: 1 GB each is ample. A file
  // that makes either loop stops at 30 s of CPU.
  limits: { timeoutMs: 60_000, maxOutputBytes: 512 * 1024 * 1024, cpuSeconds: 30, memoryBytes: 1024 * 1024 * 1024, maxEntries: 10_000, maxExpandedBytes: 256 * 1024 * 1024 },
  // poppler-utils: pdfinfo reads every PDF first (password, permissions); qpdf rewrites it after exiftool's edit.
  debianPackages: ['libimage-exiftool-perl', 'qpdf', 'poppler-utils'],
  options: EXIFTOOL_OPTION_SCHEMAS,
};
