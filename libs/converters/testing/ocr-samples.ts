import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { img2pdfPdf, qpdfMerged } from './pdf-samples.js';

// Samples for OCR, made without the code under test: pictures of text that Debian's Chromium renders from HTML of
// ours (Noto fonts, black on white, 12 pt body text at 200 dpi), "scans" of them made with sharp, PDFs of them made
// by img2pdf, Chromium's print-to-pdf and qpdf; and the character error rate OCR output is measured by.

const execFileAsync = promisify(execFile);

/** The resolution the pictures stand for: 33 px text is 12 pt at 200 dpi. */
export const OCR_SAMPLE_DPI = 200;
const BODY_PX = 33;

export type OcrScript = 'Latin' | 'Cyrillic' | 'Arabic' | 'Hebrew' | 'Devanagari' | 'Han' | 'Japanese' | 'Hangul';

/** Known text in one language: `code` is what a caller names it by (ISO 639-1, or a BCP 47 tag for Chinese). */
export interface OcrText {
  code: string;
  /** The HTML `lang` the text is rendered with (it picks the CJK glyph variants). */
  htmlLang: string;
  name: string;
  script: OcrScript;
  font: string;
  rtl?: boolean;
  text: string;
}

const SERIF = "'Noto Serif'";

/** A few real sentences in each language OCR reads, with the language's letters and diacritics. */
export const OCR_TEXTS = [
  {
    code: 'en',
    htmlLang: 'en',
    name: 'English',
    script: 'Latin',
    font: SERIF,
    text: 'The museum opened its new wing on a cold Tuesday morning. Visitors queued along the river to see paintings that had been stored in a basement for nearly forty years, and many of them stayed until the guards closed the doors at six.',
  },
  {
    code: 'de',
    htmlLang: 'de',
    name: 'German',
    script: 'Latin',
    font: SERIF,
    text: 'Die Bürger der kleinen Stadt trafen sich am Sonntag auf dem Marktplatz. Nach einer langen Diskussion über die Straßenbahn beschloss der Gemeinderat, dass die alte Brücke über den Fluss schon im nächsten Frühjahr erneuert wird. Größere Änderungen gibt es vorerst nicht.',
  },
  {
    code: 'fr',
    htmlLang: 'fr',
    name: 'French',
    script: 'Latin',
    font: SERIF,
    text: 'Le marché du samedi attire des familles de toute la région. On y trouve des légumes frais, des fromages affinés et du pain encore chaud. À midi, un garçon achète une crêpe, les cafés de la place sont pleins et les enfants jouent près de la fontaine.',
  },
  {
    code: 'es',
    htmlLang: 'es',
    name: 'Spanish',
    script: 'Latin',
    font: SERIF,
    text: 'El tren salió de la estación a las ocho de la mañana. Durante el viaje, los pasajeros miraban las montañas cubiertas de nieve y hablaban de sus planes para el próximo año. ¿Quién no sueña con unas vacaciones así, lejos del ruido de la ciudad?',
  },
  {
    code: 'it',
    htmlLang: 'it',
    name: 'Italian',
    script: 'Latin',
    font: SERIF,
    text: 'La biblioteca comunale è aperta tutti i giorni tranne la domenica. Gli studenti arrivano presto perché i posti vicino alle finestre sono i più richiesti, e la città offre anche un servizio di prestito gratuito per chi abita nei paesi vicini.',
  },
  {
    code: 'pt',
    htmlLang: 'pt',
    name: 'Portuguese',
    script: 'Latin',
    font: SERIF,
    text: 'A população da cidade celebrou o aniversário da ponte com música e fogos de artifício. As crianças correram pela praça enquanto os avós contavam histórias sobre a construção, que durou quase três anos e mudou a vida de toda a região.',
  },
  {
    code: 'nl',
    htmlLang: 'nl',
    name: 'Dutch',
    script: 'Latin',
    font: SERIF,
    text: 'De fietsers vertrokken vroeg in de ochtend uit het dorp. Langs de dijk waaide een harde wind, maar niemand gaf op. Na twee uur bereikten ze de zee, waar een café warme chocolademelk en appeltaart serveerde en iedereen zijn ideeën over de volgende tocht deelde.',
  },
  {
    code: 'ru',
    htmlLang: 'ru',
    name: 'Russian',
    script: 'Cyrillic',
    font: SERIF,
    text: 'Весной в нашем городе открылась новая библиотека. Каждый день туда приходят школьники и студенты, чтобы читать книги и готовиться к экзаменам. По вечерам в читальном зале ещё проходят лекции об истории и искусстве, и свободных мест почти не бывает.',
  },
  {
    code: 'ar',
    htmlLang: 'ar',
    name: 'Arabic',
    script: 'Arabic',
    font: "'Noto Naskh Arabic'",
    rtl: true,
    text: 'افتتحت المدينة مكتبة جديدة في فصل الربيع. يزورها الطلاب كل يوم لقراءة الكتب والاستعداد للامتحانات، وتقام في المساء محاضرات عن التاريخ والفن. ويحب الأطفال قاعة القصص الملونة في الطابق الأول.',
  },
  {
    code: 'he',
    htmlLang: 'he',
    name: 'Hebrew',
    script: 'Hebrew',
    font: "'Noto Serif Hebrew'",
    rtl: true,
    text: 'העירייה פתחה ספרייה חדשה בתחילת האביב. סטודנטים מגיעים אליה בכל יום כדי לקרוא ספרים ולהתכונן לבחינות, ובערב מתקיימות בה הרצאות על היסטוריה ואמנות. הילדים אוהבים במיוחד את חדר הסיפורים הצבעוני בקומה הראשונה.',
  },
  {
    code: 'hi',
    htmlLang: 'hi',
    name: 'Hindi',
    script: 'Devanagari',
    font: "'Noto Sans Devanagari'",
    text: 'हमारे शहर में वसंत के मौसम में एक नया पुस्तकालय खुला। हर दिन छात्र वहाँ किताबें पढ़ने और परीक्षा की तैयारी करने आते हैं। शाम को वहाँ इतिहास और कला पर व्याख्यान होते हैं।',
  },
  {
    code: 'zh',
    htmlLang: 'zh-Hans',
    name: 'Chinese (simplified)',
    script: 'Han',
    font: "'Noto Sans CJK SC'",
    text: '春天的时候，我们城市开了一座新的图书馆。每天都有很多学生来这里看书和准备考试。晚上，阅览室里还有关于历史和艺术的讲座，大家都很喜欢。',
  },
  {
    code: 'zh-hant',
    htmlLang: 'zh-Hant',
    name: 'Chinese (traditional)',
    script: 'Han',
    font: "'Noto Sans CJK TC'",
    text: '春天的時候，我們城市開了一座新的圖書館。每天都有很多學生來這裡看書和準備考試。晚上，閱覽室裡還有關於歷史和藝術的講座，大家都很喜歡。',
  },
  {
    code: 'ja',
    htmlLang: 'ja',
    name: 'Japanese',
    script: 'Japanese',
    font: "'Noto Sans CJK JP'",
    text: '春になると、私たちの町に新しい図書館が開かれました。毎日たくさんの学生が本を読んだり、試験の準備をしたりするために来ます。夜には歴史や芸術についての講演もあります。',
  },
  {
    code: 'ko',
    htmlLang: 'ko',
    name: 'Korean',
    script: 'Hangul',
    font: "'Noto Sans CJK KR'",
    text: '봄이 되자 우리 도시에 새 도서관이 문을 열었습니다. 매일 많은 학생들이 책을 읽고 시험을 준비하러 옵니다. 저녁에는 역사와 예술에 관한 강연도 열립니다.',
  },
] as const satisfies readonly OcrText[];

