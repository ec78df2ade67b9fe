import { ConversionError } from '../../platform/conversion-error.js';

/** At most this many ranges in `split.ranges`: each part is a qpdf run of its own. */
export const MAX_SPLIT_RANGES = 100;

/** Pure: the ranges of "1-3,4-7,9", each [first, last], in the caller's order. The option's regex has checked the syntax. */
export function parseRanges(ranges: string): Array<[number, number]> {
  return ranges.split(',').map((range) => {
    const [first, last = first] = range.split('-').map(Number) as [number, number?];
    return [first, last];
  });
}

/** Pure, for the option schema: each range runs forward ("4-7", not "7-4"). */
export const rangesRunForward = (ranges: string): boolean => parseRanges(ranges).every(([first, last]) => first <= last);

/** Pure, for the option schema: at most MAX_SPLIT_RANGES ranges. */
export const rangesCountWithin = (ranges: string): boolean => ranges.split(',').length <= MAX_SPLIT_RANGES;

/**
 * Pure: the parts a split makes of a PDF of `pageCount` pages, each [first, last]: every `every` pages (the last part
 * what is left), or one part per range. A range running past the end is cut at the last page; one that starts past it
 * is refused.
 */
export function splitParts(split: { every?: number; ranges?: string }, pageCount: number): Array<[number, number]> {
  if (split.ranges !== undefined) {
    return parseRanges(split.ranges).map(([first, last], index) => {
      if (first > pageCount) {
        throw new ConversionError('unsupported_or_corrupt_input', `The PDF has ${pageCount} page${pageCount === 1 ? '' : 's'}: part ${index + 1} of the split (${first === last ? first : `${first}-${last}`}) starts past its end.`);
      }
      return [first, Math.min(last, pageCount)];
    });
  }
  const every = split.every ?? 1;
  return Array.from({ length: Math.ceil(pageCount / every) }, (_, index): [number, number] => [index * every + 1, Math.min((index + 1) * every, pageCount)]);
}

/** Pure: the name of part `index` (0-based) of `count` in the ZIP: part-001.pdf…, wider past 999 parts, so names sort in order. */
export const partName = (index: number, count: number) => `part-${String(index + 1).padStart(Math.max(3, String(count).length), '0')}.pdf`;
