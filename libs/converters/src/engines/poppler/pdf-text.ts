import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { writeCappedText } from '../../platform/capped-text.output.js';
import { ConversionError } from '../../platform/conversion-error.js';
import type { EngineLimits } from '../../platform/engine-descriptor.js';
import { singleOutput } from '../../platform/engine-runtime.js';
import { writePagesMarkdown } from '../../shared/pdf-markdown/pages-markdown.js';
import type { PdfPage } from '../../shared/pdf-markdown/pdf-page.js';
import { Pdf2XmlError, Pdf2XmlReader } from '../../shared/pdf-markdown/pdf2xml.reader.js';
import { ocrPages } from '../../shared/pdf-markdown/tesseract-layout.js';
import { HTML_DOCUMENT_END, htmlDocumentStart, PdftohtmlSanitizer } from './pdftohtml.sanitizer.js';

/**
 * Pages read by OCR, given to `pdf-text` after the pdftohtml parts: the last `tsvFiles.length` inputs are tesseract
 * TSV files, each numbering its pages from its `first`; such a page stands in for pdftohtml's page of that number.
 * `scale` maps the TSV's pixels onto pdftohtml's units.
 */
export interface OcrPages {
  tsvFiles: Array<{ first: number; scale: number }>;
}

/**
 * In the Node host: what pdftohtml wrote of a PDF (one file per range of pages, in order) rewritten by our own code
 * as the step's output, held to the output cap — Markdown from its XML (headings, paragraphs, lists, tables,
 * reading order), or HTML rebuilt line by line by the sanitizer. The PDF's text is the sender's: our readers of it
 * run here, not in the worker. The output's path.
 */
export async function pdfText(to: 'md' | 'html', inputs: readonly string[], title: string | undefined, outputDir: string, limits: EngineLimits, ocr?: OcrPages): Promise<string> {
  const parts = inputs.slice(0, inputs.length - (ocr?.tsvFiles.length ?? 0));
  const scanned = ocr ? await scannedPages(inputs.slice(parts.length), ocr) : new Map<number, PdfPage>();
  const outputPath = singleOutput(outputDir, to);
  await writeCappedText(outputPath, limits.maxOutputBytes, async (output) => {
    if (to === 'html') {
      output.push(htmlDocumentStart(title));
      const sanitizer = new PdftohtmlSanitizer();
      for (const part of parts) {
        for await (const line of createInterface({ input: createReadStream(part, 'utf8'), crlfDelay: Infinity })) {
          for (const safe of sanitizer.line(line)) output.push(`${safe}\n`);
          if (output.buffered >= 1024) await output.flush();
        }
        sanitizer.nextPart();
      }
      output.push(HTML_DOCUMENT_END);
      return;
    }
    await writePagesMarkdown(() => documentPages(parts, scanned), title, output);
  });
  return outputPath;
}

/** The document's pages in order: pdftohtml's, a scanned page's OCR in place of its own (empty) page; OCR alone for pictures. */
async function* documentPages(parts: readonly string[], scanned: ReadonlyMap<number, PdfPage>): AsyncGenerator<PdfPage> {
  if (parts.length === 0) yield* [...scanned.values()].sort((a, b) => a.number - b.number);
  for (const part of parts) for await (const page of xmlPages(part)) yield scanned.get(page.number) ?? page;
}

/** The pages of tesseract's TSV files, by page number. */
async function scannedPages(tsvFiles: readonly string[], ocr: OcrPages): Promise<Map<number, PdfPage>> {
  const pages = new Map<number, PdfPage>();
  for (const [index, file] of tsvFiles.entries()) {
    const { first, scale } = ocr.tsvFiles[index]!;
    for (const page of ocrPages(await readFile(file, 'utf8'), first, scale)) pages.set(page.number, page);
  }
  return pages;
}

/** The pages of one pdftohtml XML file, read line by line; XML that is not pdftohtml's fails the step. */
async function* xmlPages(path: string): AsyncGenerator<PdfPage> {
  const reader = new Pdf2XmlReader();
  try {
    for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) yield* reader.line(line);
    reader.end();
  } catch (error) {
    if (error instanceof Pdf2XmlError) throw new ConversionError('unsupported_or_corrupt_input', 'The text of the PDF could not be read (pdftohtml wrote XML we do not accept).', false, error.message);
    throw error;
  }
}
