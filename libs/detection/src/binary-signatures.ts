import { ascii, indexOfText, startsWith, startsWithText, uint16le } from './bytes.js';
import { ebmlClue, isoBmffClue, mobiClue, oggClue, ole2Clue, riffClue, zipClue } from './container-clues.js';
import type { ContentGuess } from './content-guess.js';
import { inflatedStart } from './inflated-start.js';

type Probe = (header: Uint8Array) => ContentGuess | undefined;

const magic = (format: string, bytes: readonly number[] | string, confidence = 0.98, offset = 0, minSize?: number): Probe => (header) => {
  const matches = typeof bytes === 'string' ? startsWithText(header, bytes, offset) : startsWith(header, bytes, offset);
  return matches ? { format, confidence, reason: `magic number of ${format}`, minSize } : undefined;
};

/**
 * Magic numbers and container headers, most specific first. Checked in order; the first that
 * matches wins. All fit in the first 200 bytes.
 */
const PROBES: readonly Probe[] = [
  magic('png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0.99, 0, 67),
  magic('jpg', [0xff, 0xd8, 0xff], 0.98, 0, 107),
  magic('gif', 'GIF87a', 0.99, 0, 26),
  magic('gif', 'GIF89a', 0.99, 0, 26),
  (h) => (startsWithText(h, 'RIFF') ? riffClue(h) : undefined),
  magic('bmp', 'BM', 0.6),
  (h) => (startsWith(h, [0x49, 0x49, 0x2a, 0x00]) || startsWith(h, [0x4d, 0x4d, 0x00, 0x2a])
    ? { format: 'tiff', confidence: 0.95, reason: 'TIFF byte-order mark', family: ['tiff', 'dng', 'nef', 'cr2'], minSize: 8 }
    : undefined),
  magic('cr2', [0x49, 0x49, 0x2a, 0x00, 0x10, 0x00, 0x00, 0x00, 0x43, 0x52], 0.97),
  magic('ico', [0x00, 0x00, 0x01, 0x00], 0.75),
  magic('icns', 'icns', 0.97),
  magic('psd', '8BPS', 0.98),
  magic('jp2', [0x00, 0x00, 0x00, 0x0c, 0x6a, 0x50, 0x20, 0x20], 0.98),
  magic('jp2', [0xff, 0x4f, 0xff, 0x51], 0.95),
  magic('jxl', [0xff, 0x0a], 0.9),
  magic('jxl', [0x00, 0x00, 0x00, 0x0c, 0x4a, 0x58, 0x4c, 0x20], 0.98),
  magic('xcf', 'gimp xcf', 0.98),
  magic('exr', [0x76, 0x2f, 0x31, 0x01], 0.97),
  magic('hdr', '#?RADIANCE', 0.97),
  magic('hdr', '#?RGBE', 0.97),
  magic('dds', 'DDS ', 0.97),
  magic('qoi', 'qoif', 0.97),
  magic('pcx', [0x0a, 0x05, 0x01], 0.7),
  (h) => (looksLikeSgi(h) ? { format: 'sgi', confidence: 0.9, reason: 'SGI image header (magic 474, storage, depth, dimensions)' } : undefined),
  magic('emf', ' EMF', 0.95, 40),
  magic('wmf', [0xd7, 0xcd, 0xc6, 0x9a], 0.95),
  (h) => (startsWithText(h, 'P1') || startsWithText(h, 'P4') ? whitespaceAfter(h, 'pbm') : undefined),
  (h) => (startsWithText(h, 'P2') || startsWithText(h, 'P5') ? whitespaceAfter(h, 'pgm') : undefined),
  (h) => (startsWithText(h, 'P3') || startsWithText(h, 'P6') ? whitespaceAfter(h, 'ppm') : undefined),
  magic('pdf', '%PDF-', 0.99, 0, 64),
  (h) => (startsWithText(h, '%!') ? postScriptClue(h) : undefined),
  (h) => (startsWithText(h, PJL_UNIVERSAL_EXIT) ? pjlClue(h) : undefined),
  magic('eps', [0xc5, 0xd0, 0xd3, 0xc6], 0.97),
  magic('djvu', 'AT&TFORM', 0.97),
  (h) => (startsWith(h, [0x50, 0x4b, 0x03, 0x04]) ? zipClue(h) : undefined),
  magic('zip', [0x50, 0x4b, 0x05, 0x06], 0.8),
  (h) => (startsWith(h, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) ? ole2Clue() : undefined),
  magic('rar', 'Rar!\x1a\x07', 0.99),
  magic('7z', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], 0.99),
  // A compressed file may hold a tar archive (tgz, tbz2, txz): the name picks within the family; the bytes
  // alone say only gz, bz2 or xz, unless gzip kept the original name of a .tar file.
  (h) => (startsWith(h, [0x1f, 0x8b, 0x08]) ? gzipClue(h) : undefined),
  // Unlike gzip's, a bzip2 or xz stream cannot be opened from its first 200 bytes: a tar inside is a tie the name breaks.
  (h) => (startsWithText(h, 'BZh') ? { format: 'bz2', confidence: 0.85, reason: 'magic number of bz2', family: ['bz2', 'tbz2'] } : undefined),
  (h) => (startsWith(h, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]) ? { format: 'xz', confidence: 0.85, reason: 'magic number of xz', family: ['xz', 'txz'] } : undefined),
  magic('zst', [0x28, 0xb5, 0x2f, 0xfd], 0.97),
  magic('lz4', [0x04, 0x22, 0x4d, 0x18], 0.97),
  magic('cab', 'MSCF', 0.97),
  (h) => (startsWithText(h, '!<arch>\n') ? { format: indexOfText(h, 'debian-binary') !== -1 ? 'deb' : 'ar', confidence: 0.95, reason: 'ar archive' } : undefined),
  magic('rpm', [0xed, 0xab, 0xee, 0xdb], 0.98),
  magic('cpio', '070701', 0.9),
  magic('cpio', '070707', 0.9),
  (h) => (h.length >= 262 && startsWithText(h, 'ustar', 257) ? { format: 'tar', confidence: 0.95, reason: 'ustar header' } : undefined),
  magic('sqlite', 'SQLite format 3\0', 0.99),
  magic('mo', [0xde, 0x12, 0x04, 0x95], 0.97),
  magic('mo', [0x95, 0x04, 0x12, 0xde], 0.97),
  magic('parquet', 'PAR1', 0.95),
  magic('avro', 'Obj\x01', 0.95),
  magic('pcap', [0xd4, 0xc3, 0xb2, 0xa1], 0.95),
  magic('pcap', [0xa1, 0xb2, 0xc3, 0xd4], 0.95),
  magic('pcap', [0x0a, 0x0d, 0x0d, 0x0a], 0.9),
  magic('wasm', [0x00, 0x61, 0x73, 0x6d], 0.98),
  magic('plist', 'bplist00', 0.98),
  (h) => (h.length >= 132 && startsWithText(h, 'DICM', 128) ? { format: 'dicom', confidence: 0.98, reason: 'DICM preamble' } : undefined),
  magic('ttf', [0x00, 0x01, 0x00, 0x00, 0x00], 0.85),
  magic('ttf', 'true', 0.7),
  magic('otf', 'OTTO', 0.97),
  magic('woff', 'wOFF', 0.99),
  magic('woff2', 'wOF2', 0.99),
  magic('ttc', 'ttcf', 0.98),
  magic('pfb', [0x80, 0x01], 0.6),
  magic('elf', [0x7f, 0x45, 0x4c, 0x46], 0.98),
  magic('exe', 'MZ', 0.85),
  magic('macho', [0xcf, 0xfa, 0xed, 0xfe], 0.97),
  magic('macho', [0xce, 0xfa, 0xed, 0xfe], 0.97),
  magic('macho', [0xfe, 0xed, 0xfa, 0xcf], 0.97),
  (h) => (startsWith(h, [0xca, 0xfe, 0xba, 0xbe]) ? { format: (h[7] ?? 0) >= 45 ? 'class' : 'macho', confidence: 0.9, reason: 'CAFEBABE header' } : undefined),
  magic('swf', 'FWS', 0.9),
  magic('swf', 'CWS', 0.9),
  magic('swf', 'ZWS', 0.9),
  magic('flv', 'FLV\x01', 0.98),
  (h) => isoBmffClue(h),
  (h) => (startsWith(h, [0x1a, 0x45, 0xdf, 0xa3]) ? ebmlClue(h) : undefined),
  (h) => (startsWithText(h, 'OggS') ? oggClue(h) : undefined),
  (h) => (startsWith(h, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11]) ? { format: 'wmv', confidence: 0.8, reason: 'ASF header object', family: ['wmv', 'wma'] } : undefined),
  magic('mpeg', [0x00, 0x00, 0x01, 0xba], 0.95),
  magic('mpeg', [0x00, 0x00, 0x01, 0xb3], 0.9),
  (h) => (h[0] === 0x47 && (h.length < 189 || h[188] === 0x47) && h.length >= 4 && (h[1]! & 0x80) === 0 ? { format: 'm2ts', confidence: h.length >= 189 ? 0.9 : 0.5, reason: 'MPEG-TS sync bytes' } : undefined),
  // Blu-ray's M2TS: 192-byte packets, a 4-byte timestamp before each sync byte.
  (h) => (h.length >= 197 && h[4] === 0x47 && h[196] === 0x47 && (h[5]! & 0x80) === 0 ? { format: 'm2ts', confidence: 0.9, reason: 'MPEG-TS sync bytes in 192-byte packets' } : undefined),
  magic('h264', [0x00, 0x00, 0x00, 0x01, 0x67], 0.85),
  magic('flac', 'fLaC', 0.99, 0, 42),
  (h) => (startsWithText(h, 'ID3') ? id3Clue(h) : undefined),
  (h) => (startsWithText(h, 'FORM') && /AIF[FC]/.test(ascii(h, 8, 12)) ? { format: 'aiff', confidence: 0.98, reason: 'IFF form AIFF' } : undefined),
  magic('mid', 'MThd', 0.98),
  magic('amr', '#!AMR', 0.98),
  magic('ape', 'MAC ', 0.95),
  magic('au', '.snd', 0.95),
  magic('caf', 'caff', 0.97),
  magic('wv', 'wvpk', 0.97),
  magic('ac3', [0x0b, 0x77], 0.7),
  (h) => (startsWith(h, [0xff]) && h.length > 1 && (h[1]! & 0xf6) === 0xf0 ? { format: 'aac', confidence: 0.85, reason: 'ADTS frame sync', minSize: 7 } : undefined),
  (h) => (startsWith(h, [0xff]) && h.length > 1 && (h[1]! & 0xe0) === 0xe0 ? { format: 'mp3', confidence: 0.8, reason: 'MPEG audio frame sync', minSize: 32 } : undefined),
  (h) => (startsWithText(h, 'BOOKMOBI', 60) ? mobiClue(h) : undefined),
  magic('lit', 'ITOLITLS', 0.97),
  magic('blend', 'BLENDER', 0.98),
  magic('glb', 'glTF', 0.98),
  magic('fbx', 'Kaydara FBX Binary', 0.98),
  (h) => (startsWithText(h, 'ply\n') || startsWithText(h, 'ply\r\n') ? { format: 'ply', confidence: 0.95, reason: 'PLY header' } : undefined),
  (h) => (looksLikeTar(h) ? { format: 'tar', confidence: 0.85, reason: 'tar header fields (mode, size, checksum)', minSize: 512 } : undefined),
  (h) => (looksLikeTga(h) ? { format: 'tga', confidence: 0.45, reason: 'TGA header fields' } : undefined),
  // An ISO 9660 (or UDF) image opens with 32 KiB of zeros, its system area; so may any blank-started image, hence the low confidence.
  (h) => (h.length >= 64 && h.every((byte) => byte === 0) ? { format: 'iso', confidence: 0.4, reason: `${h.length} zero bytes, as a disc image's system area opens`, minSize: 36_864 } : undefined),
];

