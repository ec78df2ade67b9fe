import { posix } from 'node:path';
import { decodeXmlReferences } from '../../shared/xml/xml-references.js';

/** An SVG `<image>` (any prefix) and its attributes; attribute values hold no `<` in well-formed XML. */
const IMAGE_ELEMENT = /<(?:[\w.-]+:)?image\b((?:\s+[\w.:-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*\/?>/g;
const HREF_ATTRIBUTE = /(?:^|\s)(?:[\w.-]+:)?href\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/g;
/**
 * Encodings in which `<`, quotes, `=`, `/`, `.` and `:` are the ASCII bytes (multibyte CJK encodings never use
 * bytes below 0x40 inside a character): markup in them is scanned as bytes. UTF-16 is decoded. Any other
 * (UTF-7, EBCDIC, UTF-32…) could hide markup from this scan.
 */
const READABLE_ENCODING =
  /^(?:utf-?8|utf-?16(?:le|be)?|(?:us-)?ascii|iso[-_]?8859[-_]\d+|(?:iso[-_]?)?latin-?\d|(?:windows|cp)-?125\d|koi8-?[ru]|mac-?roman|tis-?620|shift[-_]jis|s-?jis|x-sjis|(?:cp|ms)932|windows-31j|euc-?(?:jp|kr|cn|tw)|gb2312|gbk|gb18030|cp936|big5(?:-hkscs)?|cp950|cp949|uhc|ks_c_5601-1987)$/i;

/**
 * Pure: the first SVG image reference of a book's entry that does not name a file of the book, or undefined.
 * calibre draws SVG into pictures for MOBI, FB2 and DOCX outputs with Qt, after swapping every image it finds in
 * the book's manifest for its own copy (calibre/ebooks/oeb/transforms/rasterize.py); any other reference reaches
 * Qt as written, which opens it as a path of the machine, relative to calibre's working directory (so `../` climbs
 * out of wherever the book is). So an image must be a `data:` URL or a relative path, resolved against its entry,
 * to an entry of the package (`packageEntries`); an absolute path, any other scheme, a path out of the package or to
 * nothing in it, or a value this scan cannot read (an unknown entity, bad escapes) is returned.
 * `content` is the entry's bytes: UTF-8 or another ASCII-based encoding, or UTF-16; a markup entry in any other
 * encoding (EBCDIC, UTF-32…) is returned whole as unreadable.
 */
export function outsideSvgImage(entry: string, content: Buffer, packageEntries: ReadonlySet<string>): string | undefined {
  const text = readableText(content);
  if (text === undefined) return `${entry} (an encoding this check cannot read)`;
  return svgImageHrefs(text).find((raw) => !insideTheBook(entry, raw, packageEntries));
}

/**
 * Pure: the first SVG image reference of a Mobipocket book's text (MOBI 6 or KF8, ASCII-based) that is not one of
 * the book's own images: KF8 names them `kindle:embed:…`, anything else (but a `data:` URL or a fragment) reaches Qt
 * as a path of the machine, as in an EPUB.
 */
export function outsideMobiSvgImage(text: string): string | undefined {
  return svgImageHrefs(text).find((raw) => {
    let href: string;
    try {
      href = decodeXmlReferences(raw).trim();
    } catch {
      return true;
    }
    return !/^(?:kindle:|data:|#)/i.test(href);
  });
}

/** The raw `href` values (any prefix) of every `<image>` element (any prefix) in some markup. */
function svgImageHrefs(text: string): string[] {
  return [...text.matchAll(IMAGE_ELEMENT)].flatMap(([, attributes]) => [...attributes!.matchAll(HREF_ATTRIBUTE)].map(([, double, single]) => double ?? single ?? ''));
}

function insideTheBook(entry: string, raw: string, packageEntries: ReadonlySet<string>): boolean {
  let href: string;
  try {
    href = decodeXmlReferences(raw).trim();
  } catch {
    return false;
  }
  if (/^data:/i.test(href)) return true;
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/') || href.startsWith('\\')) return false;
  let path: string;
  try {
    path = decodeURIComponent(href.replace(/[?#].*$/s, ''));
  } catch {
    return false;
  }
  if (path === '') return true; // a fragment of this very entry
  const resolved = posix.normalize(posix.join(posix.dirname(entry), path));
  return packageEntries.has(resolved);
}

/** How a markup entry in an encoding not read here starts: `<` in UTF-32 (either order, BOMs included) and EBCDIC. */
const UNREADABLE_STARTS = [[0, 0, 0, 0x3c], [0x3c, 0, 0, 0], [0, 0, 0xfe, 0xff], [0xff, 0xfe, 0, 0], [0x4c, 0x6f, 0xa7, 0x94]];
/** An encoding a document declares: in its XML declaration or a `charset=` (calibre honours both). */
const DECLARED_ENCODING = /(?:<\?xml[^>]*\bencoding|\bcharset)\s*=\s*["']?([\w.:-]+)/gi;

/** The entry as text, when its markup can be scanned: UTF-16 (by its byte order mark or its zero bytes) or ASCII-based. */
function readableText(content: Buffer): string | undefined {
  const start = [...content.subarray(0, 4)];
  if (UNREADABLE_STARTS.some((bytes) => bytes.every((byte, i) => start[i] === byte))) return undefined;
  const [a, b] = start;
  if ((a === 0xff && b === 0xfe) || (a === 0x3c && b === 0)) return content.toString('utf16le');
  if ((a === 0xfe && b === 0xff) || (a === 0 && b === 0x3c)) return Buffer.from(content.subarray(0, content.length & ~1)).swap16().toString('utf16le');
  const text = content.toString('latin1');
  for (const [, encoding] of text.matchAll(DECLARED_ENCODING)) {
    if (!READABLE_ENCODING.test(encoding!)) return undefined;
  }
  // Entry names are UTF-8: read the values as such (the markup around them is ASCII either way).
  return Buffer.from(text, 'latin1').toString('utf8');
}
