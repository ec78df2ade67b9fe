/** A file's bytes as the SDK accepts them anywhere (browser or Node): a Blob/File, bytes, or a stream (web or Node). */
export type FileData = Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** A file with the facts detection uses; `File` carries its own name, other data needs `filename`. */
export interface FileInput {
  data: FileData;
  filename?: string;
  createdAt?: Date;
  /**
   * The file's size in bytes. Worth giving with a stream: detection then reads only the first 200
   * bytes and cancels the stream, instead of reading it to its end to count it. Must be the real size.
   */
  sizeBytes?: number;
}

/**
 * A file the service fetches itself, instead of an upload: an http(s) URL it can reach from the internet (its outbound
 * guard refuses private addresses; docs/source-urls.md). The price is the same; the fetch happens after the payment is
 * verified and before it is settled, so a URL that cannot be fetched costs nothing.
 */
export interface SourceUrl {
  url: string;
  /** A name for the file (a detection hint, and the result's name); by default the service's: Content-Disposition, else the URL's path. */
  filename?: string;
}

export function isSourceUrl(input: unknown): input is SourceUrl {
  return typeof input === 'object' && input !== null && typeof (input as SourceUrl).url === 'string' && !('data' in input);
}

/** The most files one job joins (the service's limit; 40 MiB together, as one upload). */
export const MAX_JOIN_FILES = 50;

/**
 * Several files joined into one result in one job, in order: PDFs merged into a PDF, pictures into a PDF a page
 * each, documents into a PDF (each converted, then merged), any files into an archive (zip, tar, 7z…). Priced as one
 * job by the files' total size.
 */
export interface JoinedFiles {
  /** 2 to MAX_JOIN_FILES files; each one's own name names it (an archive's entry, a refused member). */
  files: ReadonlyArray<FileInput | File>;
  /** The job's name, which the result takes with the target's extension; by default the first file's. */
  filename?: string;
}

export function isJoinedFiles(input: unknown): input is JoinedFiles {
  return typeof input === 'object' && input !== null && Array.isArray((input as JoinedFiles).files);
}

/** A whole file, read into a Blob (an upload needs all of it, and a retry sends it again). */
export interface PreparedFile {
  blob: Blob;
  filename: string;
  createdAt: Date;
  sizeBytes: number;
}

/** Sent when the creation time is unknown: a fixed value, so a retried request is the same request. */
const UNKNOWN_CREATION_TIME = new Date(0);

/** The input's data and facts, a File's own name and time filled in. */
export function describeInput(input: FileInput | File): Required<Omit<FileInput, 'sizeBytes'>> & Pick<FileInput, 'sizeBytes'> {
  const { data, filename, createdAt, sizeBytes } = isFile(input) ? { data: input, filename: input.name, createdAt: new Date(input.lastModified), sizeBytes: undefined } : input;
  const name = filename ?? (isFile(data) ? data.name : undefined);
  if (!name) throw new TypeError('A filename is needed for data that is not a File (the extension helps detection).');
  return { data, filename: name, createdAt: createdAt ?? (isFile(data) ? new Date(data.lastModified) : UNKNOWN_CREATION_TIME), sizeBytes };
}

/** The whole file as a Blob (a stream is read to its end). */
export async function prepareFile(input: FileInput | File): Promise<PreparedFile> {
  const { data, filename, createdAt, sizeBytes } = describeInput(input);
  const blob = await toBlob(data);
  checkDeclaredSize(sizeBytes, blob.size);
  if (blob.size === 0) throw new TypeError('The file is empty.');
  return { blob, filename, createdAt, sizeBytes: blob.size };
}

/** Every file of a join read whole, in order, and the job's name; a count the service would refuse is refused here, before anything is signed. */
export async function prepareJoinedFiles({ files, filename }: JoinedFiles): Promise<{ files: PreparedFile[]; filename: string; sizeBytes: number }> {
  if (files.length < 2 || files.length > MAX_JOIN_FILES) throw new TypeError(`A join takes 2 to ${MAX_JOIN_FILES} files; ${files.length} were given.`);
  const prepared = await Promise.all(files.map((file) => prepareFile(file)));
  return { files: prepared, filename: filename ?? prepared[0]!.filename, sizeBytes: prepared.reduce((total, file) => total + file.sizeBytes, 0) };
}

/** A declared size that is not the data's real size would be sent as a lie: refuse it. */
export function checkDeclaredSize(declared: number | undefined, actual: number): void {
  if (declared !== undefined && declared !== actual) throw new TypeError(`sizeBytes is ${declared} but the data has ${actual} bytes.`);
}

export function isStream(data: FileData): data is ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> {
  return !(data instanceof Blob) && !(data instanceof ArrayBuffer) && !ArrayBuffer.isView(data);
}

export function bytesOf(data: ArrayBuffer | ArrayBufferView): Uint8Array<ArrayBuffer> {
  return (data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength)) as Uint8Array<ArrayBuffer>;
}

async function toBlob(data: FileData): Promise<Blob> {
  if (data instanceof Blob) return data;
  if (!isStream(data)) return new Blob([bytesOf(data)]);
  if ('getReader' in data) return new Response(data).blob();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for await (const chunk of data) chunks.push(chunk as Uint8Array<ArrayBuffer>);
  return new Blob(chunks);
}

function isFile(value: unknown): value is File {
  return typeof File !== 'undefined' && value instanceof File;
}
