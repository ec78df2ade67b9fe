import { HELVETICA_BOLD_CAP_HEIGHT, HELVETICA_BOLD_DESCENT, helveticaBoldWidth, winAnsiCodes } from './win-ansi.js';

export const STAMP_POSITIONS = ['center', 'top', 'bottom', 'top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export type StampPosition = (typeof STAMP_POSITIONS)[number];

/** A stamp as the `stamp` option asks for it (its pages aside). */
export interface StampStyle {
  text: string;
  position?: StampPosition;
  opacity?: number;
  /** Degrees, counter-clockwise. */
  angle?: number;
  /** Font size in points. */
  size?: number;
}

/**
 * The defaults: a watermark across the middle (large, faint), or a label at an edge or corner (small, readable). Both
 * level: text extraction and a viewer's search read a level line as one (a turned one comes out letter by letter).
 */
export const STAMP_DEFAULTS = {
  center: { size: 60, angle: 0, opacity: 0.25 },
  edge: { size: 18, angle: 0, opacity: 0.6 },
} as const;

/** A page as a viewer shows it, in points. */
export interface PageSize {
  width: number;
  height: number;
}

/** Where the text goes on one page: its font size and text matrix. */
export interface StampPlacement {
  size: number;
  /** The text matrix [a b c d e f]: the baseline's start and direction. */
  matrix: [number, number, number, number, number, number];
  /** The size was lowered so the text fits the page. */
  shrunk: boolean;
}

/**
 * Pure: the stamp's place on a page. The text's box (cap height over the baseline, descent under it) turned by the
 * angle about its centre; that turned box sits at the position, a margin off the edges, and is scaled down when it
 * would not fit inside the margins.
 */
export function stampPlacement(codes: readonly number[], page: PageSize, style: StampStyle): StampPlacement {
  const position = style.position ?? 'center';
  const defaults = position === 'center' ? STAMP_DEFAULTS.center : STAMP_DEFAULTS.edge;
  const angle = ((style.angle ?? defaults.angle) * Math.PI) / 180;
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const margin = Math.min(24, Math.min(page.width, page.height) / 10);
  // The box's half extents once turned, per point of font size.
  const width = helveticaBoldWidth(codes) / 1000;
  const height = (HELVETICA_BOLD_CAP_HEIGHT + HELVETICA_BOLD_DESCENT) / 1000;
  const halfWide = (Math.abs(width * cos) + Math.abs(height * sin)) / 2;
  const halfHigh = (Math.abs(width * sin) + Math.abs(height * cos)) / 2;
  const asked = style.size ?? defaults.size;
  const fits = Math.min((page.width - 2 * margin) / (2 * halfWide), (page.height - 2 * margin) / (2 * halfHigh));
  const size = Math.max(0.1, Math.min(asked, fits));
  const [hw, hh] = [halfWide * size, halfHigh * size];

  const x = position.endsWith('left') ? margin + hw : position.endsWith('right') ? page.width - margin - hw : page.width / 2;
  const y = position.startsWith('top') ? page.height - margin - hh : position.startsWith('bottom') ? margin + hh : page.height / 2;
  // The baseline's start: the box's centre (half the width along the baseline, halfway between cap height and descent
  // across it) moved back from (x, y), turned.
  const along = (width * size) / 2;
  const across = ((HELVETICA_BOLD_CAP_HEIGHT - HELVETICA_BOLD_DESCENT) / 2000) * size;
  const e = x - along * cos + across * sin;
  const f = y - along * sin - across * cos;
  return { size, matrix: [cos, sin, -sin, cos, e, f], shrunk: size < asked };
}

/** The stamp PDF: its bytes, and for each page asked for (in order) the page of the stamp PDF that goes over it. */
export interface StampPdf {
  pdf: Buffer;
  stampPageOf: number[];
  /** Some page was too small for the size asked: the text was drawn smaller there. */
  shrunk: boolean;
}

/**
 * Pure: a PDF of the stamp alone, for qpdf's overlay: a page the size of each distinct page size given (pages as a
 * viewer shows them, /Rotate applied; qpdf places an overlay upright on a turned page), the text on it in Helvetica-
 * Bold (a standard font: nothing embedded) in WinAnsiEncoding, mid grey, with the opacity in an ExtGState.
 */
export function stampPdf(pages: readonly PageSize[], style: StampStyle): StampPdf {
  const codes = winAnsiCodes(style.text);
  if (!codes) throw new Error('the stamp text is not WinAnsi (the option schema refuses it)');
  const position = style.position ?? 'center';
  const opacity = style.opacity ?? (position === 'center' ? STAMP_DEFAULTS.center : STAMP_DEFAULTS.edge).opacity;
  const hex = codes.map((code) => code.toString(16).padStart(2, '0')).join('');

  const sizes: PageSize[] = [];
  const bySize = new Map<string, number>();
  const stampPageOf = pages.map((page) => {
    const key = `${num(page.width)}x${num(page.height)}`;
    let index = bySize.get(key);
    if (index === undefined) {
      index = sizes.push(page);
      bySize.set(key, index);
    }
    return index;
  });

  // 1 catalog, 2 pages, 3 font, 4 graphics state, then a page and its content per size.
  const pageObject = (index: number) => 5 + index * 2;
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Count ${sizes.length} /Kids [${sizes.map((_, i) => `${pageObject(i)} 0 R`).join(' ')}] >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Type /ExtGState /ca ${num(opacity)} /CA ${num(opacity)} >>`,
  ];
  let shrunk = false;
  for (const [index, page] of sizes.entries()) {
    const placement = stampPlacement(codes, page, style);
    shrunk ||= placement.shrunk;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(page.width)} ${num(page.height)}] /Resources << /Font << /F1 3 0 R >> /ExtGState << /GS1 4 0 R >> >> /Contents ${pageObject(index) + 1} 0 R >>`,
    );
    const content = `q /GS1 gs 0.5 0.5 0.5 rg BT /F1 ${num(placement.size)} Tf ${placement.matrix.map(num).join(' ')} Tm <${hex}> Tj ET Q`;
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  }
  return { pdf: serialise(objects), stampPageOf, shrunk };
}

/** A number as PDF writes it: at most four decimals, no exponent. */
const num = (value: number) => {
  const text = (Math.abs(value) < 1e-9 ? 0 : value).toFixed(4).replace(/\.?0+$/, '');
  return text === '-0' ? '0' : text;
};

/** The objects (numbered from 1, the first the catalog) as a PDF with a cross-reference table. Text is ASCII. */
function serialise(objects: readonly string[]): Buffer {
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
