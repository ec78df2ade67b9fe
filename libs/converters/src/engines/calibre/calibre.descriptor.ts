import { allPairs, type EngineDescriptor, type EnginePair } from '../../platform/engine-descriptor.js';

export const EBOOK_FORMATS = ['epub', 'mobi', 'azw3', 'fb2'] as const;
/**
 * The office document calibre reads well; every other document reaches it through DOCX. Not ODT: calibre's ODT
 * reader fails on a package without meta.xml, which ODF allows (LibreOffice takes odt → docx instead).
 */
export const CALIBRE_DOCUMENT_INPUTS = ['docx'] as const;

/**
 * What each target gets beyond its recommendation. calibre's FB2 writer puts each table cell in a paragraph of its own.
 * Its DOCX has tables without a column grid, whose columns LibreOffice collapses (a PDF lost a column): that DOCX is for
 * the caller, and an e-book reaches LibreOffice through EPUB and pandoc's ODT instead.
 */
const targetAttributes = (to: string, recommended: boolean): Omit<EnginePair, 'from' | 'to'> => ({
  recommended,
  ...(to === 'fb2' ? { losses: ['table-layout'] } : {}),
  ...(to === 'docx' ? { lastStepOnly: true } : {}),
});

/**
 * E-books through calibre's `ebook-convert`: EPUB, MOBI, AZW3 and FB2 to each other and to DOCX, and DOCX to
 * each of them. Not PDF: calibre renders PDF in a Chromium that would run without its sandbox here, so
 * an e-book reaches PDF through DOCX and LibreOffice. Not TXT: pandoc writes cleaner text from the EPUB.
 * HTML and Markdown are not read by calibre either: its HTML reader follows links to local files.
 */
export const CALIBRE_DESCRIPTOR: EngineDescriptor = {
  id: 'calibre',
  engineClass: 'documents',
  description: `e-books (calibre ebook-convert): ${EBOOK_FORMATS.join(' ')} → each other and docx; docx → ${EBOOK_FORMATS.join(' ')}`,
  // Dearer than pandoc, cheaper than LibreOffice: each run starts calibre's Python (about a second).
  cost: 8,
  pairs: [
    ...allPairs(EBOOK_FORMATS, [...EBOOK_FORMATS, 'docx'], (to) => targetAttributes(to, to === 'epub' || to === 'docx')),
    ...allPairs(CALIBRE_DOCUMENT_INPUTS, EBOOK_FORMATS, (to) => targetAttributes(to, to === 'epub')),
  ],
  // EPUB and DOCX are ZIP packages: their central directory is checked before calibre unpacks them.
  limits: { timeoutMs: 120_000, maxOutputBytes: 256 * 1024 * 1024, maxEntries: 10_000, maxExpandedBytes: 512 * 1024 * 1024, maxCompressionRatio: 100, maxPathDepth: 32 },
  debianPackages: ['calibre'],
};