/** The binary format the magic numbers show, if any. */
export function binarySignature(header: Uint8Array): ContentGuess | undefined {
  for (const probe of PROBES) {
    const guess = probe(header);
    if (guess) return guess;
  }
  return undefined;
}

function whitespaceAfter(header: Uint8Array, format: string): ContentGuess | undefined {
  const next = header[2];
  return next === 0x0a || next === 0x0d || next === 0x20 || next === 0x09 || next === 0x23
    ? { format, confidence: 0.9, reason: 'Netpbm header' }
    : undefined;
}

const GZIP_FEXTRA = 0x04;
const GZIP_FNAME = 0x08;

/**
 * A gzip member (RFC 1952). `gzip file.tar` keeps the original name in the header (FNAME): a name ending in
 * .tar shows a tgz. Without it (tar -z, a pipe) the bytes cannot tell a tgz from any gzipped file.
 */
function gzipClue(header: Uint8Array): ContentGuess {
  const flags = header[3] ?? 0;
  if (flags & GZIP_FNAME) {
    const start = 10 + (flags & GZIP_FEXTRA ? 2 + uint16le(header, 10) : 0);
    const end = header.indexOf(0, start);
    if (end > start && /\.tar$/i.test(ascii(header, start, end))) {
      return { format: 'tgz', confidence: 0.95, reason: 'gzip header naming the original file *.tar', family: ['tgz', 'gz'], minSize: 18 };
    }
  }
  if (looksLikeTar(inflatedStart(header.subarray(gzipPayloadStart(header, flags))))) {
    return { format: 'tgz', confidence: 0.93, reason: 'gzip stream opening with a tar header', family: ['tgz', 'gz'], minSize: 18 };
  }
  return { format: 'gz', confidence: 0.97, reason: 'magic number of gz', family: ['gz', 'tgz'], minSize: 18 };
}

