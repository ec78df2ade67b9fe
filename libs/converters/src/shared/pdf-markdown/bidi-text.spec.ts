import { describe, expect, it } from 'vitest';
import { arabicLetters, bidiClass, lineDirection, reorderLine, strongDirection } from './bidi-text.js';

/** A string's code points in reverse: how a line of one right-to-left script alone is drawn. */
const reversed = (text: string) => [...text].reverse().join('');

describe('bidiClass: the Unicode bidi class of a character, as a line of a page needs it', () => {
  it.each([
    ['a', 'L'],
    ['Ж', 'L'],
    ['中', 'L'],
    ['א', 'R'],
    ['ש', 'R'],
    ['ب', 'AL'],
    ['ﻻ', 'AL'],
    ['ـ', 'AL'],
    ['7', 'EN'],
    ['٣', 'AN'],
    ['+', 'ES'],
    ['%', 'ET'],
    ['₪', 'ET'],
    [',', 'CS'],
    ['،', 'CS'],
    [' ', 'WS'],
    ['!', 'ON'],
    ['\u064E', 'NSM'],
    ['\u200F', 'R'],
    ['\u200E', 'L'],
  ])('%s is %s', (char, type) => {
    expect(bidiClass(char)).toBe(type);
  });
});

describe('strongDirection and lineDirection: which way a line reads, from its letters', () => {
  it('counts letters of right-to-left scripts against the others; digits and punctuation count for neither', () => {
    expect(strongDirection('שלום עולם')).toBe('rtl');
    expect(strongDirection('مرحبا يا Maria')).toBe('rtl');
    expect(strongDirection('Hello שלום world')).toBe('ltr');
    expect(strongDirection('2024. (12%)')).toBeUndefined();
    expect(strongDirection('ab בג')).toBeUndefined();
  });

  it('reads a line of one direction its own way, and a line mixing both or having neither the page\'s way', () => {
    expect(lineDirection('English only', 'rtl')).toBe('ltr');
    expect(lineDirection('עברית בלבד', 'ltr')).toBe('rtl');
    expect(lineDirection('دوست Maria Schmidt Berlin', 'rtl')).toBe('rtl');
    expect(lineDirection('Maria Schmidt שלום', 'ltr')).toBe('ltr');
    expect(lineDirection('2024', 'rtl')).toBe('rtl');
    expect(lineDirection('2024', 'ltr')).toBe('ltr');
  });
});

describe('reorderLine: a line laid out by the bidi algorithm, drawn order to logical and back', () => {
  it('reverses a line of one right-to-left script, a full stop at its end included', () => {
    expect(reorderLine('.ביבאב השדח הירפס החתפ הייריעה', true)).toBe('העירייה פתחה ספריה חדשה באביב.');
    expect(reorderLine(reversed('افتتحت المدينة مكتبة جديدة'), true)).toBe('افتتحت المدينة مكتبة جديدة');
  });

  it('keeps a Latin name and a number in a right-to-left line in their own order, the line around them read right to left', () => {
    // Drawn: ".2024 תנשב Maria Schmidt םע שגפנ דוד" (Chromium's PDF of "דוד נפגש עם Maria Schmidt בשנת 2024.").
    expect(reorderLine('.2024 תנשב Maria Schmidt םע שגפנ דוד', true)).toBe('דוד נפגש עם Maria Schmidt בשנת 2024.');
    expect(reorderLine('.2024 ماع يف Maria Schmidt عم دمحأ اهراز', true)).toBe('زارها أحمد مع Maria Schmidt في عام 2024.');
  });

  it('keeps numbers with their separators and signs whole (12.5%, 1,000, 3-4), and mirrors brackets', () => {
    expect(reorderLine('12.5% לש החנה', true)).toBe('הנחה של 12.5%');
    expect(reorderLine('1,000 םיפלא', true)).toBe('אלפים 1,000');
    expect(reorderLine('(הרעה) רפסמ', true)).toBe('מספר (הערה)');
    expect(reorderLine('3-4 םידומע', true)).toBe('עמודים 3-4');
  });

  it('leaves a left-to-right line alone and turns only a right-to-left word inside it', () => {
    expect(reorderLine('Page 3 of 12 (draft)', false)).toBe('Page 3 of 12 (draft)');
    expect(reorderLine('The word םולש means peace.', false)).toBe('The word שלום means peace.');
    expect(reorderLine('Maria Schmidt', true)).toBe('Maria Schmidt');
  });

  it('gives the drawn line back from the logical one (the same algorithm either way)', () => {
    for (const logical of ['דוד נפגש עם Maria Schmidt בשנת 2024.', 'زارها أحمد مع Maria Schmidt في عام 2024.', 'מספר (הערה) של 12.5%']) {
      expect(reorderLine(reorderLine(logical, true), true)).toBe(logical);
    }
  });
});

describe('arabicLetters: the presentation forms a PDF draws, read as letters', () => {
  it('maps the contextual shapes and the lam-alef ligature to the letters, and leaves other text alone', () => {
    expect(arabicLetters('ﺍﻟﻤﺪﻳﻨﺔ')).toBe('المدينة');
    expect(arabicLetters('ﻻ')).toBe('لا');
    expect(arabicLetters('المدينة ﬁne')).toBe('المدينة ﬁne');
  });
});
