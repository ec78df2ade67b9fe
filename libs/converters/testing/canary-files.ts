import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { readMobi } from './ebook-samples.js';

// Canary files: what a document may name but an engine must never read. Each carries something no sample and no
// engine writes by itself — a word, a colour — so its trace in an output is unmistakable, whatever the format.

export const CANARY_TEXT = 'CANARY7F3A9C';
/** An uncommon purple: the picture's pixels, the style sheet's text and background colour. */
export const CANARY_RGB = [196, 30, 154] as const;
const CANARY_HEX = 'c41e9a';

export const CANARY_FILES = ['canary.png', 'canary.txt', 'canary.css', 'canary.xhtml', 'canary.csv'] as const;
export type CanaryFile = (typeof CANARY_FILES)[number];

/** Writes every canary file into `dir` (a picture, a text, a style sheet, a page, a table). */
export async function writeCanaryFiles(dir: string): Promise<void> {
  writeFileSync(join(dir, 'canary.txt'), `${CANARY_TEXT}\n`);
  writeFileSync(join(dir, 'canary.csv'), `${CANARY_TEXT},1\n`);
  writeFileSync(join(dir, 'canary.xhtml'), `<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head><title>canary</title></head><body><p>${CANARY_TEXT}</p></body></html>\n`);
  writeFileSync(join(dir, 'canary.css'), `body { background-color: #${CANARY_HEX}; } h1, p, td { color: #${CANARY_HEX}; background-color: #${CANARY_HEX}; }\n`);
  const [r, g, b] = CANARY_RGB;
  await sharp({ create: { width: 64, height: 64, channels: 3, background: { r, g, b } } }).png().toFile(join(dir, 'canary.png'));
}

/** What of the canaries an output carries, and whether it carries the document's own text at all. */
export interface CanaryTraces {
  ownText: boolean;
  text: boolean;
  picture: boolean;
  colour: boolean;
}

/** Reads an output as its format's readers would (text, embedded pictures, colours) and looks for the canaries in it. */
export async function canaryTraces(path: string, format: string, ownText: string): Promise<CanaryTraces> {
  const { texts, images } = readOutput(path, format);
  for (const text of texts) images.push(...decodedImages(text));
  const text = texts.join('\n').replace(/\s+/g, ' ');
  const pictures = await Promise.all(images.map(showsCanaryColour));
  return {
    ownText: text.includes(ownText),
    text: text.includes(CANARY_TEXT),
    picture: pictures.some(Boolean),
    colour: new RegExp(`${CANARY_HEX}|\\\\red${CANARY_RGB[0]}\\\\green${CANARY_RGB[1]}\\\\blue${CANARY_RGB[2]}|${CANARY_RGB.join(',\\s*')}`, 'i').test(text),
  };
}

/** The traces found, as words for an assertion message ("" when none). */
export const describeTraces = (traces: CanaryTraces) =>
  [traces.text && 'the canary text', traces.picture && 'the canary picture (or colour, drawn)', traces.colour && 'the canary colour'].filter(Boolean).join(', ');

/** The texts and the raster images of an output: a PDF's text and rendered pages, a package's entries, or the file's bytes. */
function readOutput(path: string, format: string): { texts: string[]; images: Buffer[] } {
  const bytes = readFileSync(path);
  if (format === 'pdf') return { texts: [execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' })], images: pdfImages(path) };
  if (bytes.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) {
    const texts: string[] = [];
    const images: Buffer[] = [];
    const entries = execFileSync('unzip', ['-Z1', path], { encoding: 'utf8' }).split('\n').filter((entry) => entry && !entry.endsWith('/'));
    for (const entry of entries) {
      // unzip reads [ ] * ? in a name as a pattern.
      const content = execFileSync('unzip', ['-p', path, entry.replace(/[[\]*?]/g, '\\$&')], { maxBuffer: 256 * 1024 * 1024 });
      const found = embeddedImages(content);
      if (found.length > 0) images.push(...found);
      else texts.push(content.toString('utf8'));
    }
    return { texts, images };
  }
  const texts = [bytes.toString('utf8')];
  // MOBI and AZW3 keep their text compressed in records: our own reader inflates it.
  if (format === 'mobi' || format === 'azw3') texts.push(readMobi(bytes).text);
  return { texts, images: embeddedImages(bytes) };
}

/** A PDF's pages as drawn (pictures, backgrounds, coloured text) and every image it embeds, drawn or not. */
function pdfImages(path: string): Buffer[] {
  const dir = mkdtempSync(join(tmpdir(), 'fileshift-canary-pdf-'));
  try {
    execFileSync('pdftoppm', ['-r', '30', '-png', path, join(dir, 'page')]);
    execFileSync('pdfimages', ['-png', path, join(dir, 'image')]);
    return readdirSync(dir).map((name) => readFileSync(join(dir, name)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const IMAGE_ENDS: Array<{ start: Buffer; end: (bytes: Buffer, at: number) => number }> = [
  { start: Buffer.from([0x89, 0x50, 0x4e, 0x47]), end: (bytes, at) => after(bytes.indexOf('IEND', at), 8) },
  { start: Buffer.from([0xff, 0xd8, 0xff]), end: (bytes, at) => after(bytes.indexOf(Buffer.from([0xff, 0xd9]), at + 3), 2) },
  { start: Buffer.from('GIF8', 'latin1'), end: (bytes, at) => after(bytes.indexOf(Buffer.from([0x00, 0x3b]), at + 6), 2) },
];
const after = (index: number, length: number) => (index < 0 ? -1 : index + length);

/** PNG, JPEG and GIF images inside some bytes (a MOBI record, an RTF picture, a package entry), by their signatures. */
function embeddedImages(bytes: Buffer): Buffer[] {
  const found: Buffer[] = [];
  for (const { start, end } of IMAGE_ENDS) {
    for (let at = bytes.indexOf(start); at >= 0; at = bytes.indexOf(start, at + 1)) {
      const stop = end(bytes, at);
      if (stop > at) found.push(bytes.subarray(at, stop));
    }
  }
  return found;
}

/** Images written as text: base64 (data: URLs, FB2 binaries, notebook attachments) and hexadecimal (RTF pictures). */
function decodedImages(text: string): Buffer[] {
  const blobs = [
    ...[...text.matchAll(/[A-Za-z0-9+/]{96,}={0,2}/g)].map(([run]) => Buffer.from(run, 'base64')),
    ...[...text.matchAll(/[0-9a-fA-F][0-9a-fA-F\r\n]{190,}/g)].map(([run]) => Buffer.from(run.replace(/\s/g, ''), 'hex')),
  ];
  return blobs.flatMap(embeddedImages);
}

/** Whether a raster image shows the canary colour over a patch (not a stray anti-aliased pixel). */
async function showsCanaryColour(image: Buffer): Promise<boolean> {
  try {
    const { data, info } = await sharp(image, { failOn: 'none' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    let matching = 0;
    for (let i = 0; i + 2 < data.length; i += info.channels) {
      if (CANARY_RGB.every((value, channel) => Math.abs(data[i + channel]! - value) <= 30)) matching++;
    }
    return matching >= 16;
  } catch {
    return false; // not an image sharp decodes (a WMF, a truncated match)
  }
}
