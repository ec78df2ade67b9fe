import { ascii, indexOfText, startsWithText, uint32be } from './bytes.js';
import type { ContentGuess } from './content-guess.js';
import { zipFirstEntry } from './zip-first-entry.js';

const OPC_PACKAGES = ['docx', 'xlsx', 'pptx', 'ppsx', 'xlsm', 'vsdx', 'xps'] as const;
/** Kinds whose macro-enabled or slide-show variant (second in the family) shows only in the main part's content type. */
const VARIANTS: Record<string, { family: readonly string[]; shows: RegExp }> = {
  xlsx: { family: ['xlsx', 'xlsm'], shows: /sheet\.macroEnabled/i },
  pptx: { family: ['pptx', 'ppsx'], shows: /slideshow/i },
};
const ODF_BY_MEDIA_TYPE: Record<string, string> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.text-template': 'ott',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/vnd.oasis.opendocument.graphics': 'odg',
  'application/epub+zip': 'epub',
};
const ODF_MEDIA_TYPES = Object.entries(ODF_BY_MEDIA_TYPE).sort(([a], [b]) => b.length - a.length);
const ZIP_BASED = ['zip', 'jar', 'apk', 'cbz', 'docx', 'xlsx', 'pptx', 'epub', 'odt', 'ods', 'odp', 'pages', 'numbers', 'key', 'xps'] as const;

const ODF_DOCUMENTS = ['odt', 'ods', 'odp', 'odg'] as const;
const EPUB_CONTAINER_NAMESPACE = 'urn:oasis:names:tc:opendocument:xmlns:container';

/**
 * A ZIP file shows its first entry's name in the first local file header, and the start of its
 * content: together they name the container. Where they cannot (an Office Open XML package whose
 * first part is `[Content_Types].xml` or `_rels/.rels` is the same for a document, a workbook and a
 * presentation), the guess says so with a family and a modest confidence, and the name decides.
 */
