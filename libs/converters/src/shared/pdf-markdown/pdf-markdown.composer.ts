import { BlockBuilder } from './block-builder.js';
import { type DocumentProfile, DocumentProfiler } from './document-profile.js';
import { MarkdownWriter } from './markdown-writer.js';
import { linesOf, pageRows } from './page-lines.js';
import type { PdfPage } from './pdf-page.js';
import { readingOrder } from './reading-order.js';
import { runningKey } from './running-lines.js';
import { readPdf2Xml } from './pdf2xml.reader.js';

/**
 * Pure and streaming: the Markdown of a PDF's pages, fed one page at a time after a first pass has made the
 * document's profile. Running headers and footers are dropped, each page is read in column order, and the
 * blocks found are written as they close. The PDF's title becomes the first heading when the text has none.
 */
export class PdfMarkdownComposer {
  private readonly writer: MarkdownWriter;
  private readonly builder: BlockBuilder;

  constructor(
    private readonly profile: DocumentProfile,
    title: string | undefined,
    write: (chunk: string) => void,
  ) {
    this.writer = new MarkdownWriter(write);
    const sizeLevels = Math.max(0, ...profile.headingLevels.values());
    const cleanTitle = title?.replace(/\s+/g, ' ').trim();
    const withTitle = sizeLevels === 0 && !!cleanTitle;
    if (withTitle) this.writer.block({ kind: 'heading', level: 1, spans: [{ text: cleanTitle!, bold: false, italic: false }] });
    this.builder = new BlockBuilder(profile, sizeLevels + (withTitle ? 1 : 0) + 1, (block) => this.writer.block(block));
  }

  page(page: PdfPage): void {
    const body = pageRows(page).filter((row) => !this.profile.isRunning(runningKey(row, page.height)));
    for (const flow of readingOrder(body.flat())) this.builder.flow(linesOf(page.number, flow));
  }

  end(): void {
    this.builder.end();
    this.writer.end();
  }
}

/** Pure: the profile of a document from all its pages. */
export function profileOf(pages: Iterable<PdfPage>): DocumentProfile {
  const profiler = new DocumentProfiler();
  for (const page of pages) profiler.add(page);
  return profiler.profile();
}

/** Pure: the Markdown of whole pdftohtml XML documents held in memory (one per pdftohtml run). */
export function pdf2XmlToMarkdown(xmlParts: readonly string[], title?: string): string {
  const pages = xmlParts.flatMap((xml) => readPdf2Xml(xml));
  const chunks: string[] = [];
  const composer = new PdfMarkdownComposer(profileOf(pages), title, (chunk) => chunks.push(chunk));
  for (const page of pages) composer.page(page);
  composer.end();
  return chunks.join('');
}
