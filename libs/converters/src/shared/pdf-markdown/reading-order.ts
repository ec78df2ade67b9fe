import { spansText, type Segment } from './page-lines.js';

/** Columns are only looked for when each side holds this many segments. */
const MIN_COLUMN_SEGMENTS = 4;
/** A column's lines fill at least this share of its width (prose, not the cells of a table). */
const MIN_COLUMN_FILL = 0.5;
/** The gutter search costs candidates × segments: a page of more segments (no real page of prose) is one flow. */
const MAX_SEGMENTS_FOR_COLUMNS = 1500;

/**
 * Pure: the page's segments in reading order, as flows (a new flow where the reading jumps: to the top of
 * the right column). A two-column page is found by a gutter: an empty vertical band near the middle with
 * prose on both sides. Segments crossing the gutter (a full-width title, a wide paragraph) end the columns
 * above them and start new ones below: left column, then right, band after band — right, then left, on a page
 * most of whose text reads right to left.
 */
export function readingOrder(segments: readonly Segment[]): Segment[][] {
  const sorted = [...segments].sort((a, b) => a.top - b.top || a.left - b.left);
  const gutter = findGutter(sorted);
  if (gutter === undefined) return sorted.length > 0 ? [sorted] : [];
  const rightFirst = mostlyRightToLeft(sorted);
  const flows: Segment[][] = [];
  let left: Segment[] = [];
  let right: Segment[] = [];
  const closeBand = () => {
    for (const column of rightFirst ? [right, left] : [left, right]) if (column.length > 0) flows.push(column);
    left = [];
    right = [];
  };
  for (const segment of sorted) {
    if (segment.right <= gutter.from) left.push(segment);
    else if (segment.left >= gutter.to) right.push(segment);
    else {
      closeBand();
      // Full width: it joins the flow before it when that flow is full width too.
      const last = flows.at(-1);
      if (last && last.every((other) => other.left < gutter.to && other.right > gutter.from)) last.push(segment);
      else flows.push([segment]);
    }
  }
  closeBand();
  return flows;
}

/** The widest empty band between a prose column on the left and one on the right, if there is one. */
function findGutter(segments: readonly Segment[]): { from: number; to: number } | undefined {
  if (segments.length < MIN_COLUMN_SEGMENTS * 2 || segments.length > MAX_SEGMENTS_FOR_COLUMNS) return undefined;
  const textLeft = Math.min(...segments.map((segment) => segment.left));
  const textRight = Math.max(...segments.map((segment) => segment.right));
  const width = textRight - textLeft;
  const fontSize = median(segments.map((segment) => segment.fontSize));
  let best: { from: number; to: number; score: number; leftSegments: number } | undefined;
  // Candidate gutters start where a left-hand segment ends, within the middle half of the text.
  for (const edge of new Set(segments.map((segment) => Math.round(segment.right)))) {
    if (edge < textLeft + width * 0.25 || edge > textLeft + width * 0.75) continue;
    const leftSide = segments.filter((segment) => segment.right <= edge);
    const after = segments.filter((segment) => segment.left >= edge).map((segment) => segment.left);
    if (after.length === 0) continue;
    const to = Math.min(...after);
    if (to - edge < fontSize || to > textLeft + width * 0.8) continue;
    const rightSide = segments.filter((segment) => segment.left >= to);
    if (leftSide.length < MIN_COLUMN_SEGMENTS || rightSide.length < MIN_COLUMN_SEGMENTS) continue;
    if (!sideBySide(leftSide, rightSide)) continue;
    if (median(leftSide.map((s) => s.right - s.left)) < (edge - textLeft) * MIN_COLUMN_FILL) continue;
    if (median(rightSide.map((s) => s.right - s.left)) < (textRight - to) * MIN_COLUMN_FILL) continue;
    const score = Math.min(leftSide.length, rightSide.length);
    // Of two gutters as good, the one with more of the left column beside it: a ragged right edge (a line ending
    // further right) must not put that line across the gutter and cut the columns short.
    if (!best || score > best.score || (score === best.score && leftSide.length > best.leftSegments)) best = { from: edge, to, score, leftSegments: leftSide.length };
  }
  return best && { from: best.from, to: best.to };
}

/** The two sides share most of their height (columns), not one above the other. */
function sideBySide(left: readonly Segment[], right: readonly Segment[]): boolean {
  const span = (side: readonly Segment[]) => ({ top: Math.min(...side.map((s) => s.top)), bottom: Math.max(...side.map((s) => s.bottom)) });
  const a = span(left);
  const b = span(right);
  const overlap = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return overlap > 0.5 * Math.min(a.bottom - a.top, b.bottom - b.top);
}

/** Most of the segments' characters are in lines read right to left. */
function mostlyRightToLeft(segments: readonly Segment[]): boolean {
  let rtl = 0;
  let all = 0;
  for (const segment of segments) {
    const length = spansText(segment.spans).length;
    all += length;
    if (segment.rtl) rtl += length;
  }
  return rtl * 2 > all;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}
