import { writeFile } from 'node:fs/promises';
import { ConversionError } from '../../platform/conversion-error.js';
import type { ConversionOptions } from '../../platform/conversion-options.js';
import type { EngineAvailability, StepContext } from '../../platform/engine-runtime.js';
import { probeVersions, throwIfEngineMissing } from '../../platform/engine-probe.js';
import type { SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';
import type { StepDeadline } from '../../platform/step-deadline.js';
import { OCR_PROFILE } from './ocr-profile.js';
import { languagesOfScript, OCR_LANGUAGES, tesseractLanguages } from './ocr-languages.js';

/** What tesseract writes: plain text, the words with their boxes (for Markdown), or a PDF with the text invisible over the picture. */
export type TesseractOutput = 'txt' | 'tsv' | 'pdf';

/**
 * tesseract 5.3's layout analysis takes lines of Hangul for vertical text or noise and drops half of them or more
 * (its issue 3596), whatever the settings of vertical text; read as one column they are read whole.
 */
const KOREAN_SEGMENTATION = '4';
/**
 * Page segmentation 1: tesseract finds the blocks, columns and lines itself, after detecting the page's orientation
 * (a page scanned sideways or upside down reads as well as an upright one). Korean: 4, one column of text, upright.
 */
export const segmentationOf = (languages: string): '1' | '4' => (languages.split('+').includes('kor') ? KOREAN_SEGMENTATION : '1');
/**
 * One thread per tesseract: its OpenMP threads cost more than they give (OCRmyPDF does the same), and pages in
 * parallel are the worker's concern.
 */
const ONE_THREAD = { OMP_THREAD_LIMIT: '1' };
const OSD_TIMEOUT_MS = 30_000;

/**
 * tesseract 5 inside the engine sandbox, with the OCR engine's limits whichever step asks (the OCR engine, or poppler
 * for a PDF's scanned pages). Arguments are ours; the input is an absolute path.
 */
export class Tesseract {
  private readonly runner: SandboxedProcessRunner;

  constructor(
    runner: SandboxedProcessRunner,
    private readonly command = 'tesseract',
  ) {
    this.runner = runner.forEngine(OCR_PROFILE);
  }

  /** Available when tesseract answers and has the trained data of every language the service offers. */
  async probe(): Promise<EngineAvailability> {
    const availability = await probeVersions(this.runner, [{ command: this.command, args: ['--version'] }], OCR_PROFILE.debianPackages);
    if (!availability.available) return availability;
    const listed = await this.runner.run({ command: this.command, args: ['--list-langs'], timeoutMs: OSD_TIMEOUT_MS, env: ONE_THREAD });
    const installed = new Set(listed.stdout.split('\n').map((line) => line.trim()));
    const missing = [...OCR_LANGUAGES.map((language) => language.tesseract), 'osd'].filter((name) => !installed.has(name));
    if (missing.length > 0) {
      const packages = missing.map((name) => `tesseract-ocr-${name.replace('_', '-')}`).join(' ');
      return { available: false, problem: `tesseract has no trained data for ${missing.join(', ')}: install the Debian packages ${packages}` };
    }
    return availability;
  }

  /**
   * tesseract's `-l` for a conversion: the languages the caller named, else those of the script tesseract finds on a
   * page of the input (`sample` makes its picture), English when it finds none (too little text to tell).
   */
  async languagesFor(options: ConversionOptions, sample: () => Promise<string>, context: StepContext, deadline: StepDeadline): Promise<string> {
    if (options.languages) return tesseractLanguages(options.languages);
    const result = await this.runner.run({
      command: this.command,
      args: [await sample(), '-', '--psm', '0'],
      scratchDir: context.workDir,
      timeoutMs: deadline.remainingMs(OSD_TIMEOUT_MS),
      signal: context.signal,
      env: ONE_THREAD,
    });
    throwIfEngineMissing(result, 'OCR');
    return languagesOfScript(result.stdout);
  }

  /**
   * Reads pictures (one, or a list of pages) into `outputBase`.txt/.tsv/.pdf. Fails `unsupported_or_corrupt_input` when
   * tesseract cannot read them.
   */
  async read(pictures: readonly string[], outputBase: string, languages: string, outputs: readonly TesseractOutput[], context: StepContext, deadline: StepDeadline): Promise<void> {
    let input = pictures[0]!;
    if (pictures.length > 1) {
      // A text file naming one picture a line, beside the output: tesseract reads them as the pages of one document.
      input = `${outputBase}-pages.txt`;
      await writeFile(input, `${pictures.join('\n')}\n`);
    }
    const result = await this.runner.run({
      command: this.command,
      args: [input, outputBase, '-l', languages, '--psm', segmentationOf(languages), ...outputs],
      scratchDir: context.workDir,
      timeoutMs: deadline.remainingMs(),
      signal: context.signal,
      env: ONE_THREAD,
      ...(outputs.includes('pdf') ? { outputPath: `${outputBase}.pdf`, maxOutputBytes: context.limits.maxOutputBytes } : {}),
    });
    throwIfEngineMissing(result, 'OCR');
    if (result.exitCode !== 0) throw new ConversionError('unsupported_or_corrupt_input', 'The picture could not be read by OCR (it is damaged or not a picture).', false, result.stderrTail);
  }
}