const GZIP_FHCRC = 0x02;
const GZIP_FCOMMENT = 0x10;

/** Where a gzip member's deflate stream starts: after the fixed header and the optional fields its flags name. */
function gzipPayloadStart(header: Uint8Array, flags: number): number {
  let at = 10;
  if (flags & GZIP_FEXTRA) at += 2 + uint16le(header, 10);
  for (const field of [GZIP_FNAME, GZIP_FCOMMENT]) {
    if (!(flags & field)) continue;
    const end = header.indexOf(0, at);
    at = end === -1 ? header.length : end + 1;
  }
  return Math.min(header.length, at + (flags & GZIP_FHCRC ? 2 : 0));
}

/** An ID3 tag precedes MP3 audio (and rarely AAC or FLAC); skip it to look at the frame if it fits. */
function id3Clue(header: Uint8Array): ContentGuess {
  const size = ((header[6]! & 0x7f) << 21) | ((header[7]! & 0x7f) << 14) | ((header[8]! & 0x7f) << 7) | (header[9]! & 0x7f);
  const after = 10 + size;
  if (after + 4 <= header.length && startsWithText(header, 'fLaC', after)) return { format: 'flac', confidence: 0.95, reason: 'ID3 tag then FLAC' };
  return { format: 'mp3', confidence: 0.95, reason: 'ID3 tag', family: ['mp3', 'aac'] };
}


