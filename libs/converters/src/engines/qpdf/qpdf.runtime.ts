import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ConversionError } from '../../platform/conversion-error.js';
import { type ConversionOptions, selectedPages } from '../../platform/conversion-options.js';
import { sampleDirectory, watchDirectory } from '../../platform/directory-size.watcher.js';
import { probeVersions, throwIfEngineMissing } from '../../platform/engine-probe.js';
import { type EngineAvailability, type EngineRuntime, type JoinRequest, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { SandboxedProcessRunner, type SandboxedResult } from '../../platform/sandboxed-process.runner.js';
import { StepDeadline } from '../../platform/step-deadline.js';
import { assertPermitted, type PdfInfo, PdfInfoReader } from '../../shared/pdf/pdf-info.reader.js';
import { pageListText } from '../../shared/pdf/pdf-page-selection.js';
import { QPDF_DESCRIPTOR } from './qpdf.descriptor.js';
import { partName, splitParts } from './split-parts.js';
import { stampPdf } from './stamp-pdf.js';
import { writeStoredZip } from '../../shared/stored-zip.writer.js';

/** qpdf's exit code when it wrote its output but warned (a damaged cross-reference table it recovered from). */
const EXIT_WARNINGS = 3;
/** A file name qpdf's split fills with each part's page range ("part-01-03.pdf"). */
const SPLIT_NAME = /^part-(\d+)(?:-\d+)?\.pdf$/;

/** A qpdf job file (qpdf --job-json-help): what a run does, passwords included, read from the step's own directory. */
type QpdfJob = Record<string, unknown>;

/** What `qpdf --json-key=encrypt` says of a PDF opened with a password. */
interface Encryption {
  encrypted: boolean;
  ownerpasswordmatched: boolean;
  capabilities: Record<string, boolean>;
}

/**
 * PDF operations through qpdf, every run in the sandboxed runner with its arguments in a job file (`--job-json-file`,
 * mode 0600, in a directory of the step's own, removed after): passwords never reach a command line, and no option
 * value can pass for a qpdf switch. Every PDF is read by pdfinfo first (../../shared/pdf/pdf-info.reader.ts): a file
 * that is no PDF, a password-protected one (unless `decrypt` opens it) and one past the page limit fail before qpdf
 * writes anything.
 *
 * - pdf → pdf: `rotate` (of `rotate_pages`), `stamp` (a PDF of the stamp alone, made here, laid over the pages),
 *   `flatten`, `password` (AES-256) and `decrypt`, in one qpdf run. The page tree is always rebuilt (`--pages . 1-z`),
 *   so one that loops fails whatever was asked.
 * - pdf → zip: the parts of `split` (qpdf's `--split-pages`, or a run per range), zipped here.
 * - join: PDFs merged in order (`--empty --pages a.pdf b.pdf --`).
 */
export class QpdfRuntime implements EngineRuntime {
  readonly descriptor = QPDF_DESCRIPTOR;
  private readonly runner: SandboxedProcessRunner;
  private readonly info: PdfInfoReader;
  /** Numbers the job files of concurrent steps apart (each step has its own directory too). */
  private jobs = 0;

  constructor(
    runner = new SandboxedProcessRunner(),
    private readonly qpdf = 'qpdf',
    private readonly pdfinfo = 'pdfinfo',
  ) {
    // The worker's sandbox, with this engine's limits and socket policy.
    this.runner = runner.forEngine(QPDF_DESCRIPTOR);
    this.info = new PdfInfoReader(this.runner, pdfinfo);
  }

  async probe(): Promise<EngineAvailability> {
    const checks = [{ command: this.qpdf, args: ['--version'] }, { command: this.pdfinfo, args: ['-v'] }];
    return probeVersions(this.runner, checks, this.descriptor.debianPackages);
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    if (request.from !== 'pdf' || (request.to !== 'pdf' && request.to !== 'zip')) throw new ConversionError('unsupported_output_format', `This engine does not convert ${request.from} to ${request.to}.`);
    context.signal.throwIfAborted();
    const deadline = new StepDeadline(context.limits.timeoutMs);
    // The job files, a decrypted copy, the stamp and the parts: inside the scratch directory, the one the sandbox sees.
    const work = await mkdtemp(join(context.workDir, 'qpdf-'));
    try {
      const run: Run = { work, context, deadline, notes: [] };
      // Absolute paths: a name starting with "-" or "@" never passes for a switch or an argument file.
      const opened = await this.open(resolve(request.inputPath), request.options.decrypt, run);
      assertPageLimit(opened.info.pages, context.limits.maxPages);
      const outputPath = singleOutput(resolve(request.outputDir), request.to);
      if (request.to === 'zip') await this.split(opened.path, opened.info, request.options, outputPath, run);
      else await this.rewrite(opened.path, opened.info, request.options, outputPath, run);
      context.onProgress?.(100);
      return { files: [outputPath], ...(run.notes.length > 0 ? { notes: run.notes } : {}) };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  async join(request: JoinRequest, context: StepContext): Promise<StepOutcome> {
    if (request.to !== 'pdf') throw new ConversionError('unsupported_output_format', `This engine does not join files into ${request.to}.`);
    context.signal.throwIfAborted();
    const deadline = new StepDeadline(context.limits.timeoutMs);
    const work = await mkdtemp(join(context.workDir, 'qpdf-'));
    try {
      const maxPages = context.limits.maxPages;
      const members = request.members.map((member, index) => ({ ...member, path: resolve(member.path), label: `File ${index + 1} (${member.name})` }));
      let pages = 0;
      for (const [index, member] of members.entries()) {
        if (member.format !== 'pdf') throw new ConversionError('unsupported_or_corrupt_input', `${member.label} is ${member.format}: only PDFs are merged.`);
        const info = await this.info.read(member.path, context, deadline).catch((error: unknown) => {
          throw namingMember(passwordNeeded(error, 'The PDF is password-protected: merge it without its password (the decrypt option of a pdf → pdf conversion removes it).'), member.label);
        });
        try {
          assertPermitted(info, 'rewrite');
        } catch (error) {
          throw namingMember(error, member.label);
        }
        pages += info.pages;
        if (maxPages !== undefined && pages > maxPages) throw new ConversionError('file_too_large', `The merged PDF would have more than ${maxPages} pages; at most ${maxPages} pages are merged.`);
        context.onProgress?.(Math.floor(((index + 1) / members.length) * 50));
      }
      const outputPath = singleOutput(resolve(request.outputDir), 'pdf');
      const job = { empty: '', outputFile: outputPath, pages: members.map((member) => ({ file: member.path })) };
      await this.runJob(job, { work, context, deadline, notes: [] }, outputPath).catch((error: unknown) => {
        // qpdf names the file it could not read ("qpdf: /…/b.pdf (object 3 0): …"): the caller knows it by its name.
        const said = (error instanceof ConversionError && error.diagnostics) || '';
        const culprit = members.find((member) => said.includes(`${member.path} (`) || said.includes(`${member.path}:`));
        throw culprit ? namingMember(error, culprit.label) : error;
      });
      context.onProgress?.(100);
      return { files: [outputPath] };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /**
   * The PDF to work on, read by pdfinfo: the input, or with `decrypt` a copy qpdf decrypted with that password. A
   * PDF whose permissions restrict it is opened only with its owner password: the output would lose them.
   */
  private async open(input: string, password: string | undefined, run: Run): Promise<{ path: string; info: PdfInfo }> {
    const { context, deadline } = run;
    if (password === undefined) {
      const info = await this.info.read(input, context, deadline).catch((error: unknown) => {
        throw passwordNeeded(error, 'The PDF is password-protected: give its password with the decrypt option.');
      });
      assertRewritable(info);
      return { path: input, info };
    }
    const result = await this.runJob({ inputFile: input, password, json: '2', jsonKey: ['encrypt'] }, run);
    const encryption = parseEncryption(result.stdout);
    if (!encryption.encrypted) {
      run.notes.push('The PDF had no password: decrypt was not needed.');
      const info = await this.info.read(input, context, deadline);
      assertRewritable(info);
      return { path: input, info };
    }
    const { printlow, extract, modifyother } = encryption.capabilities;
    if (!(printlow && extract && modifyother) && !encryption.ownerpasswordmatched) {
      throw new ConversionError('security_rejected', "The PDF's permissions restrict printing, copying or changing it, and the password given is not its owner password: a decrypted PDF would lose those restrictions.");
    }
    const opened = join(run.work, 'opened.pdf');
    await this.runJob({ inputFile: input, password, decrypt: '', outputFile: opened }, run, opened);
    return { path: opened, info: await this.info.read(opened, context, deadline) };
  }

  /** pdf → pdf: every operation asked, in one qpdf run. */
  private async rewrite(input: string, info: PdfInfo, options: ConversionOptions, outputPath: string, run: Run): Promise<void> {
    const job: QpdfJob = {
      inputFile: input,
      outputFile: outputPath,
      // Every page, through the page tree: one that loops fails here, even when nothing else walks it (a password).
      pages: [{ file: '.', range: '1-z' }],
    };
    const turned = options.rotate ? pagesOf(options.rotate_pages, info.pages, 'rotate_pages') : [];
    if (options.rotate) job['rotate'] = `+${options.rotate}:${pageListText(turned)}`;
    else if (options.rotate_pages) run.notes.push('rotate_pages was given without rotate: no page was turned.');
    if (options.flatten) Object.assign(job, { generateAppearances: '', flattenAnnotations: 'all' });
    if (options.stamp) job['overlay'] = await this.stampOverlay(input, info, options, new Set(turned), run);
    if (options.password) {
      // Without an owner password, the user's: who knows the password keeps every right over the file (a random one
      // would lock its owner out of changing its security; the same one is what most tools do).
      job['encrypt'] = { userPassword: options.password.user, ownerPassword: options.password.owner ?? options.password.user, '256bit': {} };
    }
    await this.runJob(job, run, outputPath);
  }

  /**
   * The stamp as an overlay: a PDF made here with a page of the stamp for each size of the stamped pages (as a viewer
   * shows them, after rotate), laid over them by qpdf.
   */
  private async stampOverlay(input: string, info: PdfInfo, options: ConversionOptions, turned: ReadonlySet<number>, run: Run) {
    const stamp = options.stamp!;
    const stamped = pagesOf(stamp.pages, info.pages, 'stamp.pages');
    const { pageBoxes } = await this.info.read(input, run.context, run.deadline, { first: stamped[0]!, last: stamped.at(-1)! });
    const quarterTurn = options.rotate === 90 || options.rotate === 270;
    const sizes = stamped.map((page) => {
      const box = pageBoxes.get(page);
      if (!box) throw new ConversionError('unsupported_or_corrupt_input', `The size of page ${page} could not be read (the PDF is damaged).`);
      return quarterTurn && turned.has(page) ? { width: box.height, height: box.width } : box;
    });
    const { pdf, stampPageOf, shrunk } = stampPdf(sizes, stamp);
    if (shrunk) run.notes.push('The stamp was drawn smaller than asked on some pages, to fit them.');
    const file = join(run.work, 'stamp.pdf');
    await writeFile(file, pdf, { mode: 0o600 });
    return { file, to: stamped.join(','), from: stampPageOf.join(',') };
  }

  /** pdf → zip: the parts, written by qpdf into a directory of their own (its size watched), then zipped. */
  private async split(input: string, info: PdfInfo, options: ConversionOptions, outputPath: string, run: Run): Promise<void> {
    const { context, deadline } = run;
    const split = options.split ?? { every: 1 };
    const parts = splitParts(split, info.pages);
    const partsDir = join(run.work, 'parts');
    await mkdir(partsDir);
    const cap = context.limits.maxOutputBytes;
    const controller = new AbortController();
    const forward = () => controller.abort();
    context.signal.addEventListener('abort', forward, { once: true });
    let overflow = false;
    const stop = watchDirectory(partsDir, (sample) => {
      if (sample.bytes > cap) {
        overflow = true;
        controller.abort();
      }
      context.onProgress?.(Math.min(90, Math.floor((sample.names.length / parts.length) * 90)));
    });
    const scoped = { ...run, context: { ...context, signal: controller.signal } };
    let files: string[];
    try {
      if (split.ranges === undefined) {
        // One run for every part: qpdf names each file by its page range, zero-padded ("part-01-02.pdf").
        await this.runJob({ inputFile: input, outputFile: join(partsDir, 'part-%d.pdf'), splitPages: String(split.every ?? 1) }, scoped);
        const written = (await readdir(partsDir)).filter((name) => SPLIT_NAME.test(name));
        files = written.sort((a, b) => Number(SPLIT_NAME.exec(a)![1]) - Number(SPLIT_NAME.exec(b)![1])).map((name) => join(partsDir, name));
      } else {
        files = [];
        for (const [index, [first, last]] of parts.entries()) {
          const file = join(partsDir, partName(index, parts.length));
          // From an empty PDF, as qpdf's own split: the part holds its pages only (no outline, no document info).
          await this.runJob({ empty: '', outputFile: file, pages: [{ file: input, range: `${first}-${last}` }] }, scoped, file);
          files.push(file);
        }
      }
    } catch (error) {
      if (overflow && !context.signal.aborted) throw tooLarge(cap);
      throw error;
    } finally {
      await stop();
      context.signal.removeEventListener('abort', forward);
    }
    if ((await sampleDirectory(partsDir)).bytes > cap) throw tooLarge(cap);
    if (files.length !== parts.length) throw new ConversionError('unknown', `The split wrote ${files.length} parts of the ${parts.length} expected.`);
    deadline.remainingMs();
    await writeStoredZip(files.map((path, index) => ({ path, name: partName(index, files.length) })), outputPath);
    if ((await stat(outputPath)).size > cap) throw tooLarge(cap);
  }

  /**
   * One qpdf run of a job file written for it (mode 0600, removed after). A failure is told in words of its cause: a
   * wrong password, a page tree that loops, a damaged file; qpdf's stderr (which never holds a password) is for the log.
   */
  private async runJob(job: QpdfJob, run: Run, outputPath?: string): Promise<SandboxedResult> {
    const { context, deadline } = run;
    const jobFile = join(run.work, `job-${++this.jobs}.json`);
    await writeFile(jobFile, JSON.stringify(job), { mode: 0o600 });
    let result: SandboxedResult;
    try {
      result = await this.runner.run({
        command: this.qpdf,
        args: [`--job-json-file=${jobFile}`],
        scratchDir: context.workDir,
        timeoutMs: deadline.remainingMs(),
        outputPath,
        maxOutputBytes: context.limits.maxOutputBytes,
        signal: context.signal,
      });
    } finally {
      await rm(jobFile, { force: true });
    }
    throwIfEngineMissing(result, 'PDF');
    if (result.exitCode === 0 || result.exitCode === EXIT_WARNINGS) return result;
    if (outputPath) await rm(outputPath, { force: true });
    throw qpdfFailure(result.stderrTail);
  }
}

/** What a step's qpdf runs share. */
interface Run {
  /** The step's own directory, inside the scratch directory. */
  work: string;
  context: StepContext;
  deadline: StepDeadline;
  /** What the step tells the caller (StepOutcome.notes). */
  notes: string[];
}

/** A failed qpdf run, in words safe to show. */
function qpdfFailure(stderr: string): ConversionError {
  if (/invalid password/i.test(stderr)) return new ConversionError('unsupported_or_corrupt_input', 'The password does not open this PDF.', false, stderr);
  if (/loop detected/i.test(stderr)) return new ConversionError('unsupported_or_corrupt_input', 'The PDF is damaged: its page tree loops back on itself.', false, stderr);
  return new ConversionError('unsupported_or_corrupt_input', 'The input could not be read as a PDF (it is damaged or not a PDF).', false, stderr);
}

/** pdfinfo's refusal of a PDF that needs a password (its only security_rejected), told with what to do here. */
function passwordNeeded(error: unknown, message: string): unknown {
  return error instanceof ConversionError && error.failureType === 'security_rejected' ? new ConversionError('security_rejected', message, false, error.diagnostics) : error;
}

/** A PDF whose owner restricts it is not rewritten: the output would drop the restrictions (as Ghostscript's rewrite). */
function assertRewritable(info: PdfInfo): void {
  try {
    assertPermitted(info, 'rewrite');
  } catch (error) {
    throw new ConversionError('security_rejected', `${(error as Error).message} Give its owner password with the decrypt option to lift them.`);
  }
}

function assertPageLimit(pages: number, maxPages: number | undefined): void {
  if (maxPages !== undefined && pages > maxPages) throw new ConversionError('file_too_large', `The PDF has ${pages} pages; this engine works on at most ${maxPages} pages.`);
}

/** The pages an option names within the document, refused when none exists. */
function pagesOf(pages: string | undefined, pageCount: number, option: string): number[] {
  const selected = selectedPages(pages, pageCount);
  if (selected.length === 0) throw new ConversionError('unsupported_or_corrupt_input', `The PDF has ${pageCount} page${pageCount === 1 ? '' : 's'}: none of the pages ${option} names (${pages}) exists.`);
  return selected;
}

/** Pure: qpdf's JSON (`--json-key=encrypt`). */
function parseEncryption(stdout: string): Encryption {
  try {
    const encrypt = (JSON.parse(stdout) as { encrypt: Encryption }).encrypt;
    return { encrypted: encrypt.encrypted === true, ownerpasswordmatched: encrypt.ownerpasswordmatched === true, capabilities: encrypt.capabilities ?? {} };
  } catch (error) {
    throw new ConversionError('unknown', 'qpdf described the PDF\'s encryption in a way this engine does not read.', false, (error as Error).message);
  }
}

const namingMember = (error: unknown, label: string) =>
  error instanceof ConversionError ? new ConversionError(error.failureType, `${label}: ${error.message}`, error.retryable, error.diagnostics) : error;

const tooLarge = (cap: number) => new ConversionError('file_too_large', `The parts grew past ${cap} bytes.`);
