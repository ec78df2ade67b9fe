/**
 * The characters a stamp may hold: those of WinAnsiEncoding (Windows-1252: Latin-1's printable characters and the
 * euro, curly quotes, dashes…), the encoding of the standard font it is drawn in. Pure: the API checks a stamp's text
 * with it before payment.
 */

/** WinAnsi's codes 0x80..0x9F, which Latin-1 leaves to control characters. */
const WIN_ANSI_EXTRAS: ReadonlyMap<string, number> = new Map([
  ['€', 0x80], ['‚', 0x82], ['ƒ', 0x83], ['„', 0x84], ['…', 0x85], ['†', 0x86], ['‡', 0x87], ['ˆ', 0x88], ['‰', 0x89],
  ['Š', 0x8a], ['‹', 0x8b], ['Œ', 0x8c], ['Ž', 0x8e], ['‘', 0x91], ['’', 0x92], ['“', 0x93], ['”', 0x94], ['•', 0x95],
  ['–', 0x96], ['—', 0x97], ['˜', 0x98], ['™', 0x99], ['š', 0x9a], ['›', 0x9b], ['œ', 0x9c], ['ž', 0x9e], ['Ÿ', 0x9f],
]);

/** Pure: the WinAnsi codes of `text`, or undefined when a character has none (another script, a control character). */
export function winAnsiCodes(text: string): number[] | undefined {
  const codes: number[] = [];
  for (const char of text) {
    const point = char.codePointAt(0)!;
    const code = (point >= 0x20 && point <= 0x7e) || (point >= 0xa0 && point <= 0xff) ? point : WIN_ANSI_EXTRAS.get(char);
    if (code === undefined) return undefined;
    codes.push(code);
  }
  return codes;
}

/** Pure: whether `text` can be stamped: WinAnsi characters only, and something to see. */
export const isStampText = (text: string): boolean => /\S/.test(text) && winAnsiCodes(text) !== undefined;

/**
 * Helvetica-Bold's advance widths (thousandths of the font size) of WinAnsi codes 32..255, as Adobe's metrics give
 * them (taken from URW's metric-compatible Nimbus Sans Bold AFM); 0 where WinAnsi has no character. A viewer draws
 * the standard font with these widths: the stamp is centred with them.
 */
const HELVETICA_BOLD_WIDTHS: readonly number[] = [
  278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
  975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
  333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584, 0,
  556, 0, 278, 556, 500, 1000, 556, 556, 333, 1000, 667, 333, 1000, 0, 611, 0, 0, 278, 278, 500, 500, 350, 556, 1000, 333, 1000, 556, 333, 944, 0, 500, 667,
  278, 333, 556, 556, 556, 556, 280, 556, 333, 737, 370, 556, 584, 333, 737, 333, 400, 584, 333, 333, 333, 611, 556, 278, 333, 333, 365, 556, 834, 834, 834, 611,
  722, 722, 722, 722, 722, 722, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278, 722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
  556, 556, 556, 556, 556, 556, 889, 556, 556, 556, 556, 556, 278, 278, 278, 278, 611, 611, 611, 611, 611, 611, 611, 584, 611, 611, 611, 611, 611, 556, 611, 556,
];
const FIRST_CODE = 32;

/** Helvetica-Bold's cap height and descent, in thousandths of the font size (Adobe's AFM). */
export const HELVETICA_BOLD_CAP_HEIGHT = 718;
export const HELVETICA_BOLD_DESCENT = 207;

/** Pure: the width of WinAnsi codes drawn in Helvetica-Bold, in thousandths of the font size. */
export const helveticaBoldWidth = (codes: readonly number[]): number => codes.reduce((sum, code) => sum + (HELVETICA_BOLD_WIDTHS[code - FIRST_CODE] ?? 0), 0);
