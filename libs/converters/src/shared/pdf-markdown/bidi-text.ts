/**
 * Right-to-left text, after the Unicode bidirectional algorithm (UAX #9) for one line without explicit embeddings:
 * pdftohtml writes a line's characters in the order they are drawn, left to right (an Arabic or Hebrew word comes out
 * reversed), and the same reordering that draws a line from its logical order gives that order back from the drawn
 * one. Characters are classed by script and category, as close to the Unicode bidi classes as a line of a page needs.
 */
export type BidiClass = 'L' | 'R' | 'AL' | 'EN' | 'AN' | 'ES' | 'ET' | 'CS' | 'NSM' | 'WS' | 'ON';

const ARABIC_LETTER = /[\p{Script_Extensions=Arabic}\p{Script=Syriac}\p{Script=Thaana}\u061C]/u;
const HEBREW_LETTER = /[\p{Script=Hebrew}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Nko}\p{Script=Adlam}\u200F]/u;
const ARABIC_DIGIT = /[\u0660-\u0669\u066B\u066C]/u;
const TERMINATOR = /[#$%°\u00A2-\u00A5\u066A\u2030\u2031\u20A0-\u20CF]/u;
const SEPARATOR = /[,.:/\u00A0\u060C\u202F]/u;
/** Letters of a right-to-left script, or a right-to-left mark. */
const STRONG_RTL = /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Hebrew}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Nko}\p{Script=Adlam}]/u;
/** Marks that only steer a renderer's bidi: they carry no text. */
export const BIDI_CONTROLS = /[\u200E\u200F\u061C\u202A-\u202E\u2066-\u2069]/gu;
/** What a mirrored glyph is read as in right-to-left text. */
const MIRRORED: Readonly<Record<string, string>> = { '(': ')', ')': '(', '[': ']', ']': '[', '{': '}', '}': '{', '<': '>', '>': '<', '«': '»', '»': '«', '‹': '›', '›': '‹' };

export function bidiClass(char: string): BidiClass {
  if (/\p{Mn}|\p{Me}/u.test(char)) return 'NSM';
  if (ARABIC_DIGIT.test(char)) return 'AN';
  if (/\p{Nd}/u.test(char)) return 'EN';
  if (char === '\u200E') return 'L';
  if (ARABIC_LETTER.test(char) && (/\p{L}/u.test(char) || char === '\u061C')) return 'AL';
  if (HEBREW_LETTER.test(char) && (/\p{L}/u.test(char) || char === '\u200F')) return 'R';
  if (/\p{L}|\p{Mc}/u.test(char)) return 'L';
  if (/[+\-\u2212]/.test(char)) return 'ES';
  if (TERMINATOR.test(char)) return 'ET';
  if (SEPARATOR.test(char)) return 'CS';
  if (/\s/u.test(char)) return 'WS';
  return 'ON';
}

/** The direction most of a text's strong characters have, or undefined when it has none (digits, punctuation) or as many of each. */
export function strongDirection(text: string): 'rtl' | 'ltr' | undefined {
  // Most pages have no right-to-left letter: one look tells.
  if (!STRONG_RTL.test(text)) return /\p{L}/u.test(text) ? 'ltr' : undefined;
  let rtl = 0;
  let ltr = 0;
  for (const char of text) {
    if (STRONG_RTL.test(char) && /\p{L}/u.test(char)) rtl++;
    else if (/\p{L}/u.test(char)) ltr++;
  }
  return rtl > ltr ? 'rtl' : ltr > rtl ? 'ltr' : undefined;
}

/** Whether a text holds any letter of a right-to-left script (else no reordering can change it). */
export const hasRightToLeft = (text: string) => STRONG_RTL.test(text);

/**
 * The direction a line is read in: its own when all its letters are of one direction, the page's (or block's) when it
 * mixes them (an Arabic sentence naming a Latin name) or has none (a row of figures).
 */
export function lineDirection(text: string, pageDirection: 'rtl' | 'ltr'): 'rtl' | 'ltr' {
  const hasRtl = STRONG_RTL.test(text);
  const hasLtr = hasRtl ? [...text].some((char) => /\p{L}/u.test(char) && !STRONG_RTL.test(char)) : /\p{L}/u.test(text);
  if (hasRtl && !hasLtr) return 'rtl';
  if (hasLtr && !hasRtl) return 'ltr';
  return pageDirection;
}

/**
 * Pure: the characters of a line (code points) as the bidi algorithm lays them out for a base direction, each with
 * the index it came from (brackets inside right-to-left text mirrored). Applied to a line in logical order it gives
 * the drawn order; applied to a drawn line, the logical one (the levels come out alike either way for a line's text).
 */
