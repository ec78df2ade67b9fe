import { KeyApiRequestError, KeyApiRequestErrorCode } from './key-api-request.error.js';

/** The key API's detect_file_type body: ext, size_hex, mimetype, filename, first_bytes joined by 0xFE. */
export interface KeyApiDetectBody {
  ext: string;
  sizeBytes: number;
  mimeType: string;
  filename: string;
  header: Uint8Array;
}

const SEPARATOR = 0xfe;
const MAX_HEADER_BYTES = 200;

/** A detect_file_type body that is not five well-formed segments. */
export class KeyApiDetectBodyError extends KeyApiRequestError {
  constructor(message: string) {
    super(KeyApiRequestErrorCode.MalformedDetectBody, message);
  }
}

/**
 * Splits on the first four 0xFE bytes only: the last segment is raw file content and may itself
 * contain 0xFE. The filename may be UTF-8 or Latin-1.
 */
export function parseKeyApiDetectBody(body: Buffer): KeyApiDetectBody {
  const separators: number[] = [];
  for (let index = 0; index < body.length && separators.length < 4; index++) {
    if (body[index] === SEPARATOR) separators.push(index);
  }
  if (separators.length < 4) {
    throw new KeyApiDetectBodyError('Malformed body: expected five segments (ext, size_hex, mimetype, filename, first_bytes) separated by the byte 0xFE.');
  }
  const [a, b, c, d] = separators as [number, number, number, number];
  const ext = ascii(body.subarray(0, a)).trim().replace(/^\./, '').toLowerCase();
  const sizeText = ascii(body.subarray(a + 1, b)).trim();
  const mimeType = ascii(body.subarray(b + 1, c)).trim().toLowerCase();
  const filename = utf8OrLatin1(body.subarray(c + 1, d)).trim();
  const header = new Uint8Array(body.subarray(d + 1));

  if (!/^(0x)?[0-9a-f]{1,13}$/i.test(sizeText)) {
    throw new KeyApiDetectBodyError('Malformed body: size_hex must be hexadecimal digits (optionally prefixed 0x).');
  }
  const sizeBytes = Number.parseInt(sizeText.replace(/^0x/i, ''), 16);
  if (header.length > MAX_HEADER_BYTES) {
    throw new KeyApiDetectBodyError(`Malformed body: first_bytes may hold at most ${MAX_HEADER_BYTES} bytes, got ${header.length}.`);
  }
  if (header.length > sizeBytes) {
    throw new KeyApiDetectBodyError('Malformed body: first_bytes is longer than the file size in size_hex.');
  }
  if (filename.length > 255 || ext.length > 32 || mimeType.length > 255) {
    throw new KeyApiDetectBodyError('Malformed body: ext, mimetype or filename is too long.');
  }
  return { ext, sizeBytes, mimeType, filename, header };
}

function ascii(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('latin1');
}

function utf8OrLatin1(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return Buffer.from(bytes).toString('latin1');
  }
}
