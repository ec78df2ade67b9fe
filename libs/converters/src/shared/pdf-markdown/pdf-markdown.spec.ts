import { describe, expect, it } from 'vitest';
import { pdf2XmlToMarkdown } from './pdf-markdown.composer.js';
import { Pdf2XmlError, readPdf2Xml } from './pdf2xml.reader.js';

// pdftohtml -xml output written by hand: fonts 0 body (17 px), 1 and 2 headings (30, 23), 3 small print (12).
const FONTS = [17, 30, 23, 12].map((size, id) => `\t<fontspec id="${id}" size="${size}" family="Times" color="#000000"/>`);
const PAGE_HEIGHT = 1262;
const PAGE_WIDTH = 892;

/** A `<text>` line; its width from its length unless given (8 px a character at 17 px). */
function t(top: number, left: number, content: string, { font = 0, width }: { font?: number; width?: number } = {}): string {
  const chars = content.replace(/<[^>]*>/g, '').replace(/&\w+;/g, 'x').length;
  return `<text top="${top}" left="${left}" width="${width ?? chars * 8}" height="21" font="${font}">${content}</text>`;
}

function xml(...pages: string[][]): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE pdf2xml SYSTEM "pdf2xml.dtd">',
    '',
    '<pdf2xml producer="poppler" version="22.12.0">',
    ...pages.flatMap((lines, index) => [
      `<page number="${index + 1}" position="absolute" top="0" left="0" height="${PAGE_HEIGHT}" width="${PAGE_WIDTH}">`,
      ...(index === 0 ? FONTS : []),
      ...lines,
      '</page>',
    ]),
    '</pdf2xml>',
    '',
  ].join('\n');
}

const markdown = (title?: string, ...pages: string[][]) => pdf2XmlToMarkdown([xml(...pages)], title);
/** Lines of a paragraph at 20 px steps from `top`, each 680 px wide (a full line) but the last. */
const paragraph = (top: number, lines: string[], left = 85) => lines.map((line, i) => t(top + i * 20, left, line, { width: i < lines.length - 1 ? 680 : undefined }));

