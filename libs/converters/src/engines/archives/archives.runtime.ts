import { chmod, copyFile, link, lstat, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { archiveName, assertFormat, type ListedEntry, ListingCheck, parseEntryLine, parseFormatLine, tooLarge } from './archive-listing.js';
import { ConversionError } from '../../platform/conversion-error.js';
import { ARCHIVE_FORMATS, ARCHIVES_DESCRIPTOR, type ArchiveFormat } from './archives.descriptor.js';
import { sampleTree, watchDirectory } from '../../platform/directory-size.watcher.js';
import { probeVersions, throwIfEngineMissing } from '../../platform/engine-probe.js';
import { type EngineAvailability, type EngineRuntime, type JoinRequest, singleOutput, type StepContext, type StepOutcome, type StepRequest } from '../../platform/engine-runtime.js';
import { SandboxedProcessRunner, type SandboxedResult, type SandboxedRun } from '../../platform/sandboxed-process.runner.js';
import { StepDeadline } from '../../platform/step-deadline.js';

/**
 * Given on every read: bsdtar never prompts for a passphrase (it would ask again and again on a closed stdin).
 * An archive encrypted with this very passphrase simply opens; any other encrypted entry fails as protected.
 */
const PASSPHRASE = 'fileshift-reads-no-encrypted-archives';
/** Nothing from the archive's metadata beyond names, contents and times reaches the disk or the output. */
const NO_METADATA = ['--no-xattrs', '--no-acls', '--no-fflags', '--no-mac-metadata'];

/** bsdtar's writer per target: formats and compressions fixed by us. */
const WRITERS: Record<ArchiveFormat, string[]> = {
  zip: ['--format', 'zip', '--options', 'zip:compression=deflate'],
  '7z': ['--format', '7zip'],
  // Restricted pax: plain ustar headers, pax extended headers only for entries ustar cannot hold (long names, big files).
  tar: ['--format', 'paxr'],
  // No time stamp in the gzip header: the same entries give the same bytes.
  tgz: ['--format', 'paxr', '-z', '--options', 'gzip:!timestamp'],
  tbz2: ['--format', 'paxr', '-j'],
  txz: ['--format', 'paxr', '-J'],
};

const isArchive = (format: string): format is ArchiveFormat => (ARCHIVE_FORMATS as readonly string[]).includes(format);
const PROTECTED = /passphrase|encrypted/i;
/** libarchive's words when an entry holds more data than its header declares (it truncates, and fails). */
const LYING_SIZE = /Too much data|Truncating file/i;
const protectedArchive = (diagnostics: string) =>
  new ConversionError('security_rejected', 'The archive is password-protected (encrypted): remove the password and upload it again.', false, diagnostics);
const lyingHeaders = (diagnostics?: string) =>
  new ConversionError('security_rejected', 'The archive holds more data than its headers declare: it looks like a decompression bomb.', false, diagnostics);

/** A run of ours that a watcher may stop with a refusal of its own (the run then fails with it, not as cancelled). */
interface Refusable {
  signal: AbortSignal;
  refuse(error: ConversionError): void;
  /** The refusal, if any; forgets the step's signal. */
  done(): ConversionError | undefined;
}

function refusable(outer: AbortSignal): Refusable {
  const controller = new AbortController();
  const forward = () => controller.abort();
  outer.addEventListener('abort', forward, { once: true });
  if (outer.aborted) controller.abort();
  let refusal: ConversionError | undefined;
  return {
    signal: controller.signal,
    refuse: (error) => {
      refusal ??= error;
      controller.abort();
    },
    done: () => {
      outer.removeEventListener('abort', forward);
      return refusal;
    },
  };
}

interface Extracted {
  /** Paths relative to the tree, each directory before what it holds, names sorted. */
  paths: string[];
  bytes: number;
}

/**
 * Archives through bsdtar (Debian's libarchive-tools), every run in the sandboxed runner:
 *
 * 1. list (`bsdtar -tvvv --numeric-owner`): entry by entry as the listing streams, links, devices, FIFOs and
 *    sockets, absolute paths, `..` and paths deeper than `maxPathDepth` are refused (`security_rejected`), and so
 *    are more than `maxEntries` entries or more than `maxExpandedBytes` declared (`file_too_large`), or declared
 *    bytes past `maxCompressionRatio` times the archive's size (a bomb, `security_rejected`); libarchive must find
 *    the format claimed (a ".zip" that is an mtree or a cpio is refused);
 * 2. extract into a fresh directory inside the job's scratch directory with bsdtar's safe defaults (no `-P`: no
 *    absolute paths, no `..`, no writing through links), no owners, permissions, ACLs, xattrs or flags, while a
 *    watcher kills the run once the files pass what the listing declared (headers can lie);
 * 3. walk what was written (lstat: regular files and directories only, modes made 0644/0755, 0755 for
 *    executables) and re-pack it in the target format, entries relative, in sorted order, owned by uid 0 without
 *    names. Archives inside the archive are carried as files, never expanded.
 */
export class ArchivesRuntime implements EngineRuntime {
  readonly descriptor = ARCHIVES_DESCRIPTOR;

  private readonly runner: SandboxedProcessRunner;

  constructor(
    runner = new SandboxedProcessRunner(),
    private readonly bsdtar = 'bsdtar',
  ) {
    // The worker's sandbox, with this engine's limits and socket policy.
    this.runner = runner.forEngine(ARCHIVES_DESCRIPTOR);
  }

  probe(): Promise<EngineAvailability> {
    return probeVersions(this.runner, [{ command: this.bsdtar, args: ['--version'] }], this.descriptor.debianPackages);
  }

  async convert(request: StepRequest, context: StepContext): Promise<StepOutcome> {
    const { from, to } = request;
    if (!isArchive(from) || !isArchive(to) || from === to) throw new ConversionError('unsupported_output_format', `This engine does not convert ${from} to ${to}.`);
    context.signal.throwIfAborted();
    const deadline = new StepDeadline(context.limits.timeoutMs);
    // Absolute paths: no name passes for an option ("-x") or an archive to include ("@x").
    const inputPath = resolve(request.inputPath);
    const outputPath = singleOutput(resolve(request.outputDir), to);
    const inputBytes = (await stat(inputPath)).size;

    const listing = await this.list(inputPath, from, inputBytes, context, deadline);
    context.onProgress?.(5);
    return this.packStaged(outputPath, to, context, deadline, 'fileshift-archive-', async (tree) => {
      await this.extract(inputPath, tree, listing.declaredBytes, context, deadline);
      const extracted = await walkExtracted(tree);
      if (extracted.bytes > listing.declaredBytes) throw lyingHeaders();
      context.onProgress?.(50);
      return extracted.paths;
    });
  }

  /**
   * Any files into one archive, as entries named by the caller's names (checked again here, made unique), bytes
   * unchanged: staged under those names in a directory of the step (hard links, copies where an inode comes twice) and
   * packed as a conversion's tree is.
   */
  async join(request: JoinRequest, context: StepContext): Promise<StepOutcome> {
    const to = request.to;
    if (!isArchive(to)) throw new ConversionError('unsupported_output_format', `This engine does not join files into ${to}.`);
    if (request.members.length === 0) throw new ConversionError('unsupported_or_corrupt_input', 'There are no files to put into the archive.');
    const maxEntries = context.limits.maxEntries ?? Number.POSITIVE_INFINITY;
    if (request.members.length > maxEntries) throw new ConversionError('file_too_large', `An archive holds at most ${maxEntries} files here; ${request.members.length} were given.`);
    context.signal.throwIfAborted();
    const deadline = new StepDeadline(context.limits.timeoutMs);
    const outputPath = singleOutput(resolve(request.outputDir), to);
    const names = entryNames(request.members.map((member) => member.name));
    return this.packStaged(outputPath, to, context, deadline, 'fileshift-archive-join-', async (tree) => {
      const staged = new Set<string>();
      for (const [index, member] of request.members.entries()) {
        const source = resolve(member.path);
        const info = await lstat(source);
        if (!info.isFile()) throw new ConversionError('unsupported_or_corrupt_input', `File ${index + 1} (${member.name}) is not a file.`);
        const entry = join(tree, names[index]!);
        // A link is free; the same file twice is copied, so no entry becomes a tar hard link to another.
        const inode = `${info.dev}:${info.ino}`;
        if (staged.has(inode)) await copyFile(source, entry);
        else await link(source, entry).catch(() => copyFile(source, entry));
        staged.add(inode);
        await chmod(entry, 0o644);
      }
      context.onProgress?.(10);
      return names;
    });
  }

  /**
   * Packs the entries `stage` puts into a fresh tree (it answers their paths in it, in order) as `to` at
   * `outputPath`, in a directory of the step's own that goes in every outcome; a failure leaves no output.
   */
  private async packStaged(outputPath: string, to: ArchiveFormat, context: StepContext, deadline: StepDeadline, prefix: string, stage: (tree: string) => Promise<readonly string[]>): Promise<StepOutcome> {
    const scratch = await mkdtemp(join(resolve(context.workDir), prefix));
    try {
      const tree = join(scratch, 'entries');
      await mkdir(tree);
      const paths = await stage(tree);
      const list = join(scratch, 'entries.list');
      // "./" first: a name such as "-C" or "@x" stays a name; -s takes the "./" off again in the archive.
      await writeFile(list, paths.map((path) => `./${path}\0`).join(''));
      await this.pack(tree, list, outputPath, to, context, deadline);
    } catch (error) {
      await rm(outputPath, { force: true });
      throw error;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
    context.onProgress?.(100);
    return { files: [outputPath] };
  }

  /** Step 1: the listing, checked entry by entry as bsdtar prints it; stopped at the first refusal. */
  private async list(inputPath: string, from: ArchiveFormat, inputBytes: number, context: StepContext, deadline: StepDeadline): Promise<ListingCheck> {
    const check = new ListingCheck(context.limits, inputBytes);
    const run = refusable(context.signal);
    let pending = '';
    let format: ReturnType<typeof parseFormatLine>;
    let unreadable = false;
    const onLine = (line: string) => {
      if (line === '') return;
      const entry: ListedEntry | undefined = parseEntryLine(line);
      if (entry) {
        const refusal = check.add(entry);
        if (refusal) run.refuse(refusal);
      } else if ((format = parseFormatLine(line)) === undefined) {
        // Anything we cannot read is not trusted.
        unreadable = true;
      }
    };
    const result = await this.run(
      {
        command: this.bsdtar,
        args: ['-t', '-v', '-v', '-v', '--numeric-owner', '--passphrase', PASSPHRASE, '-f', inputPath],
        scratchDir: context.workDir,
        timeoutMs: deadline.remainingMs(),
        onStdout: (chunk) => {
          const lines = (pending + chunk).split('\n');
          pending = lines.pop() ?? '';
          for (const line of lines) onLine(line);
        },
      },
      run,
    );
    onLine(pending);
    throwIfEngineMissing(result, 'archive');
    if (result.exitCode !== 0) {
      if (PROTECTED.test(result.stderrTail)) throw protectedArchive(result.stderrTail);
      throw new ConversionError('unsupported_or_corrupt_input', `The input could not be read as a ${archiveName(from)} (it is damaged or not supported).`, false, result.stderrTail);
    }
    if (unreadable) throw new ConversionError('unsupported_or_corrupt_input', `The ${archiveName(from)}'s listing could not be read.`, false, result.stderrTail);
    assertFormat(from, format);
    return check;
  }

  /** Step 2: extraction into `tree`, killed once the files pass the bytes the listing declared. */
  private async extract(inputPath: string, tree: string, declaredBytes: number, context: StepContext, deadline: StepDeadline): Promise<void> {
    const run = refusable(context.signal);
    const maxExpanded = context.limits.maxExpandedBytes ?? Number.POSITIVE_INFINITY;
    let reported = 5;
    const stop = watchDirectory(
      tree,
      (sample) => {
        if (sample.bytes > declaredBytes) run.refuse(sample.bytes > maxExpanded ? tooLarge(maxExpanded) : lyingHeaders());
        const percent = declaredBytes > 0 ? 5 + Math.floor((Math.min(sample.bytes, declaredBytes) / declaredBytes) * 44) : 5;
        if (percent > reported) context.onProgress?.((reported = percent));
      },
      100,
      sampleTree,
    );
    let result: SandboxedResult;
    try {
      result = await this.run(
        {
          command: this.bsdtar,
          args: ['-x', '-f', inputPath, '-C', tree, '--no-same-owner', '--no-same-permissions', ...NO_METADATA, '--passphrase', PASSPHRASE],
          scratchDir: context.workDir,
          timeoutMs: deadline.remainingMs(),
        },
        run,
      );
    } finally {
      await stop();
    }
    throwIfEngineMissing(result, 'archive');
    if (result.exitCode !== 0) {
      if (LYING_SIZE.test(result.stderrTail)) throw lyingHeaders(result.stderrTail);
      if (PROTECTED.test(result.stderrTail)) throw protectedArchive(result.stderrTail);
      throw new ConversionError('unsupported_or_corrupt_input', 'The archive could not be extracted (it is damaged or not supported).', false, result.stderrTail);
    }
  }

  /** Step 3: the extracted files as the target archive, from our sorted list of relative paths. */
  private async pack(tree: string, list: string, outputPath: string, to: ArchiveFormat, context: StepContext, deadline: StepDeadline): Promise<void> {
    const result = await this.runner.run({
      command: this.bsdtar,
      args: [
        '-c', '-f', outputPath, ...WRITERS[to],
        '--no-recursion', '--null', '-T', list, '-C', tree, '-s', ',^\\./,,',
        '--uid', '0', '--gid', '0', '--uname', '', '--gname', '', ...NO_METADATA,
      ],
      scratchDir: context.workDir,
      timeoutMs: deadline.remainingMs(),
      outputPath,
      maxOutputBytes: context.limits.maxOutputBytes,
      signal: context.signal,
    });
    throwIfEngineMissing(result, 'archive');
    // Entries the target cannot hold (a name that is not valid UTF-8 in a 7z, say) are the input's.
    if (result.exitCode !== 0) throw new ConversionError('unsupported_or_corrupt_input', `The archive's files could not be written as a ${archiveName(to)}.`, false, result.stderrTail);
  }

  /** A runner run whose refusal (set by a watcher) wins over the "cancelled" the abort makes. */
  private async run(run: Omit<SandboxedRun, 'signal'>, refusable: Refusable): Promise<SandboxedResult> {
    let result: SandboxedResult;
    try {
      result = await this.runner.run({ ...run, signal: refusable.signal });
    } catch (error) {
      throw refusable.done() ?? error;
    }
    const refusal = refusable.done();
    if (refusal) throw refusal;
    return result;
  }
}

/**
 * What extraction wrote, checked without following anything: regular files and directories only (bsdtar's
 * defaults and our listing already keep links out; this holds even if they did not). Modes are normalised so
 * the tree can be read, re-packed and removed whatever the archive said.
 */
async function walkExtracted(tree: string): Promise<Extracted> {
  const paths: string[] = [];
  let bytes = 0;
  const visit = async (relative: string): Promise<void> => {
    const names = (await readdir(join(tree, relative))).sort();
    for (const name of names) {
      const path = relative ? `${relative}/${name}` : name;
      const absolute = join(tree, path);
      const info = await lstat(absolute);
      if (info.isDirectory()) {
        await chmod(absolute, 0o755);
        paths.push(path);
        await visit(path);
      } else if (info.isFile()) {
        await chmod(absolute, info.mode & 0o111 ? 0o755 : 0o644);
        paths.push(path);
        bytes += info.size;
      } else {
        throw new ConversionError('security_rejected', 'The archive made something other than a regular file or a directory: only those are carried across.');
      }
    }
  };
  await visit('');
  return { paths, bytes };
}

/**
 * The entry names of a join's members: each a plain file name (the caller checked them; refused here again if not),
 * equal names (ignoring case: Windows and macOS would extract one over the other) made unique as "name (2).ext".
 */
function entryNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name, index) => {
    // No separator (nor Windows's), no NUL, no option-like or hidden name; "." and ".." are hidden names.
    // eslint-disable-next-line no-control-regex -- NUL is what is refused
    if (name === '' || /[/\\\u0000]/.test(name) || name.startsWith('-') || name.startsWith('.')) {
      throw new ConversionError('security_rejected', `File ${index + 1}'s name is not a plain file name; an archive's entries are named by plain file names only.`);
    }
    const dot = name.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let unique = name;
    for (let n = 2; taken.has(unique.toLowerCase()); n++) unique = `${stem} (${n})${extension}`;
    taken.add(unique.toLowerCase());
    return unique;
  });
}
