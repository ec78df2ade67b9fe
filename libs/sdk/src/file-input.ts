/** A file as the SDK accepts it anywhere (browser or Node): a Blob/File, bytes, or a stream of bytes. */
export type FileData = Blob | ArrayBuffer | ArrayBufferView | ReadableStream<Uint8Array>;

/** A file with the facts detection uses; `File` carries its own name, other data needs `filename`. */
export interface FileInput {
  data: FileData;
  filename?: string;
  createdAt?: Date;
}

export interface PreparedFile {
  blob: Blob;
  filename: string;
  createdAt: Date;
  sizeBytes: number;
}

export const HEADER_BYTES = 200;

/** Sent when the creation time is unknown: a fixed value, so a retried request is the same request. */
const UNKNOWN_CREATION_TIME = new Date(0);

/** A Blob for any accepted data (a stream is read to its end: its size is needed). */
export async function prepareFile(input: FileInput | File): Promise<PreparedFile> {
  const { data, filename, createdAt } = isFile(input) ? { data: input, filename: input.name, createdAt: new Date(input.lastModified) } : input;
  const blob = await toBlob(data);
  const name = filename ?? (isFile(data) ? data.name : undefined);
  if (!name) throw new TypeError('A filename is needed for data that is not a File (the extension helps detection).');
  if (blob.size === 0) throw new TypeError('The file is empty.');
  return { blob, filename: name, createdAt: createdAt ?? (isFile(data) ? new Date(data.lastModified) : UNKNOWN_CREATION_TIME), sizeBytes: blob.size };
}

export async function headOf(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.slice(0, HEADER_BYTES).arrayBuffer());
}

/** Base64 without Node's Buffer, for browsers too. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

async function toBlob(data: FileData): Promise<Blob> {
  if (data instanceof Blob) return data;
  if (data instanceof ArrayBuffer) return new Blob([data]);
  if (ArrayBuffer.isView(data)) return new Blob([new Uint8Array(data.buffer, data.byteOffset, data.byteLength) as Uint8Array<ArrayBuffer>]);
  return new Response(data).blob();
}

function isFile(value: unknown): value is File {
  return typeof File !== 'undefined' && value instanceof File;
}
