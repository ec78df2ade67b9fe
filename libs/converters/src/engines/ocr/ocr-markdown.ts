import { readFile } from 'node:fs/promises';
import { writeCappedText } from '../../platform/capped-text.output.js';
import type { EngineLimits } from '../../platform/engine-descriptor.js';
import { singleOutput } from '../../platform/engine-runtime.js';
import { writePagesMarkdown } from '../../shared/pdf-markdown/pages-markdown.js';
import { ocrPages } from '../../shared/pdf-markdown/tesseract-layout.js';

/**
 * In the Node host: the Markdown of a picture (every page of a TIFF) from tesseract's TSV, by the reader poppler's
 * Markdown of a PDF goes through, held to the output cap. The words read are the sender's: they are laid out here,
 * not in the worker. The output's path.
 */
export async function ocrMarkdown(tsvPath: string, outputDir: string, limits: EngineLimits): Promise<string> {
  const pages = ocrPages(await readFile(tsvPath, 'utf8'));
  const outputPath = singleOutput(outputDir, 'md');
  await writeCappedText(outputPath, limits.maxOutputBytes, (output) => writePagesMarkdown(() => eachOf(pages), undefined, output));
  return outputPath;
}

async function* eachOf<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}
