import { LIBREOFFICE_DESCRIPTOR } from '../src/engines/libreoffice/libreoffice.descriptor.js';
import { LibreOfficeInstance } from '../src/engines/libreoffice/libreoffice-instance.js';
import { defaultEngineSandbox } from '../src/platform/sandbox/engine-sandbox.js';
import { engineProfile } from '../src/platform/sandboxed-process.runner.js';

/** The binary Office formats and the one each is exported from, with LibreOffice's export filter. */
const LEGACY_EXPORTS = {
  doc: { family: 'text', filter: 'MS Word 97' },
  xls: { family: 'sheet', filter: 'MS Excel 97' },
  ppt: { family: 'slide', filter: 'MS PowerPoint 97' },
  pptx: { family: 'slide', filter: 'Impress MS PowerPoint 2007 XML' },
  // Not legacy, but LibreOffice's own: a PDF with its embedded, subset fonts and ligatures, for the PDF engines.
  pdf: { family: 'text', filter: 'writer_pdf_Export' },
} as const;

export type LegacyFormat = keyof typeof LEGACY_EXPORTS;

/**
 * Writes doc, xls, ppt (and pptx, and LibreOffice's own PDF) samples, which nothing on a Debian machine but LibreOffice writes and nobody
 * writes by hand: one LibreOffice instance of its own, apart from any pool under test, exporting each
 * `from` file with a filter the descriptor does not offer. Resolves once the instance is gone.
 */
export async function writeLegacyOfficeSamples(workRoot: string, exports: ReadonlyArray<{ from: string; to: LegacyFormat; output: string }>): Promise<void> {
  const instance = new LibreOfficeInstance({
    soffice: '/usr/lib/libreoffice/program/soffice',
    python: '/usr/bin/python3',
    sandbox: await defaultEngineSandbox(),
    ...engineProfile(LIBREOFFICE_DESCRIPTOR),
    root: workRoot,
    startTimeoutMs: 60_000,
  });
  await instance.start();
  try {
    for (const { from, to, output } of exports) {
      const guard = { timeoutMs: 60_000, cpuSeconds: 120, residentBytes: 2 * 1024 ** 3, signal: new AbortController().signal, maxOutputBytes: 1e8 };
      const reply = await instance.convert({ inputPath: from, outputPath: output, ...LEGACY_EXPORTS[to] }, guard);
      if (!reply.ok) throw new Error(`could not write the ${to} sample: ${reply.kind} ${reply.error}`);
    }
  } finally {
    await instance.stop();
  }
}
