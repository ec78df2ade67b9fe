import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { screenEbookInput } from '../../engines/calibre/ebook-input.screen.js';
import type { EngineLimits } from '../engine-descriptor.js';
import { loadableInput } from '../../engines/libreoffice/loadable-input.js';
import type { PreparingEngine } from './node-host.protocol.js';

/**
 * In the Node host: an input checked for an engine, and the cleaned copy it should read instead (in `outputDir`),
 * if any — none: the input as it is. LibreOffice gets HTML without the dates that abort it and RTF without the
 * fields that read files (loadable-input.ts); calibre gets books screened and DOCX without local links
 * (ebook-input.screen.ts). A refusal is thrown with its failure type.
 */
export async function preparedInput(engine: PreparingEngine, from: string, inputPath: string, outputDir: string, limits: EngineLimits): Promise<string[]> {
  if (engine === 'libreoffice') {
    const loadable = await loadableInput({ inputPath, outputDir, from });
    return loadable === inputPath ? [] : [loadable];
  }
  const cleaned = await screenEbookInput(inputPath, from, (await stat(inputPath)).size, limits);
  if (!cleaned) return [];
  const copy = join(outputDir, `input.${from}`);
  await writeFile(copy, cleaned);
  return [copy];
}
