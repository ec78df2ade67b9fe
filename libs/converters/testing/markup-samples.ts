import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { zipEntries, zipText } from './document-checks.js';
import { SAMPLE_CELLS, SAMPLE_HEADING } from './office-samples.js';
import { zip } from './zip-writer.js';

// Markup samples as people write them by hand (no converter wrote these), each with SAMPLE_HEADING as its
// title, a list and a table or code, so the checks read the heading back from every output.

export const MARKUP_SAMPLES: Record<string, string> = {
  md: `# ${SAMPLE_HEADING}\n\nA paragraph with *emphasis* and a [link](https://example.org).\n\n- one\n- two\n\n| name | value |\n|------|-------|\n| alpha | 1 |\n| beta | 2 |\n\n\`\`\`python\nprint("hi")\n\`\`\`\n`,
  rst: `${SAMPLE_HEADING}\n${'='.repeat(SAMPLE_HEADING.length)}\n\nA paragraph with *emphasis*.\n\n- one\n- two\n\n.. code-block:: python\n\n   print("hi")\n`,
  org: `#+TITLE: Notes\n\n* ${SAMPLE_HEADING}\n\nA paragraph with /emphasis/.\n\n- one\n- two\n\n| name  | value |\n|-------+-------|\n| alpha |     1 |\n`,
  tex: `\\documentclass{article}\n\\begin{document}\n\\section{${SAMPLE_HEADING}}\nA paragraph with \\emph{emphasis}.\n\\begin{itemize}\n\\item one\n\\item two\n\\end{itemize}\n\\end{document}\n`,
  ipynb: JSON.stringify(
    {
      cells: [
        { cell_type: 'markdown', metadata: {}, source: [`# ${SAMPLE_HEADING}\n`, '\n', 'A paragraph with *emphasis*.'] },
        { cell_type: 'code', execution_count: 1, metadata: {}, outputs: [{ name: 'stdout', output_type: 'stream', text: ['hi\n'] }], source: ['print("hi")'] },
      ],
      metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' }, language_info: { name: 'python' } },
      nbformat: 4,
      nbformat_minor: 5,
    },
    null,
    1,
  ),
};

/** A minimal EPUB 3 (mimetype stored first, container, package document, navigation, one chapter with a 2×2 table), written by hand. */
export function sampleEpub(): Buffer {
  const chapter = `<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>${SAMPLE_HEADING}</title></head><body><h1>${SAMPLE_HEADING}</h1><p>A paragraph with <em>emphasis</em>.</p><ul><li>one</li><li>two</li></ul><table><tr><td>${SAMPLE_CELLS[0]}</td><td>${SAMPLE_CELLS[1]}</td></tr><tr><td>1</td><td>2</td></tr></table></body></html>`;
  const nav = `<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body><nav epub:type="toc"><ol><li><a href="chapter.xhtml">${SAMPLE_HEADING}</a></li></ol></nav></body></html>`;
  const opf =
    `<?xml version="1.0" encoding="UTF-8"?>\n<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">` +
    `<dc:identifier id="id">urn:uuid:8a1c2f4e-0000-4000-8000-000000000001</dc:identifier><dc:title>${SAMPLE_HEADING}</dc:title><dc:language>en</dc:language>` +
    `<meta property="dcterms:modified">2026-11-01T00:00:00Z</meta></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>` +
    `<item id="chapter" href="chapter.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="chapter"/></spine></package>`;
  return zip([
    { name: 'mimetype', content: 'application/epub+zip', store: true },
    { name: 'META-INF/container.xml', content: `<?xml version="1.0"?>\n<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>` },
    { name: 'OEBPS/content.opf', content: opf },
    { name: 'OEBPS/nav.xhtml', content: nav },
    { name: 'OEBPS/chapter.xhtml', content: chapter },
  ]);
}

/** Formats whose output the markup check reads as text. */
const PLAIN_MARKUP = new Set(['md', 'rst', 'org', 'tex']);
export const MARKUP_TARGETS: ReadonlySet<string> = new Set([...PLAIN_MARKUP, 'ipynb', 'epub']);

/** Checks a markup output: well-formed for its format (a notebook parses, an EPUB has its mimetype first) and holding `marker`. */
export function expectMarkup(path: string, format: string, marker: string): void {
  if (PLAIN_MARKUP.has(format)) {
    const text = readFileSync(path, 'utf8');
    expect(text).toContain(marker);
    if (format === 'tex') expect(text).toMatch(/\\begin\{document\}/);
  } else if (format === 'ipynb') {
    const notebook = JSON.parse(readFileSync(path, 'utf8')) as { nbformat: number; cells: Array<{ source: string | string[] }> };
    expect(notebook.nbformat).toBe(4);
    expect(notebook.cells.map((cell) => (Array.isArray(cell.source) ? cell.source.join('') : cell.source)).join('\n')).toContain(marker);
  } else if (format === 'epub') {
    const entries = zipEntries(path);
    expect(entries[0]).toBe('mimetype');
    expect(zipText(path, 'mimetype')).toBe('application/epub+zip');
    expect(entries.filter((entry) => /\.x?html?$/.test(entry)).map((entry) => zipText(path, entry)).join('\n')).toContain(marker);
  } else {
    throw new Error(`no markup check for ${format}`);
  }
}
