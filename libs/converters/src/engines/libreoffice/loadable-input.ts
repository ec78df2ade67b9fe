import { copyFile, open, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withoutFileFields } from './rtf-file-fields.js';

/** An input, its format, and where a cleaned copy goes. */
interface LoadableRequest {
  inputPath: string;
  outputDir: string;
  from: string;
}

/** Where an HTML document's head ends, at the latest: the dates are looked for in this many bytes. */
const HEAD_BYTES = 64 * 1024;
const META_TAG = /<meta\b[^>]*>/gi;
const DOCUMENT_DATE = /\bname\s*=\s*["']?(?:created|changed)\b/i;
/** `http-equiv` but for the charset's `Content-Type`: a refresh, a Content-Security-Policy… */
const HTTP_HEADER = /\bhttp-equiv\s*=\s*["']?(?!content-type\b)[\w-]/i;
/** The head's meta tags that abort LibreOffice (see loadableInput). */
const abortsLibreOffice = (tag: string) => DOCUMENT_DATE.test(tag) || HTTP_HEADER.test(tag);

/**
 * The path the bridge should load. LibreOffice 7.4, driven over UNO, aborts (the whole instance) when an HTML
 * document's `<meta name="created|changed">` is not a date it parses, such as the `00:00:00` its own Calc
 * HTML export writes, and on a `<meta http-equiv>` header such as the Content-Security-Policy of our own PDF → HTML
 * (it opens an info bar, a window it cannot make headless). Those tags are blanked, byte for byte, in a copy beside
 * the output (a word processor has no use for HTTP headers; the charset's Content-Type is kept). An RTF's fields that
 * read a file (INCLUDEPICTURE…) are blanked in a copy too: its reader opens their paths without passing the
 * bridge's file guard (rtf-file-fields.ts). Every other input is loaded as it is. It runs in the Node host
 * (libreoffice.host-tasks.ts): it reads the upload.
 */
export async function loadableInput(request: LoadableRequest): Promise<string> {
  if (request.from === 'rtf') return withoutRtfFileFields(request);
  if (request.from !== 'html') return request.inputPath;
  const head = await readHead(request.inputPath);
  const tags = [...head.matchAll(META_TAG)].filter((tag) => abortsLibreOffice(tag[0]));
  if (tags.length === 0) return request.inputPath;
  const copy = join(request.outputDir, 'input.html');
  await copyFile(request.inputPath, copy);
  const file = await open(copy, 'r+');
  try {
    for (const tag of tags) await file.write(Buffer.alloc(tag[0].length, ' '), 0, tag[0].length, tag.index);
  } finally {
    await file.close();
  }
  return copy;
}

async function withoutRtfFileFields(request: LoadableRequest): Promise<string> {
  const cleaned = withoutFileFields(await readFile(request.inputPath));
  if (!cleaned) return request.inputPath;
  const copy = join(request.outputDir, 'input.rtf');
  await writeFile(copy, cleaned);
  return copy;
}

/** The first bytes as latin1: one character per byte, so a match's index is its byte offset. */
async function readHead(path: string): Promise<string> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.toString('latin1', 0, bytesRead);
  } finally {
    await file.close();
  }
}
