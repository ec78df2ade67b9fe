import { ConversionError } from '../../platform/conversion-error.js';
import { selectedPages } from '../../platform/conversion-options.js';

/**
 * Pure: the pages a conversion works on, in order — the `pages` option within the document, or every page —
 * refused when none exists or when there are more than the engine's page limit.
 */
export function pagesWithinLimit(pages: string | undefined, pageCount: number, maxPages: number | undefined): number[] {
  const selected = selectedPages(pages, pageCount);
  if (selected.length === 0) {
    throw new ConversionError('unsupported_or_corrupt_input', `The PDF has ${pageCount} page${pageCount === 1 ? '' : 's'}: none of the pages asked for (${pages}) exists.`);
  }
  if (maxPages !== undefined && selected.length > maxPages) {
    const hint = pages ? 'ask for fewer pages' : `choose at most ${maxPages} with the pages option, e.g. "1-${maxPages}"`;
    throw new ConversionError('file_too_large', `This conversion would work on ${selected.length} pages; it takes at most ${maxPages} pages at a time: ${hint}.`);
  }
  return selected;
}

/** Pure: sorted page numbers as runs of consecutive pages, [first, last] each. */
export function pageRanges(pages: readonly number[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const page of pages) {
    const current = ranges.at(-1);
    if (current && page === current[1] + 1) current[1] = page;
    else ranges.push([page, page]);
  }
  return ranges;
}

/** Pure: "1-3,5" for pages 1, 2, 3 and 5 (Ghostscript's -sPageList syntax). */
export const pageListText = (pages: readonly number[]) => pageRanges(pages).map(([first, last]) => (first === last ? `${first}` : `${first}-${last}`)).join(',');
