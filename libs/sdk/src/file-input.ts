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
