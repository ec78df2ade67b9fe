import { copyFile, mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { ConversionError } from '../../platform/conversion-error.js';
import type { ConversionOptions } from '../../platform/conversion-options.js';
import { probeVersions, throwIfEngineMissing } from '../../platform/engine-probe.js';
import { type EngineAvailability, type EngineRuntime, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { NodeHostPool } from '../../platform/node-host/node-host.pool.js';
import { processLimitsOf } from '../../platform/sandbox/process-limits.js';
import { SandboxedProcessRunner } from '../../platform/sandboxed-process.runner.js';
import { StepDeadline } from '../../platform/step-deadline.js';
import { PdfInfoReader } from '../../shared/pdf/pdf-info.reader.js';
import { countTagLine, removedTags, removedTagsNote, type TagCounts } from './exiftool-tags.js';
import { EXIFTOOL_DESCRIPTOR, EXIFTOOL_OFFICE_PACKAGES, EXIFTOOL_PICTURES } from './exiftool.descriptor.js';
import type { OfficeMetadataTask, OfficePicturesTask } from './exiftool.host-tasks.js';

/** Before anything else on every run: no configuration file is read (one could define tags that run Perl code). */
const NO_CONFIG = ['-config', ''];
/**
 * A picture's metadata removed in place, but what keeps it looking the same: its colour profile (left untouched),
 * a PNG's gamma, sRGB intent and pixel density, and, copied back from the original, the EXIF orientation, colour space
 * (sRGB or Adobe RGB's interoperability index) and resolution. A TIFF's first directory holds its pixels and cannot
 * be deleted: its descriptive tags are (make, model, artist, software, dates, descriptions). Minor errors (a damaged
 * maker note) do not stop the rewrite.
 */
const STRIP_PICTURE = [
  '-m',
  '-overwrite_original',
  '-all=',
  '--ICC_Profile:all',
  '--PNG-pHYs:all',
  '-CommonIFD0=',
  '-IFD0:DocumentName=',
  '-IFD0:PageName=',
  '-IFD0:HostComputer=',
  '-tagsfromfile',
  '@',
  '-Orientation',
  '-ColorSpace',
  '-InteropIndex',
  '-XResolution',
  '-YResolution',
  '-ResolutionUnit',
  '-PNG:Gamma',
  '-PNG:SRGBRendering',
];
/**
 * A PDF's document information and XMP removed, but a PDF/A's identification (pdfaid: without it, it is not one):
 * exiftool then writes an XMP packet of that alone, dropping every other namespace, those it does not know included.
 */
const STRIP_PDF = ['-all=', '--XMP-pdfaid:all'];
/** Each field of `metadata`: the document information entry and its XMP counterpart, as Acrobat pairs them. */
const PDF_FIELDS = {
  title: ['PDF:Title', 'XMP-dc:Title'],
  author: ['PDF:Author', 'XMP-dc:Creator'],
  subject: ['PDF:Subject', 'XMP-dc:Description'],
  keywords: ['PDF:Keywords', 'XMP-pdf:Keywords'],
} as const;
const LISTING_TIMEOUT_MS = 30_000;

const PICTURES = new Set<string>(EXIFTOOL_PICTURES);
const OFFICE = new Set<string>(EXIFTOOL_OFFICE_PACKAGES);

/**
 * Metadata operations through exiftool (Debian libimage-exiftool-perl), inside the sandboxed runner, on a copy of the
 * input. Pictures: their metadata removed in place, pixels untouched. PDFs: read by pdfinfo first (a password or a
 * ban on changes refuses them), exiftool's edit (document information and XMP removed, or title, author, subject and
 * keywords set), then qpdf rewrites the file — exiftool's PDF edits are incremental, the old objects stay behind
 * until a rewrite drops them. Office packages (which exiftool does not write): their metadata parts are rewritten in
 * the Node host (office-metadata.ts), and the pictures inside them go through exiftool as pictures do. What was
 * removed is counted (exiftool lists the tags before and after, by group) and told in the step's notes.
 */
export class ExiftoolRuntime implements EngineRuntime {
  readonly descriptor = EXIFTOOL_DESCRIPTOR;
  private readonly runner: SandboxedProcessRunner;
  private readonly info: PdfInfoReader;

  constructor(
    runner = new SandboxedProcessRunner(),
    private readonly host = new NodeHostPool(),
    private readonly commands = { exiftool: 'exiftool', qpdf: 'qpdf', pdfinfo: 'pdfinfo' },
  ) {
    // The worker's sandbox, with this engine's limits and socket policy.
    this.runner = runner.forEngine(EXIFTOOL_DESCRIPTOR);
    this.info = new PdfInfoReader(this.runner, commands.pdfinfo);
  }

  async probe(): Promise<EngineAvailability> {
    const checks = [
      { command: this.commands.exiftool, args: ['-ver'] },
      { command: this.commands.qpdf, args: ['--version'] },
      { command: this.commands.pdfinfo, args: ['-v'] },
    ];
    const availability = await probeVersions(this.runner, checks, this.descriptor.debianPackages);
    return availability.available ? { available: true, version: `exiftool ${availability.version}` } : availability;
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    const { from, to, options } = request;
    if (from !== to || !(PICTURES.has(from) || OFFICE.has(from) || from === 'pdf')) throw new ConversionError('unsupported_output_format', `This engine does not convert ${from} to ${to}.`);
    context.signal.throwIfAborted();
    const deadline = new StepDeadline(context.limits.timeoutMs);
    // Absolute paths: a name starting with "-" or "@" never passes for an option or an argument file.
    const inputPath = resolve(request.inputPath);
    const outputPath = singleOutput(resolve(request.outputDir), to);
    const tempDir = await mkdtemp(join(resolve(context.workDir), 'exiftool-'));
    try {
      const step = { tempDir, context, deadline };
      let result: { path: string; notes: string[] };
      if (PICTURES.has(from)) result = await this.stripPicture(inputPath, from, step);
      else if (from === 'pdf') result = await this.rewritePdf(inputPath, options, step);
      else result = await this.stripOffice(inputPath, from, step);
      if ((await stat(result.path)).size > context.limits.maxOutputBytes) throw new ConversionError('file_too_large', `The output grew past ${context.limits.maxOutputBytes} bytes.`);
      await rename(result.path, outputPath);
      context.onProgress?.(100);
      return { files: [outputPath], notes: result.notes };
    } finally {
      await rm(tempDir, { recursive: true, force: true });
    }
  }

  /** A copy of the picture, cleaned in place; what went, by kind of tag. */
  private async stripPicture(inputPath: string, format: string, step: Step): Promise<{ path: string; notes: string[] }> {
    const path = join(step.tempDir, `picture.${format}`);
    await copyFile(inputPath, path);
    const result = await this.exiftool([...STRIP_PICTURE, path], step);
    if (result.exitCode !== 0) throw new ConversionError('unsupported_or_corrupt_input', `The ${format} picture's metadata could not be removed (it is damaged or not a ${format} picture).`, false, result.stderrTail);
    const tags = await this.listTags([inputPath, path], step);
    return { path, notes: [removedTagsNote(removedTags(tags.get(inputPath)!, tags.get(path)!))] };
  }

  /**
   * A PDF with its metadata removed and/or its title, author, subject and keywords set (`metadata`), then rewritten
   * by qpdf: only the objects the document still uses are written, so the old document information and XMP are gone
   * from the file, not only superseded. Its encryption, if it opens without a password, is kept.
   */
  private async rewritePdf(inputPath: string, options: ConversionOptions, step: Step): Promise<{ path: string; notes: string[] }> {
    const info = await this.info.read(inputPath, step.context, step.deadline);
    if (!info.permissions.change) throw new ConversionError('security_rejected', "The PDF's permissions do not allow changing it.");
    // Without either option (a plan that proves the pair), the one thing the pair does: remove the metadata.
    const strip = options.strip_metadata === true || !options.metadata;
    const fields = Object.entries(options.metadata ?? {}).filter((entry): entry is [keyof typeof PDF_FIELDS, string] => entry[1] !== undefined);
    // The caller's values reach exiftool only through an argument file, one argument a line (the schema allows no line break).
    const values = fields.flatMap(([field, value]) => PDF_FIELDS[field].map((tag) => `-${tag}=${value}`));
    if (values.some((line) => /[\r\n]/.test(line))) throw new ConversionError('unsupported_or_corrupt_input', 'A metadata value holds a line break.');
    const argumentFile = await writeArgumentFile(step.tempDir, 'metadata', values);

    // exiftool reads an encrypted PDF in pure Perl (AES-256's key derivation: 40 s for one page here): it edits a
    // decrypted copy, and qpdf gives the result the input's encryption back (same passwords and permissions).
    const plain = join(step.tempDir, 'plain.pdf');
    await this.qpdf(['--decrypt', inputPath, plain], plain, step);
    const edited = join(step.tempDir, 'edited.pdf');
    await copyFile(plain, edited);
    const result = await this.exiftool(['-m', '-overwrite_original', ...(strip ? STRIP_PDF : []), '-@', argumentFile, edited], step);
    if (result.exitCode !== 0) throw new ConversionError('unsupported_or_corrupt_input', "The PDF's metadata could not be changed (it is damaged or not supported).", false, result.stderrTail);

    const path = join(step.tempDir, 'rewritten.pdf');
    await this.qpdf([...(info.encrypted ? [`--copy-encryption=${inputPath}`] : []), edited, path], path, step);
    const written = await this.info.read(path, step.context, step.deadline);
    if (written.pages !== info.pages) throw new ConversionError('unsupported_or_corrupt_input', 'The rewritten PDF lost pages (the input is damaged).');

    const notes: string[] = [];
    if (strip) {
      // Both unencrypted: what exiftool read before its edit, and what it left.
      const tags = await this.listTags([plain, edited], step);
      notes.push(removedTagsNote(removedTags(tags.get(plain)!, tags.get(edited)!)));
    }
    if (fields.length > 0) notes.push(`set the ${fields.map(([field]) => field).join(', the ')}`);
    return { path, notes };
  }

  /**
   * An office package cleaned in the Node host (exiftool reads OOXML and ODF but does not write them): the host reads
   * the upload, rewrites its metadata parts and hands out its pictures; exiftool cleans those here as any picture, and
   * the host puts them back.
   */
  private async stripOffice(inputPath: string, format: string, step: Step): Promise<{ path: string; notes: string[] }> {
    const stripped = join(step.tempDir, 'stripped');
    await mkdir(stripped);
    const { files, answer } = await this.host.run<OfficeMetadataTask>({ task: 'office-metadata', request: { format }, inputPaths: [inputPath], outputDir: stripped, ...this.hostLimits(step) });
    const [packagePath, ...originals] = files;
    if (!packagePath || !answer || answer.pictures.length !== originals.length) throw new ConversionError('provider_error', 'The document could not be read.', true);
    const notes = [...answer.notes];
    if (originals.length === 0) return { path: packagePath, notes: notes.length > 0 ? notes : ['found no metadata to remove'] };

    const cleanedDir = join(step.tempDir, 'pictures');
    await mkdir(cleanedDir);
    const cleaned = originals.map((original) => join(cleanedDir, basename(original)));
    for (const [i, original] of originals.entries()) await copyFile(original, cleaned[i]!);
    const result = await this.exiftool([...STRIP_PICTURE, '-@', await writeArgumentFile(step.tempDir, 'pictures', cleaned)], step);
    // A picture exiftool cannot rewrite (damaged, or not what its name says) stays as it was; the counts below say what went.
    if (result.exitCode !== 0 && result.exitCode !== 1) throw new ConversionError('unsupported_or_corrupt_input', "The document's pictures could not be cleaned.", false, result.stderrTail);
    const tags = await this.listTags([...originals, ...cleaned], step);
    const removed = new Map<string, number>();
    let cleanedPictures = 0;
    for (const [i, original] of originals.entries()) {
      const gone = removedTags(tags.get(original) ?? new Map(), tags.get(cleaned[i]!) ?? new Map());
      if (gone.size > 0) cleanedPictures++;
      for (const [kind, count] of gone) removed.set(kind, (removed.get(kind) ?? 0) + count);
    }
    if (removed.size > 0) notes.push(`${removedTagsNote(removed)} from ${cleanedPictures} ${cleanedPictures === 1 ? 'picture' : 'pictures'}`);

    const joined = join(step.tempDir, 'joined');
    await mkdir(joined);
    const { files: [path] } = await this.host.run<OfficePicturesTask>({
      task: 'office-pictures',
      request: { format, pictures: answer.pictures },
      inputPaths: [packagePath, ...cleaned],
      outputDir: joined,
      ...this.hostLimits(step),
    });
    if (!path) throw new ConversionError('provider_error', 'The document could not be written.', true);
    return { path, notes: notes.length > 0 ? notes : ['found no metadata to remove'] };
  }

  /**
   * qpdf writes only the objects the document uses (exiftool's superseded ones are left out). Warnings (a damaged
   * cross-reference table it recovered) still write a good file: exit 0.
   */
  private async qpdf(args: readonly string[], outputPath: string, { context, deadline }: Step): Promise<void> {
    const result = await this.runner.run({
      command: this.commands.qpdf,
      args: ['--warning-exit-0', ...args],
      scratchDir: context.workDir,
      timeoutMs: deadline.remainingMs(),
      outputPath,
      maxOutputBytes: context.limits.maxOutputBytes,
      signal: context.signal,
    });
    throwIfEngineMissing(result, 'PDF');
    if (result.exitCode !== 0) throw new ConversionError('unsupported_or_corrupt_input', 'The PDF could not be rewritten (it is damaged or not supported).', false, result.stderrTail);
  }

  private hostLimits({ context, deadline }: Step) {
    const limits = processLimitsOf(context.limits);
    return { limits: context.limits, timeoutMs: deadline.remainingMs(), cpuSeconds: limits.cpuSeconds, residentBytes: limits.residentBytes, signal: context.signal };
  }

  private async exiftool(args: readonly string[], { context, deadline }: Step) {
    const result = await this.runner.run({ command: this.commands.exiftool, args: [...NO_CONFIG, ...args], scratchDir: context.workDir, timeoutMs: deadline.remainingMs(), signal: context.signal });
    throwIfEngineMissing(result, 'metadata');
    return result;
  }

  /**
   * The tags of each file, counted by group and name (`exiftool -G0:1 -a -s -s`, every duplicate listed), read line by
   * line as exiftool prints them: values are never kept, however long.
   */
  private async listTags(paths: readonly string[], step: Step): Promise<Map<string, TagCounts>> {
    const counts = new Map<string, TagCounts>();
    // One file is listed without a header; several each under "======== <path>".
    let current: TagCounts | undefined;
    if (paths.length === 1) counts.set(paths[0]!, (current = new Map()));
    let pending = '';
    const take = (line: string) => {
      const header = /^======== (.+)$/.exec(line);
      if (header && paths.includes(header[1]!)) counts.set(header[1]!, (current = new Map()));
      else if (current) countTagLine(line, current);
    };
    const listFile = await writeArgumentFile(step.tempDir, 'list', paths);
    const result = await this.runner.run({
      command: this.commands.exiftool,
      args: [...NO_CONFIG, '-m', '-G0:1', '-a', '-s', '-s', '-@', listFile],
      scratchDir: step.context.workDir,
      timeoutMs: step.deadline.remainingMs(LISTING_TIMEOUT_MS),
      signal: step.context.signal,
      onStdout: (chunk) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        lines.forEach(take);
      },
    });
    take(pending);
    throwIfEngineMissing(result, 'metadata');
    if (result.exitCode !== 0 && result.exitCode !== 1) throw new ConversionError('unsupported_or_corrupt_input', 'The metadata could not be read.', false, result.stderrTail);
    for (const path of paths) if (!counts.has(path)) counts.set(path, new Map());
    return counts;
  }
}

interface Step {
  tempDir: string;
  context: StepContext;
  deadline: StepDeadline;
}

/** An exiftool argument file (`-@`): one argument a line, readable by the step's processes only. */
async function writeArgumentFile(dir: string, name: string, lines: readonly string[]): Promise<string> {
  const path = join(dir, `${name}.args`);
  await writeFile(path, lines.map((line) => `${line}\n`).join(''), { mode: 0o600 });
  return path;
}
