import { z } from 'zod';
import { type OptionName, PLATFORM_OPTION_SCHEMAS } from '../../platform/conversion-options.js';
import type { EngineDescriptor } from '../../platform/engine-descriptor.js';
import { MAX_SPLIT_RANGES, rangesCountWithin, rangesRunForward } from './split-parts.js';
import { STAMP_POSITIONS } from './stamp-pdf.js';
import { isStampText } from './win-ansi.js';

/** Pages as the platform's `pages` option writes them ("1-3,5"); the description must name "1-3,5" (describeAllowed). */
const pageList = (description: string) => PLATFORM_OPTION_SCHEMAS.pages.max(1000).describe(description);
/** A PDF password: AES-256 uses its first 127 bytes of UTF-8. */
const secret = z.string().min(1).max(128);

/** The PDF operations qpdf declares (`rotate` is the platform's: a picture turns too). */
export const QPDF_OPTION_SCHEMAS = {
  rotate_pages: pageList('The pages rotate turns, e.g. "1-3,5" (default: every page).'),
  password: z
    .strictObject({ user: secret, owner: secret.optional() })
    .describe('Encrypt the PDF with AES-256: {"user": "…"} is the password that opens it; owner (default: the user password) the one that may change its security. Nothing is restricted.')
    // A secret: kept only while the job runs, never logged nor answered (OptionCatalogue.secretNames).
    .meta({ secret: true }),
  decrypt: secret.describe('The password that opens an encrypted PDF (its user or owner password); the output has no password unless password is given too.').meta({ secret: true }),
  flatten: z.literal(true).describe('true: form fields and annotations drawn into the pages, no longer editable.'),
  stamp: z
    .strictObject({
      text: z
        .string()
        .min(1)
        .max(200)
        .refine(isStampText, 'must be text in Latin-1 (WinAnsi: Western European letters, digits, punctuation, € and typographic quotes); other scripts cannot be stamped'),
      position: z.enum(STAMP_POSITIONS).optional(),
      opacity: z.number().min(0.05).max(1).optional(),
      angle: z.number().min(-180).max(180).optional(),
      size: z.number().min(6).max(200).optional(),
      pages: pageList('The pages stamped, e.g. "1-3,5" (default: every page).').optional(),
    })
    .describe(
      'A text watermark drawn over the pages: {"text": "CONFIDENTIAL"}, with position (center, top, bottom, top-left, top-right, bottom-left, bottom-right), opacity 0.05..1, angle in degrees counter-clockwise, size in points (lowered to fit the page) and pages ("1-3,5"). Defaults: level (angle 0; 45 for a diagonal); center at 60 pt and opacity 0.25, elsewhere 18 pt and 0.6.',
    ),
  split: z
    .strictObject({
      every: z.number().int().min(1).max(10_000).optional(),
      ranges: pageList('One part per range, e.g. "1-3,4-7,9".')
        .refine(rangesRunForward, 'each range must run forward, e.g. "4-7", not "7-4"')
        .refine(rangesCountWithin, `at most ${MAX_SPLIT_RANGES} ranges`)
        .optional(),
    })
    .refine((split) => (split.every === undefined) !== (split.ranges === undefined), 'give either every (pages per part) or ranges (e.g. "1-3,4-7,9"), one of the two')
    .describe('Split a PDF into parts, one PDF each in a ZIP (part-001.pdf…): {"every": 2} pages per part, or {"ranges": "1-3,4-7,9"} one part per range (default: one part per page).'),
};

declare module '../../platform/conversion-options.js' {
  interface EngineOptionSchemas {
    rotate_pages: (typeof QPDF_OPTION_SCHEMAS)['rotate_pages'];
    password: (typeof QPDF_OPTION_SCHEMAS)['password'];
    decrypt: (typeof QPDF_OPTION_SCHEMAS)['decrypt'];
    flatten: (typeof QPDF_OPTION_SCHEMAS)['flatten'];
    stamp: (typeof QPDF_OPTION_SCHEMAS)['stamp'];
    split: (typeof QPDF_OPTION_SCHEMAS)['split'];
  }
}

/** What qpdf does to a PDF, in one run; rotate_pages says which pages rotate turns and chooses nothing alone. */
const PDF_OPERATIONS = ['rotate', 'rotate_pages', 'password', 'decrypt', 'flatten', 'stamp'] as const satisfies readonly OptionName[];

/**
 * PDF operations through qpdf (11.3 on Debian 12): pages turned and stamped, a PDF encrypted with AES-256, decrypted
 * with its password or flattened, split into a ZIP of parts; and PDFs merged into one (its join). Every run reads its
 * arguments from a job file of the step's own (passwords never on a command line); every PDF is read by pdfinfo first.
 */
export const QPDF_DESCRIPTOR: EngineDescriptor = {
  id: 'qpdf',
  engineClass: 'documents',
  description: 'PDF operations (qpdf): rotate, stamp, encrypt (AES-256), decrypt, flatten, split into a ZIP, merge',
  // Dearer than Ghostscript (5): a pdf → pdf asked without a qpdf option stays Ghostscript's rewrite (the cheapest
  // plan is the default one); qpdf's options choose it (chosenBy).
  cost: 6,
  pairs: [
    { from: 'pdf', to: 'pdf', options: PDF_OPERATIONS, chosenBy: PDF_OPERATIONS.filter((name) => name !== 'rotate_pages') },
    // The parts of a PDF the caller has (not of one a step just made from a DOCX), for the caller: one PDF per page
    // without `split`. It chooses no other plan (there is none), so it takes no chosenBy.
    { from: 'pdf', to: 'zip', options: ['split'], firstStepOnly: true, lastStepOnly: true },
  ],
  // qpdf never runs a program: a damaged or looping page tree fails at once. 45 s of CPU and 1.5 GB bound a huge file.
  limits: { timeoutMs: 120_000, maxOutputBytes: 512 * 1024 * 1024, maxPages: 2000, cpuSeconds: 45, memoryBytes: 1536 * 1024 * 1024 },
  // poppler-utils: pdfinfo reads every PDF (encryption, permissions, page count and sizes) before qpdf does.
  debianPackages: ['qpdf', 'poppler-utils'],
  options: QPDF_OPTION_SCHEMAS,
  joins: [{ into: 'pdf', members: ['pdf'] }],
};
