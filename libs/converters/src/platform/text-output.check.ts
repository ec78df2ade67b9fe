import { createReadStream } from 'node:fs';
import { ConversionError } from './conversion-error.js';

/** A character a reader sees: not white space, not an invisible format mark (a zero-width space, a soft hyphen). */
export const VISIBLE_CHARACTER = /[^\s\p{Cf}]/u;

/** Targets whose whole worth is their text: an empty one is a failure, not a result. */
const TEXT_TARGETS = new Set(['txt', 'md']);

/**
 * Fails a conversion to text that found none (a scan OCR could not read, blank pages, a picture without words), so the
 * caller is told, and never charged for an empty file.
 */
export async function assertHoldsText(to: string, files: readonly string[]): Promise<void> {
  if (!TEXT_TARGETS.has(to)) return;
  for (const file of files) {
    for await (const chunk of createReadStream(file, 'utf8')) if (VISIBLE_CHARACTER.test(chunk as string)) return;
  }
  throw new ConversionError('unsupported_or_corrupt_input', 'The conversion found no text in the file (blank pages, or a picture or scan without readable words).');
}
