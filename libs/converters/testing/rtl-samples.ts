import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { chromium, OCR_SAMPLE_DPI, scanOf } from './ocr-samples.js';
import { img2pdfPdf } from './pdf-samples.js';

// Right-to-left pages for the reading order of Markdown: Arabic and Hebrew text of several lines, drawn by Debian's
// Chromium with the Noto fonts (a picture, a "scan" of it in a PDF, and a PDF printed with its text), so a test knows
// the order a reader reads every word in.

/** A right-to-left page's text: a heading, paragraphs that wrap over several lines, and a line mixing scripts. */
export interface RtlPage {
  code: 'ar' | 'he';
  name: string;
  font: string;
  heading: string;
  paragraphs: readonly string[];
  /** One line with a Latin name and a year in it, in the order it is read. */
  mixed: string;
  /** The words around the name and the year, in reading order: [before the name, after it, the year]. */
  mixedAnchors: readonly [string, string, string];
  /** Two columns: the right one is read first. */
  columns: { right: string; left: string };
}

export const RTL_PAGES: readonly RtlPage[] = [
  {
    code: 'ar',
    name: 'Arabic',
    font: "'Noto Naskh Arabic'",
    heading: 'تقرير المكتبة العامة',
    paragraphs: [
      'افتتحت المدينة مكتبة جديدة في فصل الربيع. يزورها الطلاب كل يوم لقراءة الكتب والاستعداد للامتحانات، وتقام في المساء محاضرات عن التاريخ والفن.',
      'ويحب الأطفال قاعة القصص الملونة في الطابق الأول، حيث يقرأ المتطوعون القصص بصوت عال كل صباح يوم سبت.',
    ],
    mixed: 'زارها أحمد مع Maria Schmidt في عام 2024.',
    mixedAnchors: ['مع', 'في', '2024'],
    columns: {
      right:
        'يبدأ العمود الأيمن هنا وتملأ سطوره العمود من حافة إلى حافة كما يفعل النص في صفحة من عمودين في جريدة أو مجلة علمية. ويكتب المحرر في هذا العمود أخبار المكتبة وبرنامج الأسبوع القادم.',
      left: 'ويأتي العمود الأيسر بعده على نفس أسطر الصفحة ولا يقرأ إلا بعد انتهاء العمود الأيمن وليس سطرا بسطر عبر الصفحة كلها. وفيه مواعيد المحاضرات وأسماء الضيوف وأرقام القاعات.',
    },
  },
  {
    code: 'he',
    name: 'Hebrew',
    font: "'Noto Serif Hebrew'",
    heading: 'דוח הספרייה העירונית',
    paragraphs: [
      'העירייה פתחה ספרייה חדשה בתחילת האביב. סטודנטים מגיעים אליה בכל יום כדי לקרוא ספרים ולהתכונן לבחינות, ובערב מתקיימות בה הרצאות על היסטוריה ואמנות.',
      'הילדים אוהבים במיוחד את חדר הסיפורים הצבעוני בקומה הראשונה, שבו מתנדבים קוראים סיפורים בקול בכל בוקר של שבת.',
    ],
    mixed: 'דוד נפגש בספרייה עם החוקרת Maria Schmidt בשנת 2024.',
    mixedAnchors: ['החוקרת', 'בשנת', '2024'],
    columns: {
      right: 'הטור הימני נפתח כאן ושורותיו ממלאות את הטור מקצה לקצה כמו טקסט מיושר בעמוד של שני טורים בעיתון או בכתב עת מדעי. העורך כותב בטור הזה את חדשות הספרייה ואת תוכנית השבוע הבא.',
      left: 'הטור השמאלי בא אחריו באותן שורות של העמוד והוא נקרא רק אחרי שהטור הימני נגמר ולא שורה אחר שורה לרוחב העמוד כולו. בו מופיעים מועדי ההרצאות, שמות האורחים ומספרי האולמות.',
    },
  },
];

/** 33 px body text: 12 pt at 200 dpi, as the other OCR samples. */
const BODY_PX = 33;
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page's body: its heading, then its paragraphs and mixed line, or its two columns. */
function bodyOf(page: RtlPage, layout: 'document' | 'columns'): string {
  const heading = `<h1>${escapeHtml(page.heading)}</h1>`;
  if (layout === 'columns') {
    return `${heading}<div style="column-count:2;column-gap:120px"><p>${escapeHtml(page.columns.right)}</p><p style="break-before:column">${escapeHtml(page.columns.left)}</p></div>`;
  }
  return `${heading}${[...page.paragraphs, page.mixed].map((text) => `<p>${escapeHtml(text)}</p>`).join('')}`;
}

/** The page as HTML; its heading in large type of normal weight (tesseract 5.3 drops a bold Arabic heading, and the line after it). */
function html(page: RtlPage, layout: 'document' | 'columns', css: string): string {
  const style = `html,body{margin:0;background:#fff;color:#000}body{font:${BODY_PX}px/1.5 ${page.font};${css}}h1{font-size:1.5em;font-weight:normal;margin:0 0 1em}p{margin:0 0 1em}`;
  const title = `<title>${escapeHtml(page.heading)}</title>`;
  return `<!DOCTYPE html><html lang="${page.code}" dir="rtl"><head><meta charset="utf-8">${title}<style>${style}</style></head><body>${bodyOf(page, layout)}</body></html>`;
}

/** A clean picture of the page (PNG at 200 dpi, 1400 px wide): Chromium's screenshot. */
export async function rtlPicture(dir: string, page: RtlPage, layout: 'document' | 'columns'): Promise<string> {
  const size = { width: 1400, height: 1000 };
  const screenshot = await chromium(html(page, layout, 'padding:50px 70px'), (at) => [`--window-size=${size.width},${size.height}`, `--screenshot=${join(at, 'page.png')}`], 'page.png');
  const path = join(dir, `rtl-${page.code}-${layout}.png`);
  writeFileSync(path, await sharp(screenshot).withMetadata({ density: OCR_SAMPLE_DPI }).png().toBuffer());
  return path;
}

/**
 * The picture scanned (turned 0.7° anticlockwise, grainy, JPEG) and put into a PDF by img2pdf: a page without text.
 * tesseract 5.3's Arabic varies with the turn (a degree clockwise, it drops the heading), hence this one.
 */
export async function rtlScannedPdf(dir: string, page: RtlPage, layout: 'document' | 'columns'): Promise<string> {
  const picture = await sharp(await rtlPicture(dir, page, layout)).toBuffer();
  const scan = await scanOf(picture, join(dir, `rtl-${page.code}-${layout}-scan.jpg`), { angle: -0.7, seed: 31 });
  return img2pdfPdf(dir, `rtl-${page.code}-${layout}-scanned`, [scan]);
}

/** The page printed by Chromium (print-to-pdf, A4 landscape): a PDF with its text. */
export async function rtlPrintedPdf(dir: string, page: RtlPage, layout: 'document' | 'columns'): Promise<string> {
  const pdf = await chromium(html(page, layout, 'font-size:14pt'), (at) => [`--print-to-pdf=${join(at, 'page.pdf')}`, '--no-pdf-header-footer'], 'page.pdf');
  const path = join(dir, `rtl-${page.code}-${layout}-printed.pdf`);
  writeFileSync(path, pdf);
  return path;
}

/** The whole text of the page in reading order (what its Markdown must read as, without markup). */
export const rtlText = (page: RtlPage, layout: 'document' | 'columns') => [page.heading, ...(layout === 'columns' ? [page.columns.right, page.columns.left] : [...page.paragraphs, page.mixed])].join('\n');
