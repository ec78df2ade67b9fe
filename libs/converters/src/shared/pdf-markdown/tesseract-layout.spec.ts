import { describe, expect, it } from 'vitest';
import { PdfMarkdownComposer, profileOf } from './pdf-markdown.composer.js';
import { fragmentText, type PdfPage, type TextFragment } from './pdf-page.js';
import { ocrPages } from './tesseract-layout.js';

// Tesseract's TSV written by hand: a header, a level 1 row per page (its picture's size), then per line a level 2
// block, 3 paragraph and 4 line row and a level 5 row per word, each with its box in the picture's pixels.

interface WordBox {
  left: number;
  top: number;
  width: number;
  height: number;
  text: string;
}

/** One picture: its size and its lines' words, in reading order. */
interface Picture {
  width: number;
  height: number;
  lines: WordBox[][];
}

const TSV_HEADER = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';

function tsvOf(...pictures: Picture[]): string {
  const row = (cells: Array<string | number>) => cells.join('\t');
  const rows = [TSV_HEADER];
  pictures.forEach((picture, index) => {
    const page = index + 1;
    rows.push(row([1, page, 0, 0, 0, 0, 0, 0, picture.width, picture.height, -1, '']));
    picture.lines.forEach((words, lineIndex) => {
      const block = lineIndex + 1;
      const box = boundsOf(words);
      rows.push(row([2, page, block, 0, 0, 0, box.left, box.top, box.width, box.height, -1, '']));
      rows.push(row([3, page, block, 1, 0, 0, box.left, box.top, box.width, box.height, -1, '']));
      rows.push(row([4, page, block, 1, 1, 0, box.left, box.top, box.width, box.height, -1, '']));
      words.forEach((word, wordIndex) => rows.push(row([5, page, block, 1, 1, wordIndex + 1, word.left, word.top, word.width, word.height, 91.5, word.text])));
    });
  });
  return `${rows.join('\n')}\n`;
}

function boundsOf(words: readonly WordBox[]): Omit<WordBox, 'text'> {
  const left = Math.min(...words.map((word) => word.left));
  const top = Math.min(...words.map((word) => word.top));
  return { left, top, width: Math.max(...words.map((word) => word.left + word.width)) - left, height: Math.max(...words.map((word) => word.top + word.height)) - top };
}

/** A line of words from `left`, 20 px a character, 12 px apart, each `height` high from `top`. */
function line(top: number, left: number, height: number, text: string): WordBox[] {
  let at = left;
  return text.split(' ').map((word) => {
    const box = { left: at, top, width: 20 * word.length, height, text: word };
    at += box.width + 12;
    return box;
  });
}

/** A line of cells, each a `line` of its own from its left edge. */
const cells = (top: number, height: number, ...cellTexts: Array<[left: number, text: string]>) => cellTexts.flatMap(([left, text]) => line(top, left, height, text));

/** A page with a heading (64 px) over three body lines 1–2 px apart in height (40, 41, 42). */
const UPRIGHT: Picture = {
  width: 1000,
  height: 1400,
  lines: [
    line(120, 100, 64, 'Annual Report'),
    line(240, 100, 40, 'The museum opened its new wing'),
    line(300, 100, 41, 'on a cold Tuesday morning and'),
    line(360, 100, 42, 'visitors queued along the river'),
  ],
};

/** Where an upright page's point lands on a picture of it turned `turn` degrees clockwise. */
function turnPoint(x: number, y: number, upright: { width: number; height: number }, turn: 90 | 180 | 270): [number, number] {
  if (turn === 90) return [upright.height - y, x];
  if (turn === 180) return [upright.width - x, upright.height - y];
  return [y, upright.width - x];
}

/** The picture tesseract would read of an upright page turned clockwise: each word's box is where its corners land. */
function turnedPicture(upright: Picture, turn: 90 | 180 | 270): Picture {
  const quarter = turn !== 180;
  return {
    width: quarter ? upright.height : upright.width,
    height: quarter ? upright.width : upright.height,
    lines: upright.lines.map((words) =>
      words.map((word) => {
        const [x1, y1] = turnPoint(word.left, word.top, upright, turn);
        const [x2, y2] = turnPoint(word.left + word.width, word.top + word.height, upright, turn);
        return { left: Math.min(x1, x2), top: Math.min(y1, y2), width: Math.abs(x2 - x1), height: Math.abs(y2 - y1), text: word.text };
      }),
    ),
  };
}

