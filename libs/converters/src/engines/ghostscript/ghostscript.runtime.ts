import { access, open, rm, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ConversionError } from '../../platform/conversion-error.js';
import type { ConversionOptions } from '../../platform/conversion-options.js';
import { GHOSTSCRIPT_DESCRIPTOR } from './ghostscript.descriptor.js';
import { probeVersions, throwIfEngineMissing } from '../../platform/engine-probe.js';
import { type EngineAvailability, type EngineRuntime, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { assertPermitted, PdfInfoReader } from '../../shared/pdf/pdf-info.reader.js';
import { pageListText, pagesWithinLimit } from '../../shared/pdf/pdf-page-selection.js';
import { SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';
import { StepDeadline } from '../../platform/step-deadline.js';

/** Debian's sRGB profile (package libgs-common, a dependency of ghostscript): the PDF/A output intent. */
export const DEBIAN_SRGB_PROFILE = '/usr/share/color/icc/ghostscript/srgb.icc';
const HEADER_WINDOW_BYTES = 1024;

/**
 * Arguments on every run, before anything else: -dSAFER (no file access beyond the input and output,
 * no device or pipe tricks), batch mode, no pause, no prompt; pages keep their orientation.
 */
const FIXED_ARGS = ['-dSAFER', '-dBATCH', '-dNOPAUSE', '-dNOPROMPT', '-sDEVICE=pdfwrite', '-dAutoRotatePages=/None'];
/**
 * A PDF is read by Ghostscript's PostScript-based PDF interpreter, not by 10.00's new one (pdfi): pdfi writes the text
 * map (ToUnicode) of a ligature byte-swapped, so a LibreOffice PDF's "files" extracts as "昀椀les" and search and copy
 * break. The legacy interpreter is deprecated but shipped, under the same -dSAFER and sandbox.
 */
const PDF_INPUT_ARGS = ['-dNEWPDF=false'];

/**
 * The PDF/A prefix of Ghostscript's PDFA_def.ps, written out here: an sRGB ICC stream as the output intent.
 * (Debian's sample file also sets a placeholder document title, which we do not want.)
 */
const pdfaDefinition = (profile: string) =>
  [
    `/ICCProfile (${profile.replace(/[\\()]/g, (c) => `\\${c}`)}) def`,
    '[/_objdef {icc_PDFA} /type /stream /OBJ pdfmark',
    '[{icc_PDFA} << /N 3 >> /PUT pdfmark',
    '[{icc_PDFA} ICCProfile (r) file /PUT pdfmark',
    '[/_objdef {OutputIntent_PDFA} /type /dict /OBJ pdfmark',
    '[{OutputIntent_PDFA} << /Type /OutputIntent /S /GTS_PDFA1 /DestOutputProfile {icc_PDFA} /OutputConditionIdentifier (sRGB) >> /PUT pdfmark',
    '[{Catalog} << /OutputIntents [ {OutputIntent_PDFA} ] >> /PUT pdfmark',
  ].join(' ');

/**
 * PostScript to PDF, and PDFs rewritten (PDF/A, re-compression, a page selection, or simply normalised)
 * through Ghostscript's pdfwrite, always -dSAFER, inside the sandboxed runner; the input never chooses
 * an argument. A PDF input is read by pdfinfo first, as poppler does: a password-protected, damaged or
 * too long PDF fails before Ghostscript runs. The output is read by pdfinfo too.
 */
export class GhostscriptRuntime implements EngineRuntime {
  readonly descriptor = GHOSTSCRIPT_DESCRIPTOR;
  private readonly info: PdfInfoReader;

  private readonly runner: SandboxedProcessRunner;

  constructor(
    runner = new SandboxedProcessRunner(),
    private readonly gs = 'gs',
    private readonly pdfinfo = 'pdfinfo',
    private readonly srgbProfile = DEBIAN_SRGB_PROFILE,
  ) {
    // The worker's sandbox, with this engine's limits and socket policy.
    this.runner = runner.forEngine(GHOSTSCRIPT_DESCRIPTOR);
    this.info = new PdfInfoReader(this.runner, pdfinfo);
  }

  async probe(): Promise<EngineAvailability> {
    // pdfinfo (poppler-utils) reads every PDF before Ghostscript does.
    const checks = [{ command: this.gs, args: ['--version'] }, { command: this.pdfinfo, args: ['-v'] }];
    const availability = await probeVersions(this.runner, checks, this.descriptor.debianPackages);
    if (!availability.available) return availability;
    if (!(await access(this.srgbProfile).then(() => true, () => false))) {
      return { available: false, problem: `the sRGB profile for PDF/A is missing (${this.srgbProfile}): install the Debian package libgs-common` };
    }
    return { available: true, version: `Ghostscript ${availability.version}` };
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    if (request.to !== 'pdf' || !['pdf', 'ps', 'eps'].includes(request.from)) throw new ConversionError('unsupported_output_format', `This engine does not convert ${request.from} to ${request.to}.`);
    context.signal.throwIfAborted();
    const deadline = new StepDeadline(context.limits.timeoutMs);
    // Absolute paths: a name starting with "-" or "@" never passes for an option or an argument file.
    const inputPath = resolve(request.inputPath);
    const outputPath = singleOutput(resolve(request.outputDir), 'pdf');
    const maxPages = context.limits.maxPages;
    const { options } = request;

    let pageArgs: string[] = [];
    let pageCount: number | undefined;
    if (request.from === 'pdf') {
      const info = await this.info.read(inputPath, context, deadline);
      assertPermitted(info, 'rewrite');
      const pages = pagesWithinLimit(options.pages, info.pages, maxPages);
      pageArgs = [...PDF_INPUT_ARGS, ...(options.pages ? [`-sPageList=${pageListText(pages)}`] : [])];
      pageCount = pages.length;
    } else {
      await assertPostScriptHeader(inputPath);
      // A program may print any number of pages: one past the limit tells us it went over.
      if (maxPages !== undefined) pageArgs = [`-dLastPage=${maxPages + 1}`];
      if (request.from === 'eps') pageArgs.push('-dEPSCrop');
    }

    let pagesDone = 0;
    const result = await this.runner.run({
      command: this.gs,
      args: [
        ...FIXED_ARGS,
        ...qualityArgs(options),
        ...(options.pdfa ? pdfaArgs(options.pdfa, this.srgbProfile) : []),
        ...pageArgs,
        // "%" would start a page-number format in Ghostscript's output name.
        `-sOutputFile=${outputPath.replace(/%/g, '%%')}`,
        ...(options.pdfa ? ['-c', pdfaDefinition(this.srgbProfile), '-f'] : []),
        inputPath,
      ],
      scratchDir: context.workDir,
      timeoutMs: deadline.remainingMs(),
      outputPath,
      maxOutputBytes: context.limits.maxOutputBytes,
      signal: context.signal,
      onStdout: (chunk) => {
        // For PDF input Ghostscript prints "Page N" as it starts each page.
        if (!pageCount) return;
        pagesDone += chunk.split('\n').filter((line) => /^Page \d+$/.test(line)).length;
        context.onProgress?.(Math.min(99, Math.floor((Math.max(0, pagesDone - 1) / pageCount) * 100)));
      },
    });
    throwIfEngineMissing(result, 'PDF');
    if (result.exitCode !== 0) {
      await rm(outputPath, { force: true });
      throw new ConversionError('unsupported_or_corrupt_input', `The input could not be converted as ${request.from === 'pdf' ? 'a PDF' : 'PostScript'} (it is damaged or not supported).`, false, result.stderrTail);
    }

    // Ghostscript may exit 0 having written nothing useful (a PDF it could not open): read what it wrote.
    const written = await this.info.read(outputPath, context, deadline).catch(async (error: unknown) => {
      await rm(outputPath, { force: true });
      throw new ConversionError('unsupported_or_corrupt_input', 'The conversion produced no readable PDF (the input is damaged).', false, `${result.stderrTail}\n${(error as Error).message}`);
    });
    if (maxPages !== undefined && written.pages > maxPages) {
      await rm(outputPath, { force: true });
      throw new ConversionError('file_too_large', `The PostScript prints more than ${maxPages} pages; at most ${maxPages} pages are converted.`);
    }
    if ((await stat(outputPath)).size > context.limits.maxOutputBytes) throw new ConversionError('file_too_large', `The output grew past ${context.limits.maxOutputBytes} bytes.`);
    context.onProgress?.(100);
    return { files: [outputPath] };
  }
}

/** pdfwrite's presets for image resolution and compression; none: its own defaults. */
const qualityArgs = ({ compress }: ConversionOptions) => (compress ? [`-dPDFSETTINGS=/${compress}`] : []);

/** PDF/A-1b, -2b or -3b: colours converted to RGB, features PDF/A forbids dropped rather than failing. */
const pdfaArgs = (level: NonNullable<ConversionOptions['pdfa']>, profile: string) => [
  `-dPDFA=${level[0]}`,
  '-dPDFACompatibilityPolicy=1',
  '-sColorConversionStrategy=RGB',
  `--permit-file-read=${profile}`,
];

/** A PostScript program starts with "%!" (a PJL or a Ctrl-D header before it is allowed). */
async function assertPostScriptHeader(path: string): Promise<void> {
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) throw new ConversionError('unsupported_or_corrupt_input', 'The input file could not be opened.');
  try {
    const head = Buffer.alloc(HEADER_WINDOW_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEADER_WINDOW_BYTES, 0);
    if (!head.subarray(0, bytesRead).includes('%!')) throw new ConversionError('unsupported_or_corrupt_input', 'The input is not PostScript (it has no %! header).');
  } finally {
    await handle.close();
  }
}