export type OcrLanguageCode = (typeof OCR_TEXTS)[number]['code'];

export const ocrText = (code: OcrLanguageCode): OcrText => OCR_TEXTS.find((text) => text.code === code)!;

/**
 * Three pages of an English report, for the multi-page TIFF and the scanned PDF (one picture each): six lines a page,
 * enough for OCRmyPDF to measure a scan's skew (on three lines tesseract finds none, and leaves the page skewed).
 */
export const REPORT_PAGES = [
  'Page one. The harbour authority met in March to discuss the dredging of the northern channel. Engineers reported that the sand bar had grown by two metres since the last survey, and the pilots asked for new buoys before the autumn storms. The chair reminded the members that the last dredging, twelve years ago, had been finished late and over budget, and asked for a plan that could be checked every month.',
  'Page two. Funding for the work will come from the regional transport budget and from a small levy on cargo. The council expects the contract to be signed in June, with dredging to begin as soon as the fishing season closes in September. Three companies have shown interest so far, and each of them will be asked to describe how it intends to dispose of the sand without harming the beaches further south.',
  'Page three. Residents of the old quarter raised concerns about noise during the night shifts. The authority agreed to limit the heaviest machines to daylight hours and to publish a weekly schedule on its website and in the local newspaper. A public meeting will be held in the town hall before the work starts, and a telephone line will be open every weekday for questions and complaints.',
] as const;