/**
 * The page scanned askew, its lines falling `slope` px a px to the right (rising when negative): each word's box is
 * moved down by slope × x and taller by |slope| × its width (the box around its turned corners), in whole pixels.
 */
function skewedPicture(upright: Picture, slope: number): Picture {
  return {
    ...upright,
    lines: upright.lines.map((words) =>
      words.map((word) => ({ ...word, top: Math.round(word.top + Math.min(slope * word.left, slope * (word.left + word.width))), height: Math.round(word.height + Math.abs(slope) * word.width) })),
    ),
  };
}

const texts = (page: PdfPage) => page.fragments.map((fragment) => fragmentText(fragment));
/** The fragments' numbers to a hundredth, so two computations of one layout compare equal. */
const rounded = (fragments: readonly TextFragment[]) =>
  fragments.map(({ top, left, width, height, fontSize, spans }) => ({ top: round(top), left: round(left), width: round(width), height: round(height), fontSize, text: spans.map((span) => span.text).join('') }));
const round = (value: number) => Math.round(value * 100) / 100;

describe('ocrPages: tesseract TSV as the pages the PDF Markdown reader takes', () => {
  it('makes a fragment of each line, its words joined, with one font size for body lines a pixel or two apart in height and a larger one for the heading', () => {
    const [page] = ocrPages(tsvOf(UPRIGHT));
    expect(page).toMatchObject({ number: 1, width: 1000, height: 1400 });
    expect(texts(page!)).toEqual(['Annual Report', 'The museum opened its new wing', 'on a cold Tuesday morning and', 'visitors queued along the river']);
    const [heading, ...body] = page!.fragments;
    expect(new Set(body.map((fragment) => fragment.fontSize))).toEqual(new Set([41]));
    expect(heading!.fontSize).toBe(64);
    for (const fragment of page!.fragments) expect(fragment.spans).toEqual([{ text: fragmentText(fragment), bold: false, italic: false }]);
    // A fragment spans its line's ink; its font size is the body's.
    expect(body[0]).toMatchObject({ top: 240, left: 100, height: 40 });
    expect(body[0]!.width).toBe(line(240, 100, 40, 'The museum opened its new wing').reduce((right, word) => Math.max(right, word.left + word.width), 0) - 100);
  });

  it.each([90, 180, 270] as const)('turns a page read %i° clockwise upright: the same fragments as the upright page', (turn) => {
    const [upright] = ocrPages(tsvOf(UPRIGHT));
    const [turned] = ocrPages(tsvOf(turnedPicture(UPRIGHT, turn)));
    expect({ width: turned!.width, height: turned!.height }).toEqual({ width: 1000, height: 1400 });
    expect(rounded(turned!.fragments)).toEqual(rounded(upright!.fragments));
  });

  it.each([0.026, -0.026])('takes a skew of 1.5° out (slope %d): a line is one row at its upright top, its size that of the upright body', (slope) => {
    const table = cells(420, 41, [100, 'Engine'], [420, 'Pages'], [700, 'Seconds']);
    const upright: Picture = { ...UPRIGHT, lines: [...UPRIGHT.lines, table] };
    const [straight] = ocrPages(tsvOf(upright));
    const [skewed] = ocrPages(tsvOf(skewedPicture(upright, slope)));
    expect(texts(skewed!)).toEqual(texts(straight!));
    // The table row's three cells: one top for all, where the upright row has it.
    const row = skewed!.fragments.slice(-3);
    expect(new Set(row.map((fragment) => fragment.top)).size).toBe(1);
    skewed!.fragments.forEach((fragment, index) => {
      const expected = straight!.fragments[index]!;
      expect(Math.abs(fragment.top - expected.top), fragmentText(fragment)).toBeLessThanOrEqual(1.5);
      // Whole-pixel boxes leave a pixel or so: within the 12% that makes two line heights one size.
      expect(Math.abs(fragment.fontSize / expected.fontSize - 1), fragmentText(fragment)).toBeLessThanOrEqual(0.05);
    });
    // Still one body size (the heading apart): a skewed line not straightened would be 20 px taller at its right end.
    const bodySizes = new Set(skewed!.fragments.slice(1).map((fragment) => fragment.fontSize));
    expect(bodySizes.size).toBe(1);
    expect(skewed!.fragments[0]!.fontSize).toBeGreaterThan([...bodySizes][0]! * 1.2);
  });

  it('leaves word boxes whose baselines climb less than a quarter of a degree as they are (noise, not a skew)', () => {
    // The last three words a pixel lower, over 600 px: a slope of about 0.002, which straightened would move the line.
    const words = line(240, 100, 40, 'The museum opened its new wing').map((word, index) => (index >= 3 ? { ...word, top: word.top + 1 } : word));
    const [page] = ocrPages(tsvOf({ width: 1000, height: 1400, lines: [words] }));
    expect(page!.fragments).toEqual([expect.objectContaining({ top: 240, height: 41, fontSize: 41 })]);
  });

  it('parts a line into runs at gaps wider than 1.2 line heights (table cells), words closer than that stay one run', () => {
    const picture: Picture = { width: 1000, height: 600, lines: [cells(100, 30, [100, 'ghost script'], [500, '120'], [800, '3.2']), line(200, 100, 30, 'near words stay one')] };
    const [page] = ocrPages(tsvOf(picture));
    expect(page!.fragments.map((fragment) => ({ text: fragmentText(fragment), left: fragment.left, width: fragment.width }))).toEqual([
      { text: 'ghost script', left: 100, width: 232 },
      { text: '120', left: 500, width: 60 },
      { text: '3.2', left: 800, width: 60 },
      { text: 'near words stay one', left: 100, width: 356 },
    ]);
  });

  it('parts a line at the bars tesseract reads a ruled table\'s lines as, and keeps no bar as text', () => {
    const picture: Picture = { width: 1000, height: 600, lines: [line(100, 100, 30, '| Engine | Pages ¦ Seconds │ ||'), line(200, 100, 30, 'a|b stays')] };
    const [page] = ocrPages(tsvOf(picture));
    expect(texts(page!)).toEqual(['Engine', 'Pages', 'Seconds', 'a|b stays']);
    expect(page!.fragments.slice(0, 3).map((fragment) => fragment.left)).toEqual([132, 296, 440]);
  });

  it('joins the words of Chinese and Japanese without spaces, Latin words and a Latin word after Chinese with one', () => {
    const picture: Picture = {
      width: 1000,
      height: 600,
      lines: [line(100, 100, 30, '光学 字符 识别'), line(160, 100, 30, 'ひらがな カタカナ 漢字'), line(220, 100, 30, 'plain Latin text'), line(280, 100, 30, '中文 OCR 结果')],
    };
    const [page] = ocrPages(tsvOf(picture));
    expect(texts(page!)).toEqual(['光学字符识别', 'ひらがなカタカナ漢字', 'plain Latin text', '中文 OCR 结果']);
  });

  it('multiplies positions and sizes by `scale` (a 300 dpi picture onto pdftohtml\'s 108 dpi)', () => {
    const [unscaled] = ocrPages(tsvOf(UPRIGHT));
    const [scaled] = ocrPages(tsvOf(UPRIGHT), 1, 0.36);
    expect({ width: scaled!.width, height: scaled!.height }).toEqual({ width: 360, height: 504 });
    scaled!.fragments.forEach((fragment, index) => {
      const original = unscaled!.fragments[index]!;
      expect(fragment.top).toBeCloseTo(original.top * 0.36, 6);
      expect(fragment.left).toBeCloseTo(original.left * 0.36, 6);
      expect(fragment.width).toBeCloseTo(original.width * 0.36, 6);
      expect(fragment.height).toBeCloseTo(original.height * 0.36, 6);
      expect(fragment.fontSize).toBe(Math.round(original.fontSize * 3.6) / 10);
    });
    expect(scaled!.fragments.map((fragment) => fragment.fontSize)).toEqual([23, 14.8, 14.8, 14.8]);
  });

  it('numbers the pages of a TSV from firstPageNumber, each with its own words and size', () => {
    const second: Picture = { width: 800, height: 1000, lines: [line(100, 50, 30, 'second page')] };
    const third: Picture = { width: 900, height: 1100, lines: [line(100, 50, 30, 'third page')] };
    const pages = ocrPages(tsvOf(UPRIGHT, second, third), 7);
    expect(pages.map((page) => ({ number: page.number, width: page.width, height: page.height, texts: texts(page) }))).toEqual([
      { number: 7, width: 1000, height: 1400, texts: texts(ocrPages(tsvOf(UPRIGHT))[0]!) },
      { number: 8, width: 800, height: 1000, texts: ['second page'] },
      { number: 9, width: 900, height: 1100, texts: ['third page'] },
    ]);
  });

  it('keeps a page without words, and ignores the header, rows of other levels and empty words', () => {
    const blank: Picture = { width: 800, height: 1000, lines: [] };
    const withEmpty = tsvOf(blank, { width: 800, height: 1000, lines: [line(100, 50, 30, 'word')] }).replace(/\n$/, '\n5\t2\t1\t1\t1\t2\t300\t100\t40\t30\t95\t \n');
    expect(ocrPages(withEmpty).map((page) => ({ number: page.number, texts: texts(page) }))).toEqual([
      { number: 1, texts: [] },
      { number: 2, texts: ['word'] },
    ]);
  });

  it('gives the PDF Markdown reader a scan\'s heading, paragraphs and table, as of a PDF with text', () => {
    // An A4 page at 300 dpi: body lines 44–46 px high at 62 px steps, 22 px a character, read at pdftohtml's 108 dpi.
    const wide = (top: number, height: number, text: string): WordBox[] => {
      let at = 250;
      return text.split(' ').map((word) => {
        const box = { left: at, top, width: 22 * word.length, height, text: word };
        at += box.width + 18;
        return box;
      });
    };
    const scan: Picture = {
      width: 2480,
      height: 3508,
      lines: [
        wide(300, 70, 'Annual Report'),
        wide(450, 44, 'The museum opened its new wing on a cold Tuesday morning. Visitors queued along the'),
        wide(512, 45, 'river to see paintings that had been stored in a basement for nearly forty years, and'),
        wide(574, 46, 'many of them stayed until six.'),
        wide(720, 45, 'The second paragraph starts after a wider gap than the lines of the first one have,'),
        // No descender: its ink spans three quarters of the others' (ascender to baseline).
        wide(782, 34, 'and it ends here.'),
        cells(930, 45, [250, 'Engine'], [1000, 'Pages'], [1600, 'Seconds']),
        cells(992, 44, [250, 'poppler'], [1000, '200'], [1600, '1.5']),
        cells(1054, 46, [250, 'ghostscript'], [1000, '120'], [1600, '3.2']),
      ],
    };
    const pages = ocrPages(tsvOf(scan), 1, 0.36);
    const chunks: string[] = [];
    const composer = new PdfMarkdownComposer(profileOf(pages), undefined, (chunk) => chunks.push(chunk));
    for (const page of pages) composer.page(page);
    composer.end();
    expect(chunks.join('')).toBe(
      '# Annual Report\n\n' +
        'The museum opened its new wing on a cold Tuesday morning. Visitors queued along the river to see paintings that had been stored in a basement for nearly forty years, and many of them stayed until six.\n\n' +
        'The second paragraph starts after a wider gap than the lines of the first one have, and it ends here.\n\n' +
        '| Engine | Pages | Seconds |\n| --- | --- | --- |\n| poppler | 200 | 1.5 |\n| ghostscript | 120 | 3.2 |\n',
    );
  });
});

