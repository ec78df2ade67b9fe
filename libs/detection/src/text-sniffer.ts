import { leadingCommentStyle, sniffCode } from './code-sniffer.js';
import type { ContentGuess } from './content-guess.js';

/** A code guess this sure (a score of 4) is code even where a data format's pattern would also fit (CSS properties look like YAML). */
const CLEAR_CODE = 0.71;
/** A score of 5: code even where a lone `# NOTE:` comment reads as a Markdown heading (Markdown quoting code has fences). */
const UNMISTAKABLE_CODE = 0.75;

/**
 * Decodes the header as text (BOM-aware) or returns undefined for binary. The last line may be cut
 * off by the 200-byte limit, so callers treat it as partial.
 */
export function decodeText(header: Uint8Array): { text: string; encoding: string } | undefined {
  if (header.length >= 4 && header[0] === 0xff && header[1] === 0xfe && header[2] === 0 && header[3] === 0) return { text: utf32(header.subarray(4), true), encoding: 'utf-32le' };
  if (header.length >= 4 && header[0] === 0 && header[1] === 0 && header[2] === 0xfe && header[3] === 0xff) return { text: utf32(header.subarray(4), false), encoding: 'utf-32be' };
  if (header.length >= 2 && header[0] === 0xff && header[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(header.subarray(2)), encoding: 'utf-16le' };
  if (header.length >= 2 && header[0] === 0xfe && header[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(header.subarray(2)), encoding: 'utf-16be' };
  const body = header[0] === 0xef && header[1] === 0xbb && header[2] === 0xbf ? header.subarray(3) : header;
  let control = 0;
  for (const byte of body) {
    if (byte === 0) return undefined;
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1b)) control++;
  }
  if (control > body.length * 0.05) return undefined;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(body);
  const replacements = (text.match(/\uFFFD/g) ?? []).length;
  // Up to the last 3 bytes may be a multi-byte character cut by the limit; beyond that, Latin-1 text.
  return { text, encoding: replacements > 1 ? 'latin1' : 'utf-8' };
}