/** A page with a heading and two paragraphs, for the Markdown of a picture. */
export const DOCUMENT_PAGE = {
  heading: 'Annual Report of the Harbour Museum',
  paragraphs: [
    'The museum welcomed more visitors this year than in any year before. School classes came every week, and the new guided tours of the lighthouse were booked out from May to October.',
    'Next year the workshop will restore two fishing boats from the last century. Volunteers are welcome on Saturdays, and no experience with wood or sails is needed to join them.',
  ],
} as const;

/** A page set in two columns (CSS columns: 2): the left column's text, then the right one's. */
export const COLUMNS_PAGE = {
  left: 'Farmers in the valley began the harvest early this year. A warm spring and a dry summer ripened the grapes three weeks ahead of the usual calendar, and the first wagons reached the press before the end of August.',
  right: 'The cooperative hired twenty extra workers to keep up with the deliveries. Its director expects a smaller volume than last year, but says the quality of the juice is the best she has seen in a decade.',
} as const;

/** A table without borders, three cells a row, wide gaps between the cells. */
export const TABLE_ROWS = [
  ['City', 'Country', 'Population'],
  ['Lisbon', 'Portugal', '545000'],
  ['Vienna', 'Austria', '1982000'],
  ['Dublin', 'Ireland', '592000'],
  ['Oslo', 'Norway', '709000'],
] as const;

/** The text page of the mixed PDF (Chromium's print-to-pdf: a real text layer). */
export const PRINTED_PAGE = [
  'Printed page. This page was printed from HTML and has a real text layer.',
  'Its words must come out of every conversion exactly as they went in, because nothing on it needs to be read from pixels.',
] as const;

/** Every picture of the sheet Chromium renders, by name. */
export type OcrPictureName = OcrLanguageCode | 'page-1' | 'page-2' | 'page-3' | 'document' | 'columns' | 'table';