/** The Markdown the PDF reader makes of OCR'd pages. */
function markdownOf(pages: PdfPage[]): string {
  const chunks: string[] = [];
  const composer = new PdfMarkdownComposer(profileOf(pages), undefined, (chunk) => chunks.push(chunk));
  for (const page of pages) composer.page(page);
  composer.end();
  return chunks.join('');
}

/**
 * A line as tesseract lists it: `drawn` its words left to right on the page (each as tesseract spells it), `read`
 * the order tesseract lists them in (indices into `drawn`). 20 px a character, 12 px apart, from `left`.
 */
function listed(top: number, left: number, height: number, drawn: string[], read: number[]): WordBox[] {
  const boxes = line(top, left, height, drawn.join(' '));
  return read.map((index) => boxes[index]!);
}

/** A line of one right-to-left script as tesseract lists it: its words in reading order, from the right edge leftwards. */
const rtlLine = (top: number, right: number, height: number, text: string): WordBox[] => {
  const words = text.split(' ');
  const width = words.reduce((sum, word) => sum + 20 * word.length + 12, -12);
  return listed(top, right - width, height, [...words].reverse(), words.map((_, index) => words.length - 1 - index));
};

describe('ocrPages: right-to-left pages (Arabic, Hebrew)', () => {
  const HEBREW: Picture = {
    width: 1000,
    height: 1400,
    lines: [
      rtlLine(120, 900, 40, 'העירייה פתחה ספרייה חדשה באביב, וכל'),
      rtlLine(180, 900, 40, 'יום מגיעים אליה סטודנטים כדי לקרוא'),
      rtlLine(240, 900, 40, 'ספרים ולהתכונן לבחינות.'),
    ],
  };
  const HEBREW_TEXT = 'העירייה פתחה ספרייה חדשה באביב, וכל יום מגיעים אליה סטודנטים כדי לקרוא ספרים ולהתכונן לבחינות.';

  it('reads a page whose words tesseract lists right to left as upright: its lines top to bottom, each read right to left', () => {
    const [page] = ocrPages(tsvOf(HEBREW));
    expect(page!.fragments.map((fragment) => fragment.top)).toEqual([120, 180, 240]);
    // Each run as drawn, left to right (as pdftohtml writes a PDF's), for the reader to take back.
    expect(texts(page!)[2]).toBe([...'ספרים ולהתכונן לבחינות.'].reverse().join(''));
    expect(markdownOf([page!])).toBe(`${HEBREW_TEXT}\n`);
  });

  it('turns a right-to-left page read upside down or sideways upright, as a left-to-right one', () => {
    for (const turn of [90, 180, 270] as const) {
      const [turned] = ocrPages(tsvOf(turnedPicture(HEBREW, turn)));
      expect(markdownOf([turned!]), `${turn}°`).toBe(`${HEBREW_TEXT}\n`);
    }
  });

  it('keeps a Latin name and a year in their order inside an Arabic line, however tesseract ordered the line', () => {
    const drawn = ['2024.', 'عام', 'في', 'Maria', 'Schmidt', 'مع', 'أحمد', 'زارها'];
    const arabicLines = [rtlLine(120, 900, 40, 'افتتحت المدينة مكتبة جديدة في فصل'), rtlLine(180, 900, 40, 'الربيع ويزورها الطلاب كل يوم.')];
    const expected = 'افتتحت المدينة مكتبة جديدة في فصل الربيع ويزورها الطلاب كل يوم.\n\nزارها أحمد مع Maria Schmidt في عام 2024.\n';
    // Read right to left: "Maria Schmidt" listed left to right inside it, "2024." as read in a right-to-left line.
    const readRtl = listed(300, 100, 40, drawn, [7, 6, 5, 3, 4, 2, 1, 0]);
    // Read left to right (tesseract guesses a mixed line's direction): its right-to-left runs listed in reading order.
    const readLtr = listed(300, 100, 40, ['.2024', ...drawn.slice(1)], [0, 2, 1, 3, 4, 7, 6, 5]);
    for (const mixed of [readRtl, readLtr]) {
      const [page] = ocrPages(tsvOf({ width: 1000, height: 1400, lines: [...arabicLines, mixed] }));
      expect(markdownOf([page!])).toBe(expected);
    }
  });

  it('drops the direction marks tesseract puts after a word read against its line', () => {
    const marked = rtlLine(120, 900, 40, 'שלום עולם Maria\u200F').map((word) => ({ ...word, text: word.text.replace('עולם', 'עולם\u200E') }));
    const [page] = ocrPages(tsvOf({ width: 1000, height: 600, lines: [marked] }));
    expect(markdownOf([page!])).toBe('שלום עולם Maria\n');
  });

  it('reads a right-to-left table from its right-hand column, and two columns right one first', () => {
    const rtlCells = (top: number, ...cellTexts: Array<[right: number, text: string]>) => cellTexts.flatMap(([right, text]) => rtlLine(top, right, 40, text));
    const table: Picture = {
      width: 1400,
      height: 1400,
      lines: [rtlCells(100, [1300, 'עיר'], [900, 'מדינה'], [500, 'תושבים']), rtlCells(160, [1300, 'חיפה'], [900, 'ישראל'], [500, '285000']), rtlCells(220, [1300, 'אילת'], [900, 'ישראל'], [500, '52000'])],
    };
    expect(markdownOf(ocrPages(tsvOf(table)))).toBe('| עיר | מדינה | תושבים |\n| --- | --- | --- |\n| חיפה | ישראל | 285000 |\n| אילת | ישראל | 52000 |\n');
    const right = ['טור ימין שורה ראשונה', 'טור ימין שורה שנייה', 'טור ימין שורה שלישית', 'טור ימין שורה רביעית.'];
    const left = ['טור שמאל שורה ראשונה', 'טור שמאל שורה שנייה', 'טור שמאל שורה שלישית', 'טור שמאל שורה רביעית.'];
    const columns: Picture = { width: 1400, height: 1400, lines: right.flatMap((text, index) => [rtlLine(100 + 50 * index, 1300, 36, text), rtlLine(100 + 50 * index, 640, 36, left[index]!)]) };
    expect(markdownOf(ocrPages(tsvOf(columns)))).toBe(`${right.join(' ')}\n\n${left.join(' ')}\n`);
  });
});
