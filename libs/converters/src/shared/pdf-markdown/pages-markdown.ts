import type { CappedTextOutput } from '../../platform/capped-text.output.js';
import { DocumentProfiler } from './document-profile.js';
import { PdfMarkdownComposer } from './pdf-markdown.composer.js';
import type { PdfPage } from './pdf-page.js';

/**
 * The Markdown of a document's pages (pdftohtml's, tesseract's or both) into `output`, in two passes over them, a page
 * at a time: the first learns the body size, headings and running headers, the second writes. `pages` gives the
 * pages anew for each pass.
 */
export async function writePagesMarkdown(pages: () => AsyncIterable<PdfPage>, title: string | undefined, output: CappedTextOutput): Promise<void> {
  const profiler = new DocumentProfiler();
  for await (const page of pages()) profiler.add(page);
  const composer = new PdfMarkdownComposer(profiler.profile(), title, (chunk) => output.push(chunk));
  for await (const page of pages()) {
    composer.page(page);
    await output.flush();
  }
  composer.end();
}