describe('Pdf2XmlReader: pdftohtml XML and nothing else', () => {
  it('reads pages of positioned text with font sizes, bold, italic and links', () => {
    const [page] = readPdf2Xml(xml([t(100, 85, '<b>Bold</b> and <i>italic</i> &amp; <a href="https://example.com/a?b=1&amp;c=2">a link</a> &lt;b&gt;', { width: 300 })]));
    expect(page).toMatchObject({ number: 1, height: PAGE_HEIGHT, width: PAGE_WIDTH });
    expect(page!.fragments).toEqual([
      {
        top: 100,
        left: 85,
        width: 300,
        height: 21,
        fontSize: 17,
        spans: [
          { text: 'Bold', bold: true, italic: false },
          { text: ' and ', bold: false, italic: false },
          { text: 'italic', bold: false, italic: true },
          { text: ' & ', bold: false, italic: false },
          { text: 'a link', bold: false, italic: false, href: 'https://example.com/a?b=1&c=2' },
          { text: ' <b>', bold: false, italic: false },
        ],
      },
    ]);
  });

  it('keeps only http(s) and mailto link targets', () => {
    const [page] = readPdf2Xml(xml([t(100, 85, '<a href="javascript:alert(1)">x</a><a href="doc.html#2">y</a><a href="mailto:a@example.com">z</a>')]));
    expect(page!.fragments[0]!.spans).toEqual([
      { text: 'xy', bold: false, italic: false },
      { text: 'z', bold: false, italic: false, href: 'mailto:a@example.com' },
    ]);
  });

  it('ignores the font family, which pdftohtml copies from the PDF unescaped', () => {
    const hostileFont = '\t<fontspec id="0" size="36" family="Evil;}</style><script>alert(1)</script>" y="<!DOCTYPE" color="#000000"/>';
    const document = xml([]).replace('<page number="1" position="absolute" top="0" left="0" height="1262" width="892">', (page) => `${page}\n${hostileFont}\n${t(100, 85, 'Hover me')}`);
    expect(readPdf2Xml(document)[0]!.fragments[0]).toMatchObject({ fontSize: 36, spans: [{ text: 'Hover me' }] });
  });

  it('skips the outline pdftohtml writes after the pages', () => {
    const document = xml([t(100, 85, 'Text')]).replace('</pdf2xml>', '<outline>\n<item page="1">Intro</item>\n<outline>\n<item page="1">Part</item>\n</outline>\n</outline>\n</pdf2xml>');
    expect(readPdf2Xml(document)).toHaveLength(1);
  });

  it('refuses any DOCTYPE but pdftohtml\'s own, an internal subset and entity declarations', () => {
    const good = xml([t(100, 85, 'Text')]);
    const hostile = [
      good.replace('<!DOCTYPE pdf2xml SYSTEM "pdf2xml.dtd">', '<!DOCTYPE pdf2xml [<!ENTITY lol "lol">]>'),
      good.replace('<!DOCTYPE pdf2xml SYSTEM "pdf2xml.dtd">', '<!DOCTYPE pdf2xml SYSTEM "file:///etc/passwd">'),
      good.replace('<!DOCTYPE pdf2xml SYSTEM "pdf2xml.dtd">', '<!DOCTYPE pdf2xml SYSTEM "pdf2xml.dtd" [\n<!ENTITY x SYSTEM "file:///etc/passwd">\n]>'),
      good.replace('<!DOCTYPE pdf2xml SYSTEM "pdf2xml.dtd">', '<!DOCTYPE pdf2xml SYSTEM "pdf2xml.dtd">\n<!DOCTYPE pdf2xml SYSTEM "pdf2xml.dtd">'),
      good.replace('<pdf2xml producer', '<!ENTITY x "y">\n<pdf2xml producer'),
      good.replace('>Text<', '>&x;<'),
      good.replace('>Text<', '>&lol;&lol;<'),
    ];
    for (const document of hostile) expect(() => readPdf2Xml(document), document).toThrow(Pdf2XmlError);
  });

  it('refuses malformed XML: cut short, unknown markup, unbalanced tags, an undeclared font', () => {
    const good = xml([t(100, 85, 'Text')]);
    const malformed = [
      good.replace('</pdf2xml>', ''),
      good.replace('</page>', ''),
      good.replace('>Text<', '><script>alert(1)</script><'),
      good.replace('>Text<', '><b>Text<'),
      good.replace('>Text<', '>Text</i><'),
      good.replace('font="0"', 'font="9"'),
      good.replace('<text top', '<text onload="x" top'),
      good.replace('</page>', '<junk/>\n</page>'),
      good.replace('</pdf2xml>', '</pdf2xml>\n<page number="2">'),
      'not xml at all',
    ];
    for (const document of malformed) expect(() => readPdf2Xml(document), document).toThrow(Pdf2XmlError);
  });
});