interface Block {
  name: OcrPictureName;
  width: number;
  height: number;
  html: string;
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const paragraph = (text: string, style = '') => `<p style="margin:0 0 ${BODY_PX}px;${style}">${escapeHtml(text)}</p>`;

function blocks(): Block[] {
  const languages = OCR_TEXTS.map(
    (text): Block => ({
      name: text.code,
      width: 1400,
      height: 420,
      html: `<div lang="${text.htmlLang}"${'rtl' in text ? ' dir="rtl"' : ''} style="font-family:${text.font}">${paragraph(text.text)}</div>`,
    }),
  );
  const pages = REPORT_PAGES.map((text, index): Block => ({ name: `page-${index + 1}` as OcrPictureName, width: 1400, height: 520, html: `<div lang="en">${paragraph(text)}</div>` }));
  const document: Block = {
    name: 'document',
    width: 1500,
    height: 760,
    html: `<div lang="en"><h1 style="font-size:${BODY_PX * 2}px;margin:0 0 ${BODY_PX * 1.5}px;font-weight:bold">${escapeHtml(DOCUMENT_PAGE.heading)}</h1>${DOCUMENT_PAGE.paragraphs.map((text) => paragraph(text)).join('')}</div>`,
  };
  const columns: Block = {
    name: 'columns',
    width: 1600,
    height: 620,
    html: `<div lang="en" style="column-count:2;column-gap:120px;column-fill:auto;height:520px">${paragraph(COLUMNS_PAGE.left)}${paragraph(COLUMNS_PAGE.right, 'break-before:column')}</div>`,
  };
  const table: Block = {
    name: 'table',
    width: 1400,
    height: 480,
    html: `<table lang="en" style="border-collapse:collapse;font-size:${BODY_PX}px">${TABLE_ROWS.map((row) => `<tr>${row.map((cell) => `<td style="padding:6px 140px 6px 0;border:0">${escapeHtml(cell)}</td>`).join('')}</tr>`).join('')}</table>`,
  };
  return [...languages, ...pages, document, columns, table];
}

const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--hide-scrollbars', '--force-device-scale-factor=1'];

/** Debian's Chromium, run once on an HTML file in a fresh directory (its own profile); `output` names its file there. */
export async function chromium(html: string, args: (dir: string) => string[], output: string): Promise<Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'fileshift-ocr-samples-'));
  try {
    writeFileSync(join(dir, 'page.html'), html);
    await execFileAsync('chromium', [...CHROMIUM_FLAGS, `--user-data-dir=${join(dir, 'profile')}`, ...args(dir), `file://${join(dir, 'page.html')}`], { timeout: 120_000 });
    return readFileSync(join(dir, output));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let sheet: Promise<Map<OcrPictureName, Buffer>> | undefined;

/**
 * Every picture in one Chromium start (a start takes seconds): the blocks stacked on one tall page, each in a box of
 * its own size, the screenshot then cut into one PNG per block (RGB as Chromium drew it, marked 200 dpi). Once per
 * process. A block whose text ran into its box's bottom margin fails here rather than as a bad reading later.
 */
function renderedSheet(): Promise<Map<OcrPictureName, Buffer>> {
  sheet ??= (async () => {
    const all = blocks();
    const width = Math.max(...all.map((block) => block.width));
    const tops = all.map((_, index) => all.slice(0, index).reduce((sum, block) => sum + block.height, 0));
    const height = tops.at(-1)! + all.at(-1)!.height;
    const body = all
      .map((block, index) => `<section style="position:absolute;left:0;top:${tops[index]}px;width:${block.width}px;height:${block.height}px">${block.html}</section>`)
      .join('\n');
    const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>html,body{margin:0;background:#fff;color:#000}section{overflow:hidden;box-sizing:border-box;padding:50px 60px;font:${BODY_PX}px/1.5 ${SERIF}}</style></head><body>${body}</body></html>`;
    const screenshot = await chromium(html, (dir) => [`--window-size=${width},${height}`, `--screenshot=${join(dir, 'sheet.png')}`], 'sheet.png');
    const pictures = new Map<OcrPictureName, Buffer>();
    for (const [index, block] of all.entries()) {
      const box = { left: 0, top: tops[index]!, width: block.width, height: block.height };
      const { data, info } = await sharp(screenshot).extract(box).greyscale().raw().toBuffer({ resolveWithObject: true });
      const margin = 24;
      for (let at = (info.height - margin) * info.width; at < data.length; at++) {
        if (data[at]! < 200) throw new Error(`OCR sample "${block.name}": its text runs past its box (${block.width}×${block.height}); make the box taller`);
      }
      pictures.set(block.name, await sharp(screenshot).extract(box).withMetadata({ density: OCR_SAMPLE_DPI }).png().toBuffer());
    }
    return pictures;
  })();
  return sheet;
}

/** A clean picture of text (PNG, 200 dpi) rendered by Chromium, written as `<dir>/<name>.png`. */
export async function ocrPicture(dir: string, name: OcrPictureName): Promise<string> {
  const path = join(dir, `${name}.png`);
  writeFileSync(path, (await renderedSheet()).get(name)!);
  return path;
}

/** A seeded generator of normally distributed numbers (Box–Muller). */
function gaussian(seed: number): () => number {
  let state = seed >>> 0 || 1;
  const uniform = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state + 1) / 4294967297;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/**
 * A "scan" of a picture: turned `angle` degrees on white, blurred a little as a scanner's optics do, grain added
 * (σ 18 grey levels), saved as a grey JPEG of quality 55 at 200 dpi.
 */
export async function scannedPicture(dir: string, name: OcrPictureName, options: { angle?: number; seed?: number } = {}): Promise<string> {
  return scanOf((await renderedSheet()).get(name)!, join(dir, `${name}-scan-${options.seed ?? 7}.jpg`), options);
}

/** A "scan" (as scannedPicture) of any picture, written to `path`. */
export async function scanOf(picture: Buffer, path: string, options: { angle?: number; seed?: number } = {}): Promise<string> {
  const angle = options.angle ?? 1.5;
  const { data, info } = await sharp(picture)
    .rotate(angle, { background: '#ffffff' })
    .blur(0.6)
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const noise = gaussian(options.seed ?? 7);
  const grainy = Buffer.alloc(info.width * info.height);
  for (let pixel = 0; pixel < grainy.length; pixel++) grainy[pixel] = Math.max(0, Math.min(255, Math.round(data[pixel * info.channels]! + 18 * noise())));
  const jpeg = await sharp(grainy, { raw: { width: info.width, height: info.height, channels: 1 } }).toColourspace('b-w').jpeg({ quality: 55 }).toBuffer();
  writeFileSync(path, withJfifDensity(jpeg, OCR_SAMPLE_DPI));
  return path;
}

/**
 * A JPEG with a JFIF header stating its resolution, as a scanner writes it: sharp's encoder (mozjpeg) writes no JFIF
 * segment, and leptonica (tesseract) reads the resolution only from there, not from Exif.
 */
export function withJfifDensity(jpeg: Buffer, dpi: number): Buffer {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('not a JPEG');
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) throw new Error('the JPEG has a JFIF segment already');
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x01, dpi >> 8, dpi & 0xff, dpi >> 8, dpi & 0xff, 0x00, 0x00]);
  return Buffer.concat([jpeg.subarray(0, 2), app0, jpeg.subarray(2)]);
}

