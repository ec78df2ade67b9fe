import { fragmentText, type PdfPage, type TextFragment, type TextSpan } from './pdf-page.js';

/** Fragments of one line that sit close together: a piece of text, or a table cell, or one column's line. */
export interface Segment {
  top: number;
  bottom: number;
  left: number;
  right: number;
  fontSize: number;
  spans: TextSpan[];
}

/** One printed line of a column: its segments left to right (more than one when wide gaps part them). */
export interface Line {
  page: number;
  top: number;
  bottom: number;
  left: number;
  right: number;
  /** The size most of its characters have. */
  fontSize: number;
  cells: Segment[];
}

/** A gap this many font sizes wide parts two segments of a line (word spaces are inside pdftohtml's fragments). */
const CELL_GAP_EM = 1.2;

/** Pure: the page's fragments grouped into rows (by vertical centre), each row's fragments into segments. */
export function pageRows(page: PdfPage): Segment[][] {
  const fragments = [...page.fragments].sort((a, b) => centre(a) - centre(b) || a.left - b.left);
  const rows: TextFragment[][] = [];
  for (const fragment of fragments) {
    const row = rows.at(-1);
    // Same row when the centres are within half the smaller height: bold runs, links, superscripts.
    if (row && Math.abs(centre(row[0]!) - centre(fragment)) <= Math.min(row[0]!.height, fragment.height) / 2) row.push(fragment);
    else rows.push([fragment]);
  }
  return rows.map(segmentsOf);
}

function segmentsOf(row: TextFragment[]): Segment[] {
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
  return segments;
}

/** Pure: segments of one column, in reading order, grouped into lines. */
export function linesOf(page: number, segments: readonly Segment[]): Line[] {
  const lines: Line[] = [];
  for (const segment of segments) {
    const line = lines.at(-1);
    const height = segment.bottom - segment.top;
    if (line && Math.abs((line.top + line.bottom) / 2 - (segment.top + segment.bottom) / 2) <= Math.min(line.bottom - line.top, height) / 2) {
      line.cells.push(segment);
      line.cells.sort((a, b) => a.left - b.left);
      line.top = Math.min(line.top, segment.top);
      line.bottom = Math.max(line.bottom, segment.bottom);
      line.left = Math.min(line.left, segment.left);
      line.right = Math.max(line.right, segment.right);
      line.fontSize = widest(line.cells).fontSize;
    } else lines.push({ page, top: segment.top, bottom: segment.bottom, left: segment.left, right: segment.right, fontSize: segment.fontSize, cells: [segment] });
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