describe('pdf2XmlToMarkdown: the layout read back as Markdown', () => {
  it('ranks font sizes larger than the body size as headings (#, ##), the body being the size with most characters', () => {
    const md = markdown(undefined, [
      t(100, 85, '<b>Introduction</b>', { font: 1 }),
      ...paragraph(150, ['The body text is set in the size that holds the most characters of all,', 'so it is the body.']),
      t(220, 85, '<b>Details</b>', { font: 2 }),
      ...paragraph(260, ['More body text follows the second heading.']),
    ]);
    expect(md).toBe('# Introduction\n\nThe body text is set in the size that holds the most characters of all, so it is the body.\n\n## Details\n\nMore body text follows the second heading.\n');
  });

  it('joins a heading broken over two lines', () => {
    const md = markdown(undefined, [t(100, 85, 'A long heading that', { font: 1 }), t(136, 85, 'wraps onto a second line', { font: 1 }), ...paragraph(190, ['Body.', 'Body again, longer than the heading to be the body.'])]);
    expect(md).toMatch(/^# A long heading that wraps onto a second line\n/);
  });

  it('rebuilds paragraphs: lines at the usual step join, a wider gap or an indented first line starts a new one, hyphenated words are made whole', () => {
    const md = markdown(undefined, [
      ...paragraph(100, ['The first paragraph has a word that is hyphen-', 'ated at the end of its first line, and a', 'well-known compound kept whole.']),
      ...paragraph(190, ['After a wider gap, the second paragraph begins.']),
      t(210, 110, 'An indented first line starts the third paragraph', { width: 655 }),
      t(230, 85, 'which goes on here.'),
    ]);
    expect(md).toBe(
      'The first paragraph has a word that is hyphenated at the end of its first line, and a well-known compound kept whole.\n\n' +
        'After a wider gap, the second paragraph begins.\n\nAn indented first line starts the third paragraph which goes on here.\n',
    );
  });

  it('ends a paragraph whose last line ended a sentence with room left on it', () => {
    const md = markdown(undefined, [t(100, 85, 'A short closing sentence.'), t(120, 85, 'Next paragraph without a gap, as some producers set them.', { width: 680 }), t(140, 85, 'Its second line.')]);
    expect(md).toBe('A short closing sentence.\n\nNext paragraph without a gap, as some producers set them. Its second line.\n');
  });

  it('writes bulleted and numbered lists, nested by indent, with markers of every kind', () => {
    const md = markdown(undefined, [
      ...paragraph(100, ['Problems we found in the files that were sent to us:']),
      t(130, 111, '• Scanned pages'),
      t(160, 111, '• Tables lose their columns when the text is read line by', { width: 560 }),
      t(180, 130, 'line, as every reader does'),
      t(210, 162, '◦ Merged cells'),
      t(240, 162, '▪ Split cells'),
      t(270, 111, '– Headers'),
      ...paragraph(310, ['Steps we propose, in this order, to get there:']),
      t(340, 111, '1. Read'),
      t(370, 111, '2) Rebuild'),
      t(400, 140, 'a. paragraphs'),
      t(430, 140, 'b. lists'),
      t(460, 111, '3. Write'),
      t(500, 111, '*', { width: 8 }),
      t(500, 140, 'A star bullet apart from its text'),
      t(530, 111, '- A hyphen bullet'),
    ]);
    expect(md).toBe(
      'Problems we found in the files that were sent to us:\n\n' +
        '- Scanned pages\n- Tables lose their columns when the text is read line by line, as every reader does\n  - Merged cells\n  - Split cells\n- Headers\n\n' +
        'Steps we propose, in this order, to get there:\n\n' +
        '1. Read\n2. Rebuild\n   1. paragraphs\n   2. lists\n3. Write\n- A star bullet apart from its text\n- A hyphen bullet\n',
    );
  });

  it('writes text in aligned columns over several rows as a pipe table', () => {
    const row = (top: number, cells: string[]) => cells.map((cell, i) => t(top, [85, 255, 369][i]!, cell));
    const md = markdown(undefined, [
      ...paragraph(100, ['Timings of the engines measured on this machine today:']),
      ...row(130, ['Engine', 'Pages', 'Seconds']),
      ...row(160, ['poppler', '200', '1.5']),
      ...row(190, ['ghost|script', '120', '3.2']),
      ...paragraph(230, ['After the table.']),
    ]);
    expect(md).toBe(
      'Timings of the engines measured on this machine today:\n\n| Engine | Pages | Seconds |\n| --- | --- | --- |\n| poppler | 200 | 1.5 |\n| ghost\\|script | 120 | 3.2 |\n\nAfter the table.\n',
    );
  });

  it('writes no table where the columns do not line up, nor for two rows of two cells', () => {
    const md = markdown(undefined, [
      ...paragraph(100, ['Some text set before the rows, long enough to be the body text.']),
      t(130, 85, 'Name:'),
      t(130, 255, 'Ada'),
      t(160, 85, 'Date:'),
      t(160, 255, 'today'),
      t(200, 85, 'left'),
      t(200, 300, 'mid'),
      t(230, 140, 'shifted'),
      t(230, 420, 'elsewhere'),
      t(260, 85, 'again'),
      t(260, 500, 'far'),
    ]);
    expect(md).not.toContain('|');
    expect(md).toContain('Name: Ada');
  });

  it('reads a two-column page column by column, a full-width heading first', () => {
    const left = ['The left column opens here and its', 'lines fill the column from edge to', 'edge, as justified prose does in a', 'two-column layout of a paper.'];
    const right = ['The right column follows on the', 'same lines of the page, and it is', 'read only after the left column is', 'done, never line by line across.'];
    const column = (lefts: number, lines: string[]) => lines.map((line, i) => t(150 + i * 20, lefts, line, { width: 330 }));
    const md = markdown(undefined, [t(100, 85, 'Two columns', { font: 1 }), ...column(85, left), ...column(468, right)]);
    expect(md).toBe(`# Two columns\n\n${left.join(' ')}\n\n${right.join(' ')}\n`);
  });

  it('joins a paragraph that goes on in the next column', () => {
    const column = (lefts: number, lines: string[]) => lines.map((line, i) => t(150 + i * 20, lefts, line, { width: 330 }));
    const md = markdown(undefined, [
      ...column(85, ['A sentence that starts in the left', 'column of the page and does not', 'end there but carries on into the', 'column to the right of it']),
      ...column(468, ['where it ends at last. Then more', 'text follows in the right column', 'to fill it as the left one is full', 'of text from one edge to the other.']),
    ]);
    expect(md.trim().split('\n\n')).toHaveLength(1);
    expect(md).toContain('column to the right of it where it ends at last.');
  });

  it('drops running headers, footers and page numbers, and joins a paragraph going on over the page break', () => {
    const margins = (n: number) => [t(64, 85, 'Fileshift report, internal', { font: 3 }), t(1183, 420, `Page ${n} of 3`, { font: 3 })];
    const md = markdown(
      undefined,
      [...margins(1), t(100, 85, 'Report', { font: 1 }), ...paragraph(150, ['The first page ends in the middle of a sentence that', 'goes on'])],
      [...margins(2), ...paragraph(100, ['on the second page, where it ends.', 'More text on page two.'])],
      [...margins(3), ...paragraph(100, ['The third page.'])],
    );
    expect(md).toBe('# Report\n\nThe first page ends in the middle of a sentence that goes on on the second page, where it ends. More text on page two.\n\nThe third page.\n');
  });

  it('keeps a title page\'s large title whose words the running header repeats in small print', () => {
    const header = t(64, 85, 'Annual report', { font: 3 });
    const md = markdown(
      undefined,
      [t(100, 85, 'Annual report', { font: 1 }), ...paragraph(150, ['The first page has its title at the top, in large print.'])],
      [header, ...paragraph(100, ['The second page has the title as its running header.'])],
      [header, ...paragraph(100, ['So has the third page, in the same small print.'])],
    );
    expect(md).toBe('# Annual report\n\nThe first page has its title at the top, in large print.\n\nThe second page has the title as its running header.\n\nSo has the third page, in the same small print.\n');
  });

  it('drops a page number alone in a margin even when few pages have one', () => {
    const md = markdown(
      undefined,
      [...paragraph(100, ['Chapter pages carry their number at the foot.']), t(1183, 440, '- 1 -', { font: 3 })],
      [...paragraph(100, ['Other pages carry none.'])],
      [...paragraph(100, ['Nor does this one.'])],
      [...paragraph(100, ['Another chapter starts here.']), t(1183, 440, 'iv', { font: 3 })],
    );
    expect(md).toBe('Chapter pages carry their number at the foot.\n\nOther pages carry none.\n\nNor does this one.\n\nAnother chapter starts here.\n');
  });

  it('keeps a header that is on one page only, and starts a new paragraph after a sentence that ended on the page before', () => {
    const md = markdown(undefined, [t(64, 85, 'Only here', { font: 3 }), ...paragraph(100, ['Page one ends its sentence.'])], [...paragraph(100, ['Page two starts afresh.'])]);
    expect(md).toBe('Only here\n\nPage one ends its sentence.\n\nPage two starts afresh.\n');
  });

  it('keeps bold and italic inside a paragraph, links to http(s) and mailto, and escapes what Markdown would read as markup', () => {
    const md = markdown(undefined, [
      t(100, 85, 'Read <b>this</b> and <i>that</i> at <a href="https://example.com/x_(y)">the *site*</a> or <a href="mailto:a@example.com">mail</a>;', { width: 680 }),
      t(120, 85, 'not <a href="javascript:alert(1)">this</a>: &lt;script&gt;alert(1)&lt;/script&gt; [x](y) `code` a_b &amp;amp; ~~s~~'),
      ...paragraph(160, ['# not a heading']),
      ...paragraph(200, ['2024. A year, not a list item (four digits are no list number)']),
      ...paragraph(240, ['<b>A whole bold paragraph is not marked up, as all of it is bold and more than one line</b>', '<b>long, so it is no heading.</b>']),
    ]);
    expect(md).toBe(
      'Read **this** and _that_ at [the \\*site\\*](https://example.com/x_%28y%29) or [mail](mailto:a@example.com); ' +
        'not this: \\<script\\>alert(1)\\</script\\> \\[x\\](y) \\`code\\` a\\_b \\&amp; \\~\\~s\\~\\~\n\n' +
        '\\# not a heading\n\n' +
        '2024\\. A year, not a list item (four digits are no list number)\n\n' +
        'A whole bold paragraph is not marked up, as all of it is bold and more than one line long, so it is no heading.\n',
    );
    // No HTML: every < is escaped.
    expect(md).not.toMatch(/(?:^|[^\\])<[a-z/]/im);
  });

  it('takes a short bold line alone as a heading of the lowest level', () => {
    const md = markdown(undefined, [t(100, 85, 'Title', { font: 1 }), t(150, 85, '<b>A bold line</b>'), ...paragraph(170, ['And the paragraph after it, in plain text.'])]);
    expect(md).toBe('# Title\n\n## A bold line\n\nAnd the paragraph after it, in plain text.\n');
  });

  it('puts the PDF\'s title first as a heading when the text has none, and not when it has', () => {
    expect(markdown('Quarterly  report', [...paragraph(100, ['Just text.'])])).toBe('# Quarterly report\n\nJust text.\n');
    expect(markdown('Quarterly report', [t(100, 85, 'Its own heading', { font: 1 }), ...paragraph(150, ['Just text, longer than the heading.'])])).toBe('# Its own heading\n\nJust text, longer than the heading.\n');
    expect(markdown('Quarterly report', [t(100, 85, '<b>Bold alone</b>'), ...paragraph(130, ['Just text, longer than the bold line.'])])).toBe(
      '# Quarterly report\n\n## Bold alone\n\nJust text, longer than the bold line.\n',
    );
  });

  it('writes nothing for a page without text, and only the title for a PDF without text', () => {
    expect(markdown(undefined, [])).toBe('');
    expect(markdown('Scan', [])).toBe('# Scan\n');
  });
});

describe('pdf2XmlToMarkdown: right-to-left text, which pdftohtml writes as drawn (left to right)', () => {
  /** A line of one right-to-left script as pdftohtml writes it: its characters reversed (a number's not), ending at `right`. */
  const drawn = (text: string) => (/^\d+$/.test(text) ? text : [...text].reverse().join(''));
  const rtl = (top: number, right: number, text: string, options: { font?: number; width?: number } = {}) => {
    const width = options.width ?? [...text].length * 8;
    return t(top, right - width, drawn(text), { ...options, width });
  };
  /** A right-aligned paragraph, its lines' left edges ragged: each line 20 px under the one before. */
  const rtlParagraph = (top: number, lines: string[], right = 807) => lines.map((line, i) => rtl(top + i * 20, right, line));

  it('reads a Hebrew heading and paragraph right to left, the paragraph whole though its left edge is ragged', () => {
    const lines = ['העירייה פתחה ספרייה חדשה באביב, וכל יום', 'מגיעים אליה סטודנטים כדי לקרוא ספרים', 'ולהתכונן לבחינות.'];
    const md = markdown(undefined, [rtl(100, 807, 'ספרייה חדשה', { font: 1 }), ...rtlParagraph(150, lines), ...rtlParagraph(230, ['פסקה שנייה אחרי שורה קצרה.'])]);
    expect(md).toBe(`# ספרייה חדשה\n\n${lines.join(' ')}\n\nפסקה שנייה אחרי שורה קצרה.\n`);
  });

  it('keeps a Latin name and a year in a Hebrew line in their order (the fragments Chromium\'s PDF gives pdftohtml)', () => {
    const line = [t(201, 538, '.2024', { width: 40 }), t(201, 579, ' תנשב ', { width: 49 }), t(201, 628, 'Maria', { width: 43 }), t(201, 671, ' ', { width: 5 }), t(201, 676, 'Schmidt', { width: 60 }), t(201, 736, ' םע שגפנ דוד', { width: 94 })];
    expect(markdown(undefined, [...rtlParagraph(181, ['העירייה פתחה ספרייה חדשה באביב, ולפני חודש']), ...line])).toBe(
      'העירייה פתחה ספרייה חדשה באביב, ולפני חודש דוד נפגש עם Maria Schmidt בשנת 2024.\n',
    );
  });

  it('reads Arabic drawn in presentation forms as its letters, in reading order', () => {
    const md = markdown(undefined, [t(116, 166, '.ﻊﻴﺑﺮﻟا ﻞﺼﻓ ﻲﻓ ةﺪﻳﺪﺟ ﺔﺒﺘﻜﻣ ﺔﻨﻳﺪﻤﻟا ﺖﺤﺘﺘﻓا', { width: 596 }), t(136, 295, '.ﺐﺘﻜﻟا ةءاﺮﻘﻟ مﻮﻳ ﻞﻛ بالﻄﻟا ﺎﻫروﺰﻳ', { width: 467 })]);
    expect(md).toBe('افتتحت المدينة مكتبة جديدة في فصل الربيع. يزورها الطلاب كل يوم لقراءة الكتب.\n');
  });

  it('reads a right-to-left page\'s two columns right one first, and a table from its right-hand column', () => {
    const right = ['הטור הימני נפתח כאן ושורותיו ממלאות', 'את הטור מקצה לקצה כמו טקסט מיושר', 'בשני הצדדים בעמוד של שני טורים', 'בעיתון או במאמר מדעי.'];
    const left = ['הטור השמאלי בא אחריו באותן שורות', 'של העמוד והוא נקרא רק אחרי שהטור', 'הימני נגמר ולא שורה אחר שורה', 'לרוחב העמוד כולו.'];
    const column = (right: number, lines: string[]) => lines.map((line, i) => rtl(150 + i * 20, right, line, { width: 330 }));
    expect(markdown(undefined, [...column(807, right), ...column(424, left)])).toBe(`${right.join(' ')}\n\n${left.join(' ')}\n`);
    const row = (top: number, ...cells: string[]) => cells.map((cell, i) => rtl(top, 807 - i * 250, cell));
    expect(markdown(undefined, [row(100, 'עיר', 'מדינה', 'תושבים'), row(122, 'חיפה', 'ישראל', '285000'), row(144, 'אילת', 'ישראל', '52000')].flat())).toBe(
      '| עיר | מדינה | תושבים |\n| --- | --- | --- |\n| חיפה | ישראל | 285000 |\n| אילת | ישראל | 52000 |\n',
    );
  });

  it('leaves an English line of a Hebrew page, and a Hebrew word in an English line, read left to right', () => {
    const md = markdown(undefined, [...rtlParagraph(100, ['שורה ראשונה בעברית.']), t(140, 85, 'An English line with the word םולש in it.')]);
    expect(md).toBe('שורה ראשונה בעברית.\n\nAn English line with the word שלום in it.\n');
  });
});

