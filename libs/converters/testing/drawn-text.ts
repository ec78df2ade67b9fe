import { execFileSync } from 'node:child_process';

/**
 * Whether text was drawn, read from pixels: a font that can extract text is not one that draws it (pdftotext still
 * finds characters drawn as boxes). Pages are rendered by poppler (pdftoppm) or decoded by the caller, never by
 * the engine that wrote them.
 */
export interface GreyImage {
  width: number;
  height: number;
  /** One byte per pixel, 0 black … 255 white. */
  pixels: Uint8Array;
}

const INK = 160;
/** Rows closer than this (at 100 dpi) are one line: Thai and Devanagari marks sit a few pixels off their letters. */
const LINE_GAP = 4;

/** Page `page` of a PDF as a grey image at 100 dpi (poppler's pdftoppm). */
export function renderPdfPage(pdfPath: string, page = 1): GreyImage {
  const pgm = execFileSync('pdftoppm', ['-gray', '-r', '100', '-f', String(page), '-l', String(page), pdfPath], { maxBuffer: 64 * 1024 * 1024 });
  return parsePgm(pgm);
}

/** A binary PGM (P5, 8 bits) as a grey image. */
export function parsePgm(pgm: Buffer): GreyImage {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('not a binary PGM');
  const [, width, height] = header.map(Number);
  return { width: width!, height: height!, pixels: pgm.subarray(header[0].length) };
}

/** The lines of text on a page, top to bottom, as bands of rows with ink. */
export function textLines(image: GreyImage): Array<{ top: number; bottom: number }> {
  const inked = (row: number) => {
    for (let x = 0; x < image.width; x++) if (image.pixels[row * image.width + x]! < INK) return true;
    return false;
  };
  const bands: Array<{ top: number; bottom: number }> = [];
  for (let y = 0; y < image.height; y++) {
    if (!inked(y)) continue;
    const last = bands.at(-1);
    if (last && y - last.bottom <= LINE_GAP) last.bottom = y;
    else bands.push({ top: y, bottom: y });
  }
  return bands;
}

/**
 * The glyph shapes of one line: runs of inked columns, each cropped to its ink, as a signature. A line of
 * missing-glyph boxes repeats one shape; drawn text has many.
 */
export function glyphShapes(image: GreyImage, band: { top: number; bottom: number }): { count: number; distinct: number } {
  const inkAt = (x: number, y: number) => image.pixels[y * image.width + x]! < INK;
  const columnInked = (x: number) => {
    for (let y = band.top; y <= band.bottom; y++) if (inkAt(x, y)) return true;
    return false;
  };
  const shapes: string[] = [];
  for (let x = 0; x < image.width; x++) {
    if (!columnInked(x)) continue;
    const left = x;
    while (x + 1 < image.width && columnInked(x + 1)) x++;
    const rows: string[] = [];
    for (let y = band.top; y <= band.bottom; y++) {
      let row = '';
      for (let column = left; column <= x; column++) row += inkAt(column, y) ? '1' : '0';
      rows.push(row);
    }
    // Cropped to the ink vertically too, so the same glyph at another height compares equal.
    while (rows.length && !rows[0]!.includes('1')) rows.shift();
    while (rows.length && !rows.at(-1)!.includes('1')) rows.pop();
    shapes.push(rows.join('/'));
  }
  return { count: shapes.length, distinct: new Set(shapes).size };
}

/** Why a line does not look drawn, or undefined when it does: at least 4 glyph shapes, and not one repeated. */
export function undrawnReason(image: GreyImage, band: { top: number; bottom: number }): string | undefined {
  const { count, distinct } = glyphShapes(image, band);
  if (count < 4) return `${count} glyph shapes`;
  if (distinct < Math.max(3, 0.4 * count)) return `${distinct} distinct shapes of ${count}: boxes`;
  return undefined;
}

/** The PostScript names of the fonts embedded in a PDF, without their subset tags (pdffonts); `[none]` for a Type 3 font. */
export function embeddedFonts(pdfPath: string): string[] {
  const lines = execFileSync('pdffonts', [pdfPath], { encoding: 'utf8' }).split('\n').slice(2).filter(Boolean);
  return lines.filter((line) => /\byes\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/.test(line)).map((line) => line.split(/\s+/)[0]!.replace(/^[A-Z]{6}\+/, ''));
}

/**
 * Whether the PDF draws some text with embedded Type 3 glyph procedures that map back to Unicode: how Chromium
 * (Skia) embeds OpenType fonts with CFF outlines, Noto CJK among them, without a font name to look up.
 */
export function hasType3Text(pdfPath: string): boolean {
  return execFileSync('pdffonts', [pdfPath], { encoding: 'utf8' }).split('\n').some((line) => /\bType 3\s+\S+\s+yes\s+(yes|no)\s+yes\b/.test(line));
}

const coveringFonts = new Map<number, Set<string>>();
/** The PostScript names of the installed fonts that have a glyph for a character (fontconfig's charsets, not ours). */
export function fontsCovering(codePoint: number): Set<string> {
  let fonts = coveringFonts.get(codePoint);
  if (!fonts) {
    const listed = execFileSync('fc-list', [`:charset=${codePoint.toString(16)}`, 'postscriptname'], { encoding: 'utf8' });
    fonts = new Set(listed.split('\n').map((line) => line.replace(/^:postscriptname=/, '').trim()).filter(Boolean));
    coveringFonts.set(codePoint, fonts);
  }
  return fonts;
}

/**
 * The characters of `text` (letters and symbols) that no embedded font has a glyph for. An embedded name may carry
 * a suffix of the writer's (LibreOffice's "-VKana" for a CJK font's vertical kana).
 */
export function uncoveredCharacters(text: string, embedded: readonly string[]): string[] {
  const characters = [...new Set([...text].filter((character) => /[\p{L}\p{So}]/u.test(character)))];
  const covers = (font: string, character: string) => [...fontsCovering(character.codePointAt(0)!)].some((installed) => font === installed || font.startsWith(`${installed}-`));
  return characters.filter((character) => !embedded.some((font) => covers(font, character)));
}