/** A clean picture turned a quarter (90, clockwise) or half (180) turn, as a page put on a scanner sideways. */
export async function turnedPicture(dir: string, name: OcrPictureName, degrees: 90 | 180 | 270): Promise<string> {
  const path = join(dir, `${name}-turned-${degrees}.png`);
  await sharp((await renderedSheet()).get(name)!).rotate(degrees).withMetadata({ density: OCR_SAMPLE_DPI }).png().toFile(path);
  return path;
}

/** A white picture with nothing on it (1400 × 420, 200 dpi). */
export async function blankPicture(dir: string): Promise<string> {
  const path = join(dir, 'blank.png');
  await sharp({ create: { width: 1400, height: 420, channels: 3, background: '#ffffff' } }).withMetadata({ density: OCR_SAMPLE_DPI }).png().toFile(path);
  return path;
}

/** A multi-page TIFF (LZW, 200 dpi), one frame per picture (all of one size), written by sharp. */
export async function framesTiff(dir: string, name: string, frames: ReadonlyArray<string | Buffer>): Promise<string> {
  const path = join(dir, `${name}.tiff`);
  const pixelsPerMm = OCR_SAMPLE_DPI / 25.4;
  await sharp(await Promise.all(frames.map((frame) => sharp(frame).png().toBuffer())), { join: { animated: true } })
    .tiff({ compression: 'lzw', xres: pixelsPerMm, yres: pixelsPerMm })
    .toFile(path);
  return path;
}