export function zipClue(header: Uint8Array): ContentGuess {
  const entry = zipFirstEntry(header);
  const { name } = entry;
  if (name === 'mimetype') {
    const content = entry.text();
    // Longest media type first: "...text-template" must not be read as "...text".
    const match = ODF_MEDIA_TYPES.find(([mediaType]) => content.startsWith(mediaType));
    if (match) return { format: match[1], confidence: 0.97, reason: `zip entry "mimetype" holds ${match[0]}`, minSize: 200 };
    return { format: 'zip', confidence: 0.7, reason: 'zip with an unknown "mimetype" entry', family: ZIP_BASED };
  }
  if (name.startsWith('word/')) return { format: 'docx', confidence: 0.97, reason: 'first zip entry is under word/', minSize: 200 };
  // A macro-enabled workbook and a slide show differ from their kind only in a content type further in.
  if (name.startsWith('xl/')) return { format: 'xlsx', confidence: 0.85, reason: 'first zip entry is under xl/', family: VARIANTS.xlsx!.family, minSize: 200 };
  if (name.startsWith('ppt/')) return { format: 'pptx', confidence: 0.85, reason: 'first zip entry is under ppt/', family: VARIANTS.pptx!.family, minSize: 200 };
  if (name.startsWith('visio/')) return { format: 'vsdx', confidence: 0.95, reason: 'first zip entry is under visio/', minSize: 200 };
  if (name === '[Content_Types].xml' || name.startsWith('_rels/') || name.startsWith('docProps/') || name.startsWith('customXml/')) {
    const kind = packageKind(entry.text());
    const reason = `first zip entry ${name} names the package's main part`;
    if (kind && VARIANTS[kind]) return { format: kind, confidence: 0.85, reason, family: VARIANTS[kind].family, minSize: 200 };
    if (kind) return { format: kind, confidence: 0.9, reason, minSize: 200 };
    return { format: 'docx', confidence: 0.5, reason: `first zip entry ${name} marks an Office Open XML or XPS package; which kind lies further in`, family: OPC_PACKAGES, minSize: 200 };
  }
  if (name === 'META-INF/container.xml' && entry.text().includes(EPUB_CONTAINER_NAMESPACE)) {
    return { format: 'epub', confidence: 0.9, reason: 'first zip entry is an EPUB META-INF/container.xml (no leading "mimetype" entry)', minSize: 200 };
  }
  if (name === 'META-INF/manifest.xml' && entry.text().includes('opendocument:xmlns:manifest')) return odfManifestClue(entry.text());
  if (/^(OEBPS|OPS)\//.test(name) || /\.opf$/.test(name)) return { format: 'epub', confidence: 0.8, reason: `first zip entry ${name} is an EPUB publication part`, minSize: 200 };
  if (name === 'AndroidManifest.xml' || name === 'classes.dex' || name.startsWith('res/')) {
    return { format: 'apk', confidence: 0.85, reason: `zip entry ${name} marks an Android package`, family: ['apk', 'jar', 'zip'] };
  }
  if (name.startsWith('META-INF/')) return { format: 'jar', confidence: 0.8, reason: 'first zip entry is under META-INF/', family: ['jar', 'apk', 'zip'] };
  if (name === 'FixedDocSeq.fdseq' || name.startsWith('Documents/')) return { format: 'xps', confidence: 0.85, reason: 'XPS document parts' };
  if (name === 'index.xml' || name.startsWith('Index/') || name.startsWith('Data/')) {
    return { format: 'zip', confidence: 0.6, reason: 'Apple iWork package entries', family: ['pages', 'numbers', 'key', 'zip'] };
  }
  if (/\.(jpe?g|png|gif|webp)$/i.test(name)) return { format: 'cbz', confidence: 0.75, reason: 'zip of images (comic book archive)', family: ['cbz', 'zip'] };
  return { format: 'zip', confidence: 0.9, reason: 'zip local file header', family: ZIP_BASED, minSize: 22 };
}

/**
 * What the content types or relationships of an OPC package name first: its main part's kind. The package
 * relationship to the main part may be cut off by the 200 bytes right after its target's first letter
 * (`officeDocument" Target="x`, as LibreOffice writes `_rels/.rels`); that letter names the part's folder.
 */
const mainPartTarget = (initial: string) => `officeDocument"\\s+Target="\\/?${initial}`;
const PACKAGE_KIND_MARKERS: ReadonlyArray<readonly [RegExp, string]> = [
  [new RegExp(`presentationml|"\\/?ppt\\/|${mainPartTarget('p')}`), 'pptx'],
  [new RegExp(`spreadsheetml|ms-excel|"\\/?xl\\/|${mainPartTarget('x')}`), 'xlsx'],
  [new RegExp(`wordprocessingml|ms-word|"\\/?word\\/|${mainPartTarget('w')}`), 'docx'],
  [new RegExp(`visio|${mainPartTarget('v')}`, 'i'), 'vsdx'],
  [/xps|fdseq|FixedDocumentSequence/i, 'xps'],
];
function packageKind(text: string): string | undefined {
  let earliest: { at: number; kind: string } | undefined;
  for (const [marker, kind] of PACKAGE_KIND_MARKERS) {
    const at = text.search(marker);
    if (at !== -1 && (!earliest || at < earliest.at)) earliest = { at, kind };
  }
  if (!earliest) return undefined;
  const variants = VARIANTS[earliest.kind];
  return variants?.shows.test(text) ? variants.family[1] : earliest.kind;
}

/** An OpenDocument package written without its leading `mimetype` entry names its type in the manifest's root entry. */
function odfManifestClue(manifest: string): ContentGuess {
  const match = ODF_MEDIA_TYPES.find(([mediaType]) => manifest.includes(`"${mediaType}"`));
  if (match) return { format: match[1], confidence: 0.9, reason: `META-INF/manifest.xml names ${match[0]}`, minSize: 200 };
  return { format: 'odt', confidence: 0.5, reason: 'first zip entry is an OpenDocument manifest; its media type lies further in', family: ODF_DOCUMENTS, minSize: 200 };
}

const OLE2_FAMILY = ['doc', 'xls', 'ppt', 'msg', 'msi'] as const;

/** OLE2 compound files (doc, xls, ppt, msg, msi) share one header; the directory lies beyond 200 bytes. */
export function ole2Clue(): ContentGuess {
  return { format: 'doc', confidence: 0.55, reason: 'OLE2 compound file header', family: OLE2_FAMILY, minSize: 512 };
}

/** ISO base media files name their brand in the `ftyp` box. */
export function isoBmffClue(header: Uint8Array): ContentGuess | undefined {
  if (!startsWithText(header, 'ftyp', 4)) return undefined;
  const brand = ascii(header, 8, 12);
  const compatible = ascii(header, 16, Math.min(header.length, 64));
  const guess = (format: string, confidence: number, family?: readonly string[]): ContentGuess => ({
    format,
    confidence,
    reason: `ISO-BMFF ftyp major brand "${brand.trim()}"`,
    family,
    minSize: 64,
  });
  if (/^(heic|heix|heim|heis|hevc|hevx|mif1|msf1)$/.test(brand)) return guess(compatible.includes('avif') ? 'avif' : 'heic', 0.95);
  if (brand === 'avif' || brand === 'avis') return guess('avif', 0.98);
  if (brand === 'M4A ' || brand === 'M4B ' || brand === 'M4P ') return guess('m4a', 0.97);
  if (brand === 'qt  ') return guess('mov', 0.97);
  if (brand.startsWith('3g')) return guess('3gp', 0.95);
  if (brand === 'crx ') return guess('cr2', 0.6);
  if (brand === 'jp2 ') return guess('jp2', 0.97);
  if (brand === 'jxl ') return guess('jxl', 0.97);
  return guess('mp4', 0.9, ['mp4', 'm4a', 'mov', '3gp']);
}

/** Matroska and WebM share EBML; the DocType element tells them apart. */
export function ebmlClue(header: Uint8Array): ContentGuess {
  if (indexOfText(header, 'webm') !== -1) return { format: 'webm', confidence: 0.97, reason: 'EBML DocType webm', minSize: 64 };
  return { format: 'mkv', confidence: 0.95, reason: 'EBML DocType matroska', minSize: 64 };
}

/** Ogg pages name their codec in the first packet. */
export function oggClue(header: Uint8Array): ContentGuess {
  const packet = ascii(header, 28, 40);
  if (packet.startsWith('OpusHead')) return { format: 'opus', confidence: 0.97, reason: 'Ogg stream with Opus codec', minSize: 64 };
  if (packet.startsWith('\x80theora')) return { format: 'ogv', confidence: 0.96, reason: 'Ogg stream with Theora video', minSize: 64 };
  if (packet.startsWith('\x7fFLAC')) return { format: 'ogg', confidence: 0.85, reason: 'Ogg stream with FLAC codec', family: ['ogg', 'oga'] };
  return { format: 'ogg', confidence: 0.95, reason: 'Ogg stream with Vorbis codec', minSize: 64 };
}

/** RIFF containers: WAVE, AVI, WebP. */
export function riffClue(header: Uint8Array): ContentGuess | undefined {
  const form = ascii(header, 8, 12);
  if (form === 'WAVE') return { format: 'wav', confidence: 0.98, reason: 'RIFF form WAVE', minSize: 44 };
  if (form === 'AVI ') return { format: 'avi', confidence: 0.98, reason: 'RIFF form AVI', minSize: 64 };
  if (form === 'WEBP') return { format: 'webp', confidence: 0.99, reason: 'RIFF form WEBP', minSize: 26 };
  return undefined;
}

const KF8_FILE_VERSION = 8;

/**
 * Mobipocket books (a PalmDB of type BOOKMOBI): MOBI 6 and KF8 (AZW3) differ only in the MOBI header's
 * file version, inside record 0, which starts after the record list: within 200 bytes only for a book
 * of at most ten records. Otherwise the two are a tie the name breaks.
 */
export function mobiClue(header: Uint8Array): ContentGuess {
  const recordZero = uint32be(header, 78);
  if (recordZero + 40 <= header.length && startsWithText(header, 'MOBI', recordZero + 16)) {
    const version = uint32be(header, recordZero + 36);
    const format = version >= KF8_FILE_VERSION ? 'azw3' : 'mobi';
    return { format, confidence: 0.95, reason: `Mobipocket header, file version ${version}` };
  }
  return { format: 'mobi', confidence: 0.6, reason: 'PalmDB of type BOOKMOBI (MOBI 6 or KF8: the version lies beyond the first 200 bytes)', family: ['mobi', 'azw3'] };
}
