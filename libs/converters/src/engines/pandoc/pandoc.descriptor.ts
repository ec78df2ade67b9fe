import type { EngineDescriptor, EnginePair } from '../../platform/engine-descriptor.js';

/**
 * Formats pandoc reads here (by catalogue id). Plain text has no pandoc reader: LibreOffice reads it. Nor ODT nor RTF:
 * pandoc 2.17's ODT reader drops a table's header rows, text and all, and its RTF reader makes a table one column of
 * nested tables; both go to markup through LibreOffice's DOCX.
 */
export const PANDOC_READS = ['md', 'html', 'docx', 'epub', 'rst', 'org', 'tex', 'ipynb'] as const;
/**
 * Debian's pandoc 2.17 cannot write docx or epub under `--sandbox` (it looks for its data files inside the
 * sandbox and fails), and unsandboxed it would fetch the images a document names (files of ours, URLs).
 * So pandoc writes odt, and LibreOffice takes odt → docx; epub is written by the ebook engine.
 */
export const PANDOC_WRITES = ['md', 'html', 'odt', 'rtf', 'rst', 'org', 'tex', 'txt', 'ipynb', 'fb2'] as const;
/**
 * Between these LibreOffice converts with the layout intact (tables, styles, page setup); pandoc keeps the
 * structure only. One good path per pair: pandoc is not offered where both ends are office formats.
 */
const OFFICE = new Set(['html', 'docx', 'odt', 'rtf', 'txt']);
const RECOMMENDED = new Set(['md', 'html', 'odt']);

/** ODT is the way on to docx and pdf (through LibreOffice): pandoc writes real paragraph styles there. */
const ODT_COST = 5;
/**
 * Formats that carry their pictures inside: pandoc's HTML of them names each picture as a file it does not write
 * (under --sandbox it cannot embed them either), so that HTML ends a plan — a browser drawing it would lose them;
 * their way to PDF is ODT, which holds the pictures.
 */
const PICTURES_INSIDE = new Set(['epub', 'ipynb']);
/**
 * FictionBook keeps a table as a table here (calibre's FB2 writes one cell per line). It goes on to calibre only where
 * that loses less than every other way (a PDF's tables to an e-book: pdf → md → fb2 → epub, where DOCX would be a
 * fourth step); elsewhere the e-book engine reads DOCX or EPUB, which keep more of a document's styles.
 */
const PASSES_ON_ONLY_TO_LOSE_LESS = new Set(['fb2']);

const pairs: EnginePair[] = PANDOC_READS.flatMap((from) =>
  PANDOC_WRITES.filter((to) => to !== from && !(OFFICE.has(from) && OFFICE.has(to))).map((to) => ({
    from,
    to,
    recommended: RECOMMENDED.has(to),
    ...(to === 'odt' ? { cost: ODT_COST } : {}),
    ...(to === 'html' && PICTURES_INSIDE.has(from) ? { lastStepOnly: true } : {}),
    ...(PASSES_ON_ONLY_TO_LOSE_LESS.has(to) ? { passesOnOnlyToLoseLess: true } : {}),
  })),
);

/**
 * Markup through pandoc: Markdown, reStructuredText, Org, LaTeX, Jupyter notebooks and EPUB to and from
 * each other and the office formats. Always `--sandbox` (no file but the input is read, nothing is fetched);
 * LaTeX is read as markup and never run; → PDF goes through the platform's plans (e.g. md → docx → pdf).
 */
export const PANDOC_DESCRIPTOR: EngineDescriptor = {
  id: 'pandoc',
  engineClass: 'documents',
  description: `markup (pandoc, --sandbox): ${PANDOC_READS.join(' ')} → ${PANDOC_WRITES.join(' ')}`,
  // Dearer than two LibreOffice steps are cheap: a chain through pandoc (docx → md → odt) must never beat
  // LibreOffice's own path between office formats, which keeps the layout.
  cost: 6,
  pairs,
  limits: { timeoutMs: 60_000, maxOutputBytes: 256 * 1024 * 1024 },
  debianPackages: ['pandoc'],
};
