import { MalformedTextError, parseInlineText } from './inline-text.js';
import type { PdfPage, TextFragment } from './pdf-page.js';

/** pdftohtml's XML is not what it writes: a DOCTYPE other than its own, an entity declaration, or malformed markup. */
export class Pdf2XmlError extends Error {}

/** The one DOCTYPE pdftohtml writes: an external DTD it names and nobody fetches; nothing is declared inline. */
const PDF2XML_DOCTYPE = '<!DOCTYPE pdf2xml SYSTEM "pdf2xml.dtd">';
const XML_DECLARATION = /^<\?xml version="1\.0" encoding="UTF-8"\?>$/;
const ROOT = /^<pdf2xml(?: [\w-]+="[^"<>]*")*>$/;
const PAGE = /^<page number="(\d+)" position="absolute" top="-?\d+(?:\.\d+)?" left="-?\d+(?:\.\d+)?" height="(\d+(?:\.\d+)?)" width="(\d+(?:\.\d+)?)">$/;
// The font family comes unescaped from the PDF (it may hold quotes or markup): only id and size are read.
const FONTSPEC = /^<fontspec id="(\d+)" size="(-?\d+(?:\.\d+)?)" family=".*" color="#[0-9a-fA-F]{6}"\/>$/s;
const TEXT = /^<text top="(-?\d+(?:\.\d+)?)" left="(-?\d+(?:\.\d+)?)" width="(-?\d+(?:\.\d+)?)" height="(-?\d+(?:\.\d+)?)" font="(\d+)">(.*)<\/text>$/s;
const MARKUP_DECLARATION = /<!DOCTYPE|<!ENTITY|<!ELEMENT|<!ATTLIST|<!\[/i;
const IMAGE = /^<image(?: [\w-]+="[^"<>]*")*\/>$/;
/** A `<text>` line longer than this is not pdftohtml's (it writes one line of a page per element). */
const MAX_TEXT_LINE_CHARS = 1_000_000;

/**
 * Pure and streaming: reads pdftohtml's `-xml` output line by line (the layout it writes: one element a line)
 * and hands back each page when it ends. It never expands an entity: the prolog must be exactly pdftohtml's,
 * and inside a text line only the five XML entities and character references are read. The outline after
 * the pages is skipped. One reader per pdftohtml run (font ids are per run).
 */
export class Pdf2XmlReader {
  private state: 'prolog' | 'root' | 'page' | 'outline' | 'end' = 'prolog';
  private doctypeSeen = false;
  private readonly fontSizes = new Map<number, number>();
  private page: PdfPage | undefined;
  private pendingText = '';
  private outlineDepth = 0;

  /** The pages one line completes (none or one). */
  line(raw: string): PdfPage[] {
    if (this.pendingText) {
      // A text element broken over lines (a line break in the PDF's text): read it whole.
      this.pendingText += `\n${raw}`;
      if (this.pendingText.length > MAX_TEXT_LINE_CHARS) throw new Pdf2XmlError('a text line is too long');
      if (!raw.trimEnd().endsWith('</text>')) return [];
      const whole = this.pendingText;
      this.pendingText = '';
      this.text(whole);
      return [];
    }
    const line = raw.trim();
    // A font line is exempt: its family is the PDF's own name, copied unescaped, and never read.
    if (MARKUP_DECLARATION.test(line) && !(this.state === 'prolog' && line === PDF2XML_DOCTYPE) && !(this.state === 'page' && FONTSPEC.test(line))) {
      throw new Pdf2XmlError('the XML declares a DOCTYPE or entities of its own');
    }
    if (line === '') return [];
    switch (this.state) {
      case 'prolog':
        if (XML_DECLARATION.test(line) && !this.doctypeSeen) return [];
        if (line === PDF2XML_DOCTYPE && !this.doctypeSeen) {
          this.doctypeSeen = true;
          return [];
        }
        if (ROOT.test(line)) {
          this.state = 'root';
          return [];
        }
        throw new Pdf2XmlError('the XML does not start as pdftohtml writes it');
      case 'root': {
        const page = PAGE.exec(line);
        if (page) {
          this.page = { number: Number(page[1]), height: Number(page[2]), width: Number(page[3]), fragments: [] };
          this.state = 'page';
          return [];
        }
        if (line === '<outline>') {
          this.state = 'outline';
          this.outlineDepth = 1;
          return [];
        }
        if (line === '</pdf2xml>') {
          this.state = 'end';
          return [];
        }
        throw new Pdf2XmlError('unexpected markup between pages');
      }
      case 'page':
        return this.pageLine(line);
      case 'outline':
        // pdftohtml writes the document outline here; its titles are escaped. Only its structure is checked.
        if (line === '<outline>') this.outlineDepth++;
        else if (line === '</outline>') {
          if (--this.outlineDepth === 0) this.state = 'root';
        } else if (!/^<item page="-?\d+">[^<]*<\/item>$/.test(line)) throw new Pdf2XmlError('unexpected markup in the outline');
        return [];
      case 'end':
        throw new Pdf2XmlError('content after the end of the document');
    }
  }

  /** Call after the last line: a document cut short is malformed. */
  end(): void {
    if (this.state !== 'end' || this.pendingText) throw new Pdf2XmlError('the XML ends before the document does');
  }

  private pageLine(line: string): PdfPage[] {
    if (line === '</page>') {
      const page = this.page!;
      this.page = undefined;
      this.state = 'root';
      return [page];
    }
    const font = FONTSPEC.exec(line);
    if (font) {
      this.fontSizes.set(Number(font[1]), Number(font[2]));
      return [];
    }
    if (line.startsWith('<text ')) {
      if (line.endsWith('</text>')) this.text(line);
      else this.pendingText = line;
      return [];
    }
    if (IMAGE.test(line)) return [];
    throw new Pdf2XmlError('unexpected markup in a page');
  }

  private text(line: string): void {
    const match = TEXT.exec(line);
    if (!match) throw new Pdf2XmlError('a text line is malformed');
    const fontSize = this.fontSizes.get(Number(match[5]));
    if (fontSize === undefined) throw new Pdf2XmlError('a text line names a font that was not declared');
    let spans;
    try {
      spans = parseInlineText(match[6]!);
    } catch (error) {
      if (error instanceof MalformedTextError) throw new Pdf2XmlError(error.message);
      throw error;
    }
    if (spans.length === 0 || spans.every((span) => span.text.trim() === '')) return;
    const fragment: TextFragment = { top: Number(match[1]), left: Number(match[2]), width: Number(match[3]), height: Number(match[4]), fontSize, spans };
    this.page!.fragments.push(fragment);
  }
}

/** Pure: every page of one pdftohtml XML document held in a string (tests, small documents). */
export function readPdf2Xml(xml: string): PdfPage[] {
  const reader = new Pdf2XmlReader();
  const pages = xml.split(/\r?\n/).flatMap((line) => reader.line(line));
  reader.end();
  return pages;
}