export function bidiOrder(chars: readonly string[], rtl: boolean): Array<{ from: number; char: string }> {
  const base = rtl ? 1 : 0;
  const sos = rtl ? 'R' : 'L';
  const types = chars.map(bidiClass);
  // W1: a combining mark takes the class of what it combines with.
  types.forEach((type, index) => {
    if (type === 'NSM') types[index] = index === 0 ? sos : types[index - 1]!;
  });
  // W2, W3: European digits after an Arabic letter are Arabic digits; Arabic letters are then right-to-left letters.
  let strong: BidiClass = sos;
  types.forEach((type, index) => {
    if (type === 'EN' && strong === 'AL') types[index] = 'AN';
    if (type === 'L' || type === 'R' || type === 'AL') strong = type;
  });
  types.forEach((type, index) => {
    if (type === 'AL') types[index] = 'R';
  });
  // W4: one separator between two numbers of a kind joins them (1,000 · 3.5 · 2-3).
  for (let index = 1; index < types.length - 1; index++) {
    const [before, type, after] = [types[index - 1], types[index], types[index + 1]];
    if (type === 'ES' && before === 'EN' && after === 'EN') types[index] = 'EN';
    else if (type === 'CS' && before === after && (before === 'EN' || before === 'AN')) types[index] = before!;
  }
  // W5: terminators (%, $, °) beside a European number belong to it.
  for (let index = 0; index < types.length; index++) {
    if (types[index] !== 'ET') continue;
    let end = index;
    while (types[end] === 'ET') end++;
    if (types[index - 1] === 'EN' || types[end] === 'EN') types.fill('EN', index, end);
    index = end - 1;
  }
  // W6, W7: other separators are neutral; a European number after a left-to-right letter is left to right.
  strong = sos;
  types.forEach((type, index) => {
    if (type === 'ES' || type === 'ET' || type === 'CS') types[index] = 'ON';
    else if (type === 'EN' && strong === 'L') types[index] = 'L';
    if (type === 'L' || type === 'R') strong = type;
  });
  // N1, N2: a run of neutrals between two of one direction (numbers read as right to left) takes it, else the base's.
  const directionOf = (type: BidiClass | undefined): 'L' | 'R' | undefined => (type === 'L' ? 'L' : type === 'R' || type === 'EN' || type === 'AN' ? 'R' : undefined);
  for (let index = 0; index < types.length; index++) {
    if (directionOf(types[index])) continue;
    let end = index;
    while (end < types.length && !directionOf(types[end])) end++;
    const before = index === 0 ? sos : directionOf(types[index - 1]);
    const after = end === types.length ? sos : directionOf(types[end]);
    types.fill(before === after ? before! : sos, index, end);
    index = end - 1;
  }
  // I1, I2: the embedding levels.
  const levels = types.map((type) => {
    if (base === 0) return type === 'R' ? 1 : type === 'AN' || type === 'EN' ? 2 : 0;
    return type === 'L' || type === 'EN' || type === 'AN' ? 2 : 1;
  });
  // L1: white space at the line's end is at the base level.
  for (let index = chars.length - 1; index >= 0 && /\s/u.test(chars[index]!); index--) levels[index] = base;
  // L2: from the highest level down to the lowest odd one, every run at that level or above is reversed.
  const order = chars.map((_, index) => index);
  const highest = Math.max(base, ...levels);
  for (let level = highest; level >= 1; level--) {
    for (let index = 0; index < order.length; index++) {
      if (levels[order[index]!]! < level) continue;
      let end = index;
      while (end < order.length && levels[order[end]!]! >= level) end++;
      order.splice(index, end - index, ...order.slice(index, end).reverse());
      index = end;
    }
  }
  return order.map((from) => ({ from, char: levels[from]! % 2 === 1 && chars[from]! in MIRRORED ? MIRRORED[chars[from]!]! : chars[from]! }));
}

/** Pure: a line's text laid out again by the bidi algorithm (drawn order to logical, or logical to drawn). */
export const reorderLine = (text: string, rtl: boolean): string =>
  bidiOrder([...text], rtl)
    .map(({ char }) => char)
    .join('');

/** Arabic presentation forms (the shapes a PDF's font draws) as the letters they are: pdftotext reads them so too. */
export const arabicLetters = (text: string) => text.replace(/[\uFB50-\uFDFF\uFE70-\uFEFF]+/gu, (forms) => forms.normalize('NFKC'));