/** The clean pictures of the report's pages as one 3-frame TIFF. */
export async function reportTiff(dir: string): Promise<string> {
  const pictures = await renderedSheet();
  return framesTiff(dir, 'report', [pictures.get('page-1')!, pictures.get('page-2')!, pictures.get('page-3')!]);
}

/** A TIFF of `count` tiny frames (a word's worth of grey): cheap, and past a page limit when `count` is. */
export async function manyFramesTiff(dir: string, count: number): Promise<string> {
  const frame = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#ffffff' } }).png().toBuffer();
  return framesTiff(dir, `frames-${count}`, Array.from({ length: count }, () => frame));
}

/** The report's three pages scanned (each turned a little another way) and put into a PDF by img2pdf. */
export async function scannedReportPdf(dir: string): Promise<string> {
  const scans = [await scannedPicture(dir, 'page-1', { angle: 1, seed: 11 }), await scannedPicture(dir, 'page-2', { angle: -1.5, seed: 12 }), await scannedPicture(dir, 'page-3', { angle: 2, seed: 13 })];
  return img2pdfPdf(dir, 'scanned-report', scans);
}

/** A PDF of `pages` tiny scanned pages (one small JPEG repeated, no text layer) made by img2pdf: cheap, past a page limit. */
export async function manyScannedPagesPdf(dir: string, pages: number): Promise<string> {
  const scan = join(dir, 'tiny-scan.jpg');
  writeFileSync(scan, withJfifDensity(await sharp({ create: { width: 120, height: 60, channels: 3, background: '#f4f4f4' } }).toColourspace('b-w').jpeg({ quality: 60 }).toBuffer(), 72));
  return img2pdfPdf(dir, `scanned-${pages}-pages`, Array.from({ length: pages }, () => scan));
}

let printed: Promise<Buffer> | undefined;

/** PRINTED_PAGE printed by Chromium (print-to-pdf, A5 landscape): one page with a text layer. Once per process. */
function printedPage(): Promise<Buffer> {
  printed ??= chromium(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><style>@page{size:210mm 148mm;margin:15mm}body{margin:0;font:12pt/1.5 ${SERIF};color:#000}</style></head><body>${PRINTED_PAGE.map((text) => paragraph(text)).join('')}</body></html>`,
    (dir) => [`--print-to-pdf=${join(dir, 'printed.pdf')}`, '--no-pdf-header-footer'],
    'printed.pdf',
  );
  return printed;
}

/** Page 1 a text page printed by Chromium, page 2 a scan of the report's first page (img2pdf); merged by qpdf. */
export async function mixedPdf(dir: string): Promise<string> {
  const textPage = join(dir, 'printed-page.pdf');
  writeFileSync(textPage, await printedPage());
  const scanPage = img2pdfPdf(dir, 'scanned-page', [await scannedPicture(dir, 'page-1', { angle: -1, seed: 21 })]);
  return qpdfMerged(dir, 'mixed', [textPage, scanPage]);
}

/**
 * Scripts written without spaces between words, and Korean: all three wrap lines inside words, where the text read
 * has a line break and the text written none.
 */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The text as the error rate compares it: NFC, white space collapsed, and removed altogether for CJK text. */
export function comparableText(text: string, cjk: boolean): string[] {
  const collapsed = text.normalize('NFC').replace(/\s+/g, ' ').trim();
  return [...(cjk ? collapsed.replace(/ /g, '') : collapsed)];
}

/**
 * The character error rate of `actual` against `expected`: the Levenshtein distance (insertions, deletions and
 * substitutions of code points) over the length of `expected`, both in NFC with white space collapsed; for
 * CJK text (`expected` has Han, kana or Hangul) white space is left out altogether.
 */
export function characterErrorRate(expected: string, actual: string): number {
  const cjk = CJK.test(expected);
  const want = comparableText(expected, cjk);
  const got = comparableText(actual, cjk);
  let previous = Array.from({ length: got.length + 1 }, (_, index) => index);
  for (let i = 1; i <= want.length; i++) {
    const current = [i];
    for (let j = 1; j <= got.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (want[i - 1] === got[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[got.length]! / Math.max(1, want.length);
}
