import { createReadStream, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { type JoinedFiles, MAX_JOIN_FILES, type FileInput as SdkFileInput, type SourceUrl } from '@fileshift/sdk';
import { z } from 'zod';
import { FileInputError } from './file-input-error.js';
import type { AllowedRoots } from './local-paths/allowed-roots.js';
import { decodeBase64Strictly } from './strict-base64.js';

export { FileInputError };

/** The largest file the service converts (40 MiB). */
export const MAX_FILE_BYTES = 41_943_040;

/** How a tool receives a file: exactly one of a local path (stdio only, inside the allowed roots), a URL the service fetches, or base64 content. */
export const fileInputShape = {
  path: z.string().min(1).optional().describe('Path of a local file inside the allowed roots (stdio transport only).'),
  url: z
    .string()
    .min(1)
    .max(2048)
    .optional()
    .describe(
      'An http or https URL the Fileshift service fetches the file from itself (public hosts only, up to 40 MB); this server does not download it. ' +
        'Nothing is charged when the service cannot fetch it.',
    ),
  content_base64: z.string().min(1).optional().describe('The file content, base64-encoded.'),
  filename: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe("File name with extension; required with content_base64, optional otherwise (with paths: the result's name, by default the first file's)."),
};

/** The conversion tools' other way in: several local files joined into one result in one job. */
export const joinInputShape = {
  paths: z
    .array(z.string().min(1))
    .min(2)
    .max(MAX_JOIN_FILES)
    .optional()
    .describe(
      `Instead of one file: 2 to ${MAX_JOIN_FILES} local files (each inside the allowed roots, 40 MB together) joined into one result, in order: ` +
        'PDFs merged into a PDF, pictures into a PDF a page each, documents into a PDF, any files into an archive (zip, tar, 7z…). ' +
        "One job fee, the result priced by their total size; filename then names the result (by default the first file's name).",
    ),
};

export interface FileInput {
  path?: string;
  paths?: string[];
  url?: string;
  content_base64?: string;
  filename?: string;
}

/** Where files may come from in one session. */
export interface FileSources {
  /** Null over HTTP: the client is not on this machine, so its paths mean nothing here. */
  localRoots: AllowedRoots | null;
}

/** A file for a conversion: its bytes, or its URL for the service to fetch. */
export interface LoadedFile {
  /**
   * What the SDK sends (several local files as one join). A local file carries its creation time; content has none: the SDK then sends its fixed
   * "unknown" time, never a made-up "now" that would make a retried call another request (the service compares it
   * for idempotency keys). A URL carries the agent's filename only, so the service's name for it otherwise stands.
   */
  input: SdkFileInput | SourceUrl | JoinedFiles;
  /** What messages and the spend plan call it: never a whole URL (a plan is shown to the user for approval). */
  filename: string;
  /** Unknown for a URL until the service has fetched it: the result is then priced at most at the highest tier. Of several files, their total. */
  sizeBytes?: number;
  /** How many files the job joins (absent: one). */
  fileCount?: number;
}

/** What messages call the input: its name, or how many files a join takes and its name. */
export const describeFiles = (file: LoadedFile): string => (file.fileCount ? `${file.fileCount} files joined as ${file.filename}` : file.filename);

const ONE_SOURCE = 'Give the file as exactly one of path (a local file), url (http or https) or content_base64 with filename.';
const ONE_SOURCE_OR_PATHS = 'Give the file as exactly one of path (a local file), url (http or https) or content_base64 with filename, or several local files as paths.';

export async function loadFileInput(input: FileInput, sources: FileSources): Promise<LoadedFile> {
  const source = oneSource(input, true);
  if (source === 'paths') return loadLocalFiles(input.paths!, input.filename, sources);
  if (source === 'path') {
    const { path, info } = await localFile(input.path!, sources);
    const filename = input.filename ?? basename(path);
    return { input: { data: await readFile(path), filename, createdAt: createdAt(info) }, filename, sizeBytes: info.size };
  }
  if (source === 'url') return sourceUrl(input.url!, input.filename);
  if (!input.filename) throw new FileInputError('content_base64 needs a filename (with its extension).');
  const bytes = decodeContent(input.content_base64!);
  if (bytes.length === 0) throw new FileInputError('content_base64 decodes to no bytes.');
  if (bytes.length > MAX_FILE_BYTES) throw new FileInputError(`The file has ${bytes.length} bytes; the service converts files up to ${MAX_FILE_BYTES} bytes.`);
  return { input: { data: bytes, filename: input.filename }, filename: input.filename, sizeBytes: bytes.length };
}

/** What detection reads of a local file: a stream of its first 200 bytes and its size, so no file is too large to detect. */
const DETECTION_HEADER_BYTES = 200;

/**
 * The file as detection needs it. A local path is opened for its first 200 bytes only (the SDK sends
 * no more), so a file of any size can be detected; a URL is passed on for the service to fetch; content is decoded strictly.
 */
export async function loadFileForDetection(input: FileInput, sources: FileSources): Promise<(SdkFileInput & { filename: string }) | SourceUrl> {
  const source = oneSource(input);
  if (source === 'path') {
    const path = await checkedPath(input.path!, sources);
    const info = await stat(path);
    return {
      data: createReadStream(path, { start: 0, end: DETECTION_HEADER_BYTES - 1 }),
      sizeBytes: info.size,
      filename: input.filename ?? basename(path),
      createdAt: createdAt(info),
    };
  }
  if (source === 'url') return sourceUrl(input.url!, input.filename).input;
  if (!input.filename) throw new FileInputError('content_base64 needs a filename (with its extension).');
  return { data: decodeContent(input.content_base64!), filename: input.filename };
}

/**
 * A URL as the service takes it. This server never connects to it: the service fetches it through its outbound guard,
 * which decides what may be reached (one guard, not two that could disagree). Only its form is checked here, so a
 * URL that is not one is refused before a payment is planned or approved.
 */
function sourceUrl(text: string, filename: string | undefined): LoadedFile & { input: SourceUrl } {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url) throw new FileInputError(`url "${text}" is not a URL.`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FileInputError(`url must be an http or https URL; "${url.protocol}" is neither.`);
  return { input: { url: text, ...(filename ? { filename } : {}) }, filename: filename ?? nameInUrl(url) };
}

/** The URL's last path segment, else its host: what messages call a file by URL. */
function nameInUrl(url: URL): string {
  const segment = url.pathname.split('/').at(-1);
  try {
    return segment ? decodeURIComponent(segment) : url.hostname;
  } catch {
    return segment!;
  }
}

/**
 * Several local files for one job, in order: each checked as a single path is (inside the roots, a readable regular
 * file, not empty), all read only once every one has passed, together within the size one job takes.
 */
async function loadLocalFiles(paths: readonly string[], name: string | undefined, sources: FileSources): Promise<LoadedFile> {
  if (paths.length < 2 || paths.length > MAX_JOIN_FILES) throw new FileInputError(`paths takes 2 to ${MAX_JOIN_FILES} files; this call gave ${paths.length}.`);
  const checked = [];
  for (const path of paths) checked.push(await localFile(path, sources));
  const total = checked.reduce((sum, file) => sum + file.info.size, 0);
  if (total > MAX_FILE_BYTES) throw new FileInputError(`The ${paths.length} files have ${total} bytes together; one job takes up to ${MAX_FILE_BYTES} bytes.`);
  const files = await Promise.all(checked.map(async ({ path, info }) => ({ data: await readFile(path), filename: basename(path), createdAt: createdAt(info) })));
  const filename = name ?? files[0]!.filename;
  return { input: { files, filename }, filename, sizeBytes: total, fileCount: files.length };
}

/** A local file a conversion uploads: its real path inside the roots, not empty, within the size the service takes. */
async function localFile(given: string, sources: FileSources): Promise<{ path: string; info: Stats }> {
  const path = await checkedPath(given, sources);
  const info = await stat(path);
  if (info.size > MAX_FILE_BYTES) throw new FileInputError(`${given} has ${info.size} bytes; the service converts files up to ${MAX_FILE_BYTES} bytes.`);
  if (info.size === 0) throw new FileInputError(`${given} is empty.`);
  return { path, info };
}

/** Which one source the call gave; `paths` counts as one where the tool takes it. */
function oneSource(input: FileInput, withPaths: true): 'path' | 'url' | 'content_base64' | 'paths';
function oneSource(input: FileInput): 'path' | 'url' | 'content_base64';
function oneSource(input: FileInput, withPaths = false): 'path' | 'url' | 'content_base64' | 'paths' {
  const given = (withPaths ? (['path', 'url', 'content_base64', 'paths'] as const) : (['path', 'url', 'content_base64'] as const)).filter((key) => input[key]);
  const expected = withPaths ? ONE_SOURCE_OR_PATHS : ONE_SOURCE;
  if (given.length !== 1) throw new FileInputError(given.length === 0 ? expected : `${expected} This call gave ${given.join(' and ')}.`);
  return given[0]!;
}

/** The real path of a readable regular file inside the allowed roots. */
async function checkedPath(path: string, { localRoots }: FileSources): Promise<string> {
  if (!localRoots) throw new FileInputError('Local paths are read only over the stdio transport; send url, or content_base64 and filename, instead.');
  const real = await localRoots.check(path);
  const info = await stat(real).catch(() => null);
  if (!info?.isFile()) throw new FileInputError(`No readable file at ${path}.`);
  return real;
}

function createdAt(info: { birthtime: Date; mtime: Date }): Date {
  return info.birthtime.getTime() > 0 ? info.birthtime : info.mtime;
}

function decodeContent(contentBase64: string): Uint8Array {
  const bytes = decodeBase64Strictly(contentBase64);
  if (!bytes) throw new FileInputError('content_base64 is not valid base64 (A–Z, a–z, 0–9, +, / and = padding); nothing was paid.');
  return bytes;
}
