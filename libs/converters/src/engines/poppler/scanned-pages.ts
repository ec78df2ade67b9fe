import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { VISIBLE_CHARACTER } from '../../platform/text-output.check.js';

/** pdftotext ends every page with a form feed. */
const PAGE_END = '\f';

/** Page numbers of a pdftotext output (its first page `firstPage`) with no visible character: scans, or blank. */
export async function textlessPages(textPath: string, firstPage: number): Promise<number[]> {
  const textless: number[] = [];
  let page = firstPage;
  let hasText = false;
  for await (const chunk of createReadStream(textPath, 'utf8')) {
    for (const piece of (chunk as string).split(/(\f)/)) {
      if (piece === PAGE_END) {
        if (!hasText) textless.push(page);
        page++;
        hasText = false;
      } else if (VISIBLE_CHARACTER.test(piece)) hasText = true;
    }
  }
  return textless;
}

/** Appends a pdftotext output to `outputPath`, each page of `replacements` (OCR's text) in place of its own. */
export async function appendWithPages(textPath: string, outputPath: string, firstPage: number, replacements: ReadonlyMap<number, string>): Promise<void> {
  const output = await open(outputPath, 'a');
  try {
    let page = firstPage;
    for await (const chunk of createReadStream(textPath, 'utf8')) {
      for (const piece of (chunk as string).split(/(\f)/)) {
        if (piece === PAGE_END) {
          const replacement = replacements.get(page);
          if (replacement !== undefined) await output.write(replacement.replace(/\f/g, '').trimEnd() + '\n');
          await output.write(PAGE_END);
          page++;
        } else if (!replacements.has(page)) await output.write(piece);
      }
    }
  } finally {
    await output.close();
  }
}
