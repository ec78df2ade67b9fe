import { lineText, type Segment } from './page-lines.js';

/** Headers and footers sit in the top or bottom part of a page this large. */
const MARGIN_SHARE = 0.15;

/**
 * Pure: what a row in a page's top or bottom margin says once page numbers are left out ("Page 3 of 9" and
 * "Page 4 of 9" read alike), with the margin it sits in and its font size; undefined for rows outside the margins.
 */
export function runningKey(row: readonly Segment[], pageHeight: number): string | undefined {
  const top = Math.min(...row.map((segment) => segment.top));
  const bottom = Math.max(...row.map((segment) => segment.bottom));
  const zone = bottom <= pageHeight * MARGIN_SHARE ? 'top' : top >= pageHeight * (1 - MARGIN_SHARE) ? 'bottom' : undefined;
  if (!zone) return undefined;
  const text = lineText({ cells: row })
    .toLowerCase()
    // Roman page numbers ("iv", "page iv") as well as arabic ones.
    .replace(/^(\W*(?:page\s+)?)[ivxlc]+(\W*)$/, '$1#$2')
    .replace(/\d+/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
  // The size is part of it: a title page's large title is no running header of the same words.
  const size = Math.round(Math.max(...row.map((segment) => segment.fontSize)));
  return text ? `${zone}:${size}:${text}` : undefined;
}