const isOctalField = (header: Uint8Array, start: number, length: number) => {
  let digits = 0;
  for (let i = start; i < start + length; i++) {
    const byte = header[i];
    if (byte === undefined) return false;
    if (byte >= 0x30 && byte <= 0x37) digits++;
    else if (byte !== 0x20 && byte !== 0x00) return false;
  }
  return digits > 0;
};

/** The "ustar" magic sits at byte 257, past the 200 we see: read the octal header fields instead. */
function looksLikeTar(header: Uint8Array): boolean {
  return header.length >= 157 && header[0] !== 0 && isOctalField(header, 100, 8) && isOctalField(header, 124, 12) && isOctalField(header, 136, 12) && isOctalField(header, 148, 8);
}

/** TGA has no magic number; its header fields are constrained enough to tell it from text. */
function looksLikeTga(header: Uint8Array): boolean {
  if (header.length < 18) return false;
  const [idLength, colorMapType, imageType] = [header[0]!, header[1]!, header[2]!];
  const depth = header[16]!;
  return idLength < 64 && (colorMapType === 0 || colorMapType === 1) && [1, 2, 3, 9, 10, 11].includes(imageType) && [8, 15, 16, 24, 32].includes(depth);
}

/** The first line of a PostScript file: `%!PS-Adobe-3.0 EPSF-3.0` for EPS, `%!PS-AdobeFont` / `%!FontType1` for a Type 1 font, `%!` alone for old drivers' PostScript. */
function postScriptClue(header: Uint8Array): ContentGuess | undefined {
  const firstLine = ascii(header, 0, 80).split(/[\r\n]/, 1)[0]!;
  if (/^%!(PS-AdobeFont|FontType1)/.test(firstLine)) return { format: 'pfb', confidence: 0.97, reason: 'Type 1 font header' };
  if (/^%!PS/.test(firstLine)) return { format: firstLine.includes('EPSF') ? 'eps' : 'ps', confidence: 0.95, reason: 'PostScript header' };
  if (/^%!\s*$/.test(firstLine)) return { format: 'ps', confidence: 0.8, reason: 'PostScript "%!" header' };
  return undefined;
}

const PJL_UNIVERSAL_EXIT = '\x1b%-12345X';

/** A printer job (PJL) wrapping PostScript, as print-to-file drivers write it; a PCL job is not ours to name. */
function pjlClue(header: Uint8Array): ContentGuess | undefined {
  const text = ascii(header, 0, header.length);
  return text.includes('%!PS') || /LANGUAGE\s*=\s*POSTSCRIPT/i.test(text) ? { format: 'ps', confidence: 0.9, reason: 'PJL job header with PostScript' } : undefined;
}

const SGI_MAGIC = 474;

/** SGI images: magic 474, then storage (0 verbatim, 1 RLE), bytes per channel (1, 2) and dimension (1–3). */
function looksLikeSgi(header: Uint8Array): boolean {
  if (header.length < 12 || ((header[0]! << 8) | header[1]!) !== SGI_MAGIC) return false;
  const dimension = (header[4]! << 8) | header[5]!;
  return header[2]! <= 1 && (header[3] === 1 || header[3] === 2) && dimension >= 1 && dimension <= 3;
}