/** `key = value` with a bare word for a value: INI, never TOML (whose strings are quoted). */
const BARE_VALUE = /^[\w.-]+\s*=\s*(?!["'[{]|[+-]?\d|true\b|false\b|inf\b|nan\b)\S/;

/** UTF-32 (TextDecoder has no such label): whole code points only, the cut one dropped. */
function utf32(body: Uint8Array, littleEndian: boolean): string {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  let text = '';
  for (let at = 0; at + 4 <= body.length; at += 4) {
    const codePoint = view.getUint32(at, littleEndian);
    text += codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : '\uFFFD';
  }
  return text;
}

const guess = (format: string, confidence: number, reason: string): ContentGuess => ({ format, confidence, reason });

/** What a text header looks like: markup dialects, data formats, tables, markdown, code. */
export function sniffText(text: string): ContentGuess {
  const trimmed = text.replace(/^\s+/, '');
  const lower = trimmed.slice(0, 200).toLowerCase();

  if (trimmed.startsWith('{\\rtf')) return guess('rtf', 0.99, 'RTF header');
  if (trimmed.startsWith('%!PS')) return guess(lower.includes('epsf') ? 'eps' : 'ps', 0.95, 'PostScript header');
  if (/^<\?php\b/i.test(trimmed)) return guess('php', 0.95, 'PHP open tag');
  if (trimmed.startsWith('<')) return sniffMarkup(lower);
  if (trimmed.startsWith('WEBVTT')) return guess('vtt', 0.98, 'WEBVTT header');
  if (/^\[Script Info\]\r?\n/i.test(trimmed)) return guess('ass', 0.97, 'SubStation Alpha [Script Info] section');
  if (/^BEGIN:VCALENDAR/i.test(trimmed)) return guess('ics', 0.98, 'iCalendar BEGIN:VCALENDAR');
  if (/^BEGIN:VCARD/i.test(trimmed)) return guess('vcf', 0.98, 'vCard BEGIN:VCARD');
  if (/^\d+\r?\n\d\d:\d\d:\d\d[,.]\d{3} --> /.test(trimmed)) return guess('srt', 0.97, 'SubRip cue');
  if (/^\\(documentclass|documentstyle|input|usepackage)/.test(trimmed)) return guess('tex', 0.92, 'LaTeX preamble');
  if (/\\(documentclass|PassOptionsToPackage|usepackage|begin\{document\}|section\{)/.test(trimmed)) return guess('tex', 0.85, 'LaTeX commands');
  if ((trimmed.match(/\\[a-zA-Z]+\*?\{/g)?.length ?? 0) >= 3) return guess('tex', 0.8, 'LaTeX commands with arguments');
  if (/^%/.test(trimmed) && /\b(La)?TeX\b/.test(trimmed)) return guess('tex', 0.75, 'TeX comments naming TeX');
  if (/^\.\.(\s*$|\s+[\w-]+::|\s+_)/m.test(trimmed) && /^\.\./.test(trimmed)) return guess('rst', 0.75, 'reStructuredText comment or directive');
  if (/^#define [\w.-]+_width \d+/.test(trimmed)) return guess('xbm', 0.95, 'X BitMap #define header');
  if (/^\/\* XPM \*\/|^! XPM2\b/.test(trimmed)) return guess('xpm', 0.97, 'X PixMap header');
  if (/^#\+(TITLE|AUTHOR|BEGIN_\w+|OPTIONS):/im.test(trimmed)) return guess('org', 0.9, 'Org-mode keywords');
  if (/^\*+ \S/.test(trimmed) && /^\s*:(PROPERTIES|LOGBOOK):\s*$|\[\[[^\]]+\](\[[^\]]+\])?\]/m.test(trimmed)) return guess('org', 0.85, 'Org-mode headline with a drawer or [[link]]');
  if (/^#!.*\b(ba|z|da|k)?sh\b/.test(trimmed)) return guess('sh', 0.93, 'shell shebang');
  if (/^#!.*\bpython/.test(trimmed)) return guess('py', 0.93, 'python shebang');
  if (/^#!.*\b(node|deno|bun)\b/.test(trimmed)) return guess('js', 0.9, 'node shebang');
  if (/^#!.*\bperl\b/.test(trimmed)) return guess('pl', 0.9, 'perl shebang');
  if (/^#!.*\bruby\b/.test(trimmed)) return guess('rb', 0.9, 'ruby shebang');
  if (/^(Return-Path|Received|From|Delivered-To|Message-ID|MIME-Version|X-[\w-]+):[ \t]/m.test(trimmed.slice(0, 100)) && /^[\w-]+: .*\r?\n[\w-]+: /.test(trimmed)) {
    return guess('eml', 0.85, 'RFC 822 header lines');
  }
  const json = sniffJson(trimmed);
  if (json) return json;

  const lines = completeLines(text);
  // Code is claimed early when it opens with a /*, // or -- comment (no prose or data format does), or
  // shows its statements clearly outside a Markdown code fence.
  const code = sniffCode(trimmed);
  const markdown = markdownScore(text);
  const commentStyle = leadingCommentStyle(trimmed);
  if (code && ((commentStyle && commentStyle !== 'hash') || (code.confidence >= CLEAR_CODE && !/^```/m.test(trimmed) && (markdown < 2 || code.confidence >= UNMISTAKABLE_CODE)))) return code;
  const table = sniffTable(lines) ?? raggedTable(lines) ?? headerRowOnly(text);
  if (table) return table;
  if (/^={1,5} \S/.test(trimmed)) return guess('adoc', 0.8, 'AsciiDoc title');
  if (lines.some((l) => /^\*{1,4} \S/.test(l)) && !lines.some((l) => /^#{1,6} \S|^\s*[-+] \S/.test(l)) && /^\*+ \S/.test(trimmed)) {
    return guess('org', 0.7, 'Org-mode headlines');
  }
  if (rstUnderlines(lines) >= 1) return guess('rst', 0.75, 'reStructuredText section underlines');
  if (lines.some((l) => /^\[[^\]]+\]\s*$/.test(l)) && lines.filter((l) => /^[\w.-]+\s*=\s*/.test(l)).length >= 1) {
    return lines.some((l) => /=\s*("|\[|\d|true|false)/.test(l)) && !lines.some((l) => /^[\w.-]+=[^"\d[\s]/.test(l) || BARE_VALUE.test(l))
      ? guess('toml', 0.7, 'TOML tables and typed values')
      : guess('ini', 0.75, 'INI sections and key=value lines');
  }
  const keyLines = lines.filter((l) => /^\s*(- )?[\w"'.-]+:(\s|$)/.test(l)).length;
  const documentMarker = lines.some((l) => /^---\s*$/.test(l));
  if (trimmed.startsWith('---\n') || trimmed.startsWith('---\r\n') || ((keyLines >= 2 || documentMarker) && yamlLines(lines) >= lines.length * 0.6)) {
    return guess('yaml', 0.75, 'YAML mapping lines');
  }
  if (markdown >= 2) return guess('md', 0.8, 'Markdown headings, lists or links');
  if (code) return code;
  return guess('txt', 0.6, 'plain text');
}

function sniffMarkup(lower: string): ContentGuess {
  const root = lower.replace(/<\?xml[^>]*>/, '').replace(/<!--[\s\S]*?-->/g, '').trimStart();
  if (/^<!doctype html|^<html[\s>]/.test(root)) return guess('html', 0.96, 'HTML document');
  if (/^<(svg|!doctype svg)[\s>]/.test(root)) return guess('svg', 0.97, 'SVG root element');
  if (/^<rss[\s>]/.test(root)) return guess('rss', 0.95, 'RSS root element');
  if (/^<feed[\s>/]/.test(root)) return guess('atom', 0.95, 'Atom feed root element');
  if (/^<kml[\s>]/.test(root)) return guess('kml', 0.95, 'KML root element');
  if (/^<gpx[\s>/]/.test(root)) return guess('gpx', 0.95, 'GPX root element');
  if (/^<(!doctype plist|plist)[\s>]/.test(root)) return guess('plist', 0.95, 'property list');
  if (/^<fictionbook[\s>]/.test(root)) return guess('fb2', 0.95, 'FictionBook root element');
  if (/^<(head|body|meta|title|div|p|script|style|link|table|h[1-6])[\s>]/.test(root)) return guess('html', 0.85, 'HTML elements');
  if (root.includes('<svg')) return guess('svg', 0.85, 'SVG element');
  if (lower.startsWith('<?xml') || /^<[a-z_][\w:.-]*[\s>/]/.test(root)) return guess('xml', 0.9, 'XML document');
  return guess('txt', 0.4, 'text starting with "<"');
}

function sniffJson(trimmed: string): ContentGuess | undefined {
  if (!/^[[{]/.test(trimmed)) return undefined;
  if (!/^(\{\s*("|\})|\[\s*([[{"\d\]-]|true|false|null))/.test(trimmed)) return undefined;
  const lines = trimmed.split(/\r?\n/).filter((l) => l.trim());
  if (lines.length >= 2 && lines.slice(0, -1).every((l) => /^\{.*\}\s*$/.test(l.trim()))) return guess('ndjson', 0.85, 'one JSON object per line');
  if (/"type"\s*:\s*"(FeatureCollection|Feature)"/.test(trimmed)) return guess('geojson', 0.9, 'GeoJSON type member');
  if (/^\{\s*"(cells|nbformat|nbformat_minor)"\s*:/.test(trimmed)) return guess('ipynb', 0.9, 'Jupyter notebook members');
  if (/"asset"\s*:\s*\{[^}]*"version"/.test(trimmed)) return guess('gltf', 0.85, 'glTF asset member');
  return guess('json', 0.92, 'JSON object or array');
}

/** Lines of the header except the last one, which the 200-byte cut may have truncated. */
function completeLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (!/\n$/.test(text)) lines.pop();
  return lines.filter((line) => line.trim().length > 0);
}

function sniffTable(lines: string[]): ContentGuess | undefined {
  if (lines.length < 2) return undefined;
  for (const [delimiter, format] of [['\t', 'tsv'], [',', 'csv'], [';', 'csv']] as const) {
    // Statements ending in ";" (code) are not a table.
    if (lines.every((line) => line.trimEnd().endsWith(delimiter))) continue;
    const counts = lines.map((line) => countOutsideQuotes(line, delimiter));
    if (counts[0]! >= 1 && counts.every((count) => count === counts[0])) {
      return guess(format, lines.length >= 3 ? 0.85 : 0.7, `${lines.length} lines with ${counts[0]! + 1} ${delimiter === '\t' ? 'tab' : `"${delimiter}"`}-separated fields`);
    }
  }
  return undefined;
}

/** A table whose header row alone fills the 200 bytes: one unfinished line with tab-separated columns. */
function headerRowOnly(text: string): ContentGuess | undefined {
  if (/[\r\n]/.test(text.trimEnd())) return undefined;
  return /\S\t+\S/.test(text) && !text.startsWith('\t') ? guess('tsv', 0.5, 'one header row of tab-separated columns, cut by the 200-byte limit') : undefined;
}

/** Spreadsheet exports leave trailing empty cells out: rows of a few more or fewer fields are still a table. */
function raggedTable(lines: string[]): ContentGuess | undefined {
  if (lines.length < 3) return undefined;
  // One quoted field per row: a one-column CSV (as spreadsheets export text holding another delimiter).
  if (lines.every((line) => /^"[^"]*"\s*$/.test(line))) return guess('csv', 0.6, `${lines.length} rows of one quoted field`);
  for (const [delimiter, format] of [['\t', 'tsv'], [',', 'csv']] as const) {
    const counts = lines.map((line) => countOutsideQuotes(line, delimiter));
    const rows = counts.slice(1);
    const headerOverRows = rows.every((count) => count === rows[0]) && counts[0]! >= rows[0]!;
    if (Math.min(...counts) >= 2 && (headerOverRows || Math.max(...counts) - Math.min(...counts) <= 2) && lines.every((line) => !/[.!?]\s+[A-Z]/.test(line))) {
      return guess(format, 0.6, `${lines.length} lines of ${Math.min(...counts) + 1} to ${Math.max(...counts) + 1} ${delimiter === '\t' ? 'tab' : 'comma'}-separated fields`);
    }
  }
  return undefined;
}

function countOutsideQuotes(line: string, delimiter: string): number {
  let count = 0;
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (char === delimiter && !quoted) count++;
  }
  return count;
}

/** Title lines underlined (or over- and underlined) with a repeated punctuation character, as rST writes them. */
function rstUnderlines(lines: string[]): number {
  let count = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!.trimEnd();
    if (/^([=\-~^"'`#*+])\1{2,}$/.test(line) && lines[i - 1]!.trim().length > 0 && !/^([=\-~^"'`#*+])\1{2,}$/.test(lines[i - 1]!.trim()) && Math.abs(line.length - lines[i - 1]!.trimEnd().length) <= 2) count++;
  }
  return count;
}

function yamlLines(lines: string[]): number {
  return lines.filter((l) => /^\s*(- )?[\w"'.-]+:(\s|$)/.test(l) || /^\s*- \S/.test(l) || /^\s*#/.test(l)).length;
}

function markdownScore(text: string): number {
  // Blank lines kept: a heading stands apart, while consecutive "# " lines are a comment block (a script's licence).
  const lines = text.split(/\r?\n/);
  if (!/\n$/.test(text)) lines.pop();
  let score = 0;
  for (const [index, line] of lines.entries()) {
    if (/^#{1,6} \S/.test(line)) score += /^#/.test(lines[index + 1] ?? '') || /^#/.test(lines[index - 1] ?? '') ? 0 : 2;
    else if (/^```/.test(line) || /^\s*[-*+] \S/.test(line) || /^\s*\d+\. \S/.test(line) || /^> /.test(line)) score += 1;
    else if (/\[[^\]]+\]\([^)]+\)/.test(line) || /\*\*[^*]+\*\*/.test(line)) score += 1;
  }
  return score;
}
