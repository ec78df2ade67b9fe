import { arabicLetters, bidiOrder, hasRightToLeft, lineDirection, strongDirection } from './bidi-text.js';
import { fragmentText, type PdfPage, type TextFragment, type TextSpan } from './pdf-page.js';

/** Fragments of one line that sit close together: a piece of text, or a table cell, or one column's line. */
export interface Segment {
  top: number;
  bottom: number;
  left: number;
  right: number;
  fontSize: number;
  /** In logical order (as read). */
  spans: TextSpan[];
  /** Its line reads right to left. */
  rtl?: boolean;
}

/** One printed line of a column: its segments in reading order (more than one when wide gaps part them). */
export interface Line {
  page: number;
  top: number;
  bottom: number;
  left: number;
  right: number;
  /** The size most of its characters have. */
  fontSize: number;
  cells: Segment[];
  /** Read right to left: its cells from right to left, its start its right edge. */
  rtl?: boolean;
}

/** A gap this many font sizes wide parts two segments of a line (word spaces are inside pdftohtml's fragments). */
const CELL_GAP_EM = 1.2;

/**
 * Pure: the page's fragments grouped into rows (by vertical centre), each row's fragments into segments in reading
 * order, their text in logical order (see bidi-text.ts): a row reads right to left when its letters are of a
 * right-to-left script, or when it mixes scripts (or has no letters) on a page where most letters are.
 */
export function pageRows(page: PdfPage): Segment[][] {
  const pageDirection = strongDirection(page.fragments.map(fragmentText).join('')) ?? 'ltr';
  const fragments = [...page.fragments].sort((a, b) => centre(a) - centre(b) || a.left - b.left);
  const rows: TextFragment[][] = [];
  for (const fragment of fragments) {
    const row = rows.at(-1);
    // Same row when the centres are within half the smaller height: bold runs, links, superscripts.
    if (row && Math.abs(centre(row[0]!) - centre(fragment)) <= Math.min(row[0]!.height, fragment.height) / 2) row.push(fragment);
    else rows.push([fragment]);
  }
  return rows.map((row) => segmentsOf(row, pageDirection));
}

function segmentsOf(row: TextFragment[], pageDirection: 'rtl' | 'ltr'): Segment[] {
  const segments: Segment[] = [];
  let sizes = new Map<number, number>();
  for (const fragment of [...row].sort((a, b) => a.left - b.left)) {
    const last = segments.at(-1);
    const gap = last ? fragment.left - last.right : Infinity;
    if (last && gap < CELL_GAP_EM * Math.max(last.fontSize, fragment.fontSize)) {
      // pdftohtml ends a fragment at a font change; a gap of its own between them is a space.
      if (gap > fragment.fontSize * 0.15 && !/\s$/.test(spansText(last.spans)) && !/^\s/.test(fragmentText(fragment))) last.spans.push({ text: ' ', bold: false, italic: false });
      appendSpans(last.spans, fragment.spans);
      last.top = Math.min(last.top, fragment.top);
      last.bottom = Math.max(last.bottom, fragment.top + fragment.height);
      last.right = Math.max(last.right, fragment.left + fragment.width);
    } else {
      if (last) last.fontSize = dominant(sizes);
      sizes = new Map();
      segments.push({ top: fragment.top, bottom: fragment.top + fragment.height, left: fragment.left, right: fragment.left + fragment.width, fontSize: fragment.fontSize, spans: fragment.spans.map((span) => ({ ...span })) });
    }
    sizes.set(fragment.fontSize, (sizes.get(fragment.fontSize) ?? 0) + fragmentText(fragment).trim().length);
  }
  segments.at(-1)!.fontSize = dominant(sizes);
  const rtl = lineDirection(row.map(fragmentText).join(' '), pageDirection) === 'rtl';
  for (const segment of segments) {
    if (rtl) segment.rtl = true;
    if (rtl || hasRightToLeft(spansText(segment.spans))) segment.spans = logicalSpans(segment.spans, rtl);
  }
  return rtl ? segments.reverse() : segments;
}

/**
 * Spans drawn left to right (pdftohtml's order, and the OCR layout's) in the order they are read, each character
 * keeping its style; Arabic presentation forms read as letters.
 */
export function logicalSpans(spans: readonly TextSpan[], rtl: boolean): TextSpan[] {
  const styleOf = spans.flatMap((span) => [...span.text].map(() => span));
  const logical: TextSpan[] = [];
  for (const { from, char } of bidiOrder(spans.flatMap((span) => [...span.text]), rtl)) appendSpans(logical, [{ ...styleOf[from]!, text: char }]);
  for (const span of logical) span.text = arabicLetters(span.text);
  return logical;
}

/** Pure: segments of one column, in reading order, grouped into lines. */
export function linesOf(page: number, segments: readonly Segment[]): Line[] {
  const lines: Line[] = [];
  for (const segment of segments) {
    const line = lines.at(-1);
    const height = segment.bottom - segment.top;
    if (line && Math.abs((line.top + line.bottom) / 2 - (segment.top + segment.bottom) / 2) <= Math.min(line.bottom - line.top, height) / 2) {
      line.cells.push(segment);
      line.cells.sort((a, b) => (line.rtl ? b.right - a.right : a.left - b.left));
      line.top = Math.min(line.top, segment.top);
      line.bottom = Math.max(line.bottom, segment.bottom);
      line.left = Math.min(line.left, segment.left);
      line.right = Math.max(line.right, segment.right);
      line.fontSize = widest(line.cells).fontSize;
    } else lines.push({ page, top: segment.top, bottom: segment.bottom, left: segment.left, right: segment.right, fontSize: segment.fontSize, cells: [segment], ...(segment.rtl ? { rtl: true } : {}) });
  }
  return lines;
}

export const spansText = (spans: readonly TextSpan[]) => spans.map((span) => span.text).join('');
export const lineText = (line: { cells: readonly Segment[] }) => line.cells.map((cell) => spansText(cell.spans).trim()).join(' ');

/** Appends spans, merging the first into the last when their style is the same. */
export function appendSpans(to: TextSpan[], spans: readonly TextSpan[]): void {
  for (const span of spans) {
    const last = to.at(-1);
    if (last && last.bold === span.bold && last.italic === span.italic && last.href === span.href) last.text += span.text;
    else to.push({ ...span });
  }
}

const centre = (fragment: TextFragment) => fragment.top + fragment.height / 2;
const dominant = (sizes: Map<number, number>) => [...sizes.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 0;
const widest = (cells: readonly Segment[]) => cells.reduce((a, b) => (spansText(b.spans).length > spansText(a.spans).length ? b : a));
