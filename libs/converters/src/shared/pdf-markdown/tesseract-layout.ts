import { BIDI_CONTROLS, hasRightToLeft, reorderLine, strongDirection } from './bidi-text.js';
import type { PdfPage } from './pdf-page.js';

/** One recognised word of tesseract's TSV, in the picture's pixels. */
interface OcrWord {
  page: number;
  /** block.paragraph.line: the words of one printed line share it. */
  line: string;
  left: number;
  top: number;
  width: number;
  height: number;
  text: string;
}

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Two line sizes this close (as a ratio) are one size: an OCR'd line's height varies by a pixel or two. */
const SAME_SIZE_RATIO = 1.12;
/** A page turned by more than this (as a slope) is not a skew but a layout we do not straighten. */
const MAX_SKEW_SLOPE = 0.15;
/** A slope under this (a quarter of a degree) is the noise of word boxes, not a skew. */
const MIN_SKEW_SLOPE = 0.004;
/** Letters and marks that reach below the baseline: such a word's box does not sit on it. */
const DESCENDS = /[gjpqyQ,;()[\]{}|/@$§µçşţęąрруфдщцβγζημξρφχψ]/u;
/** Letters and marks that reach above the lower-case letters. */
const ASCENDS = /[\p{Lu}\p{Nd}bdfhkltß!?&%#"'()[\]{}/\\|@$\u00C0-\u024Fбδθλ]/u;

/**
 * Pure: the pages of tesseract's TSV as the pages our PDF Markdown reader takes (pdf-markdown/), so a scan gets the
 * same headings, paragraphs, columns and tables as a PDF with text. A page tesseract read turned (its boxes are the
 * picture's) is turned upright, then a skew of a degree or two is taken out of the positions, so a line's words stay
 * one row. A line's words become runs of text, parted where a wide gap or a ruled line parts cells or columns, each
 * as high as its line (heights clustered into sizes, as a scan's wobble). `scale` maps the picture's pixels onto the
 * page's units (pdftohtml's 1.5 a point, for a PDF page rendered at its picture's resolution).
 *
 * Right-to-left text: tesseract lists a line's words in the order it read them, its characters in that order too,
 * which for Arabic and Hebrew runs right to left across the page. The runs are written as pdftohtml writes a PDF's,
 * in the order they are drawn (each word laid out by the bidi algorithm in the direction tesseract read its line),
 * so the reader takes both alike back to the order they are read in (see bidi-text.ts).
 */
export function ocrPages(tsv: string, firstPageNumber = 1, scale = 1): PdfPage[] {
  const { sizes, words } = parseTsv(tsv);
  return [...sizes.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([page, size], index) => ocrPage(firstPageNumber + index, size, words.filter((word) => word.page === page), scale));
}

function ocrPage(number: number, size: { width: number; height: number }, words: OcrWord[], scale: number): PdfPage {
  const turn = turnOf(words);
  const page = turn === 90 || turn === 270 ? { width: size.height, height: size.width } : size;
  const upright = words.map((word) => ({ ...word, ...turned(word, size, turn) }));
  const slope = skewOf(upright);
  const byLine = new Map<string, OcrWord[]>();
  for (const word of upright) byLine.set(word.line, [...(byLine.get(word.line) ?? []), word]);
  const pageDirection = strongDirection(words.map((word) => word.text).join(' ')) ?? 'ltr';
  const measured = [...byLine.values()].map((lineWords) => {
    const readRtl = readRightToLeft(lineWords, pageDirection);
    // Each word's box on a skewed page is taller by its width times the slope: straightened, the line spans its words.
    const straight = lineWords.map((word): OcrWord => {
      const height = Math.max(word.height / 2, word.height - Math.abs(slope) * word.width);
      const drawn = readRtl || hasRightToLeft(word.text) ? reorderLine(word.text, readRtl) : word.text;
      return { ...word, top: centre(word).y - slope * centre(word).x - height / 2, height, text: drawn };
    });
    const top = Math.min(...straight.map((word) => word.top));
    const bottom = Math.max(...straight.map((word) => word.top + word.height));
    const text = lineWords.map((word) => word.text).join(' ');
    return { words: straight.sort((a, b) => a.left - b.left), top, height: bottom - top, em: (bottom - top) / inkShare(text) };
  });
  const sizeOf = clusteredSizes(measured.map((line) => line.em));
  const fragments = measured.flatMap((line) =>
    runsOf(line.words, line.em).map((run) => ({
      top: line.top * scale,
      left: run.left * scale,
      width: run.width * scale,
      height: line.height * scale,
      fontSize: Math.round(sizeOf(line.em) * scale * 10) / 10,
      spans: [{ text: run.text, bold: false, italic: false }],
    })),
  );
  return { number, width: page.width * scale, height: page.height * scale, fragments };
}

/**
 * The share of an em a line's ink spans, from its letters: lower-case Latin, Greek or Cyrillic letters alone half of
 * it, with capitals, digits, accents or ascenders three quarters, with descenders a quarter more; other scripts fill
 * their line. So "them." and "jumping over" measure the same size of type.
 */
function inkShare(text: string): number {
  if (!/^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}\p{Script=Inherited}\s]*$/u.test(text)) return 1;
  return (ASCENDS.test(text) ? 0.75 : 0.5) + (DESCENDS.test(text) ? 0.25 : 0);
}

/**
 * Whether tesseract read a line right to left: its words follow each other leftwards on the upright page, and it has
 * right-to-left letters (or is on a right-to-left page); a line of one word, by that word's letters (else the page's).
 */
function readRightToLeft(lineWords: readonly OcrWord[], pageDirection: 'rtl' | 'ltr'): boolean {
  if (lineWords.length < 2) return (strongDirection(lineWords[0]?.text ?? '') ?? pageDirection) === 'rtl';
  if (pageDirection === 'ltr' && !lineWords.some((word) => hasRightToLeft(word.text))) return false;
  let dx = 0;
  for (const [index, word] of lineWords.entries()) if (index > 0) dx += centre(word).x - centre(lineWords[index - 1]!).x;
  return dx < 0;
}

/** A gap this many ems wide parts a line's words into pieces of their own (table cells, columns). */
const RUN_GAP = 1.2;
/** What tesseract reads a ruled table's vertical line as. */
const RULE = /^[|¦│]+$/;
/** Scripts written without spaces between words: tesseract's words of them are joined as they are. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/** A line's words as runs of text (words joined by spaces, tesseract's own word split), parted at wide gaps. */
function runsOf(words: readonly OcrWord[], height: number): Array<{ left: number; width: number; text: string }> {
  const runs: Array<{ left: number; right: number; text: string }> = [];
  let ruled = false;
  for (const word of words) {
    // A table's vertical rule, read as a bar: it parts two cells and is no text.
    if (RULE.test(word.text)) {
      ruled = true;
      continue;
    }
    const run = runs.at(-1);
    const parted = ruled;
    ruled = false;
    if (run && !parted && word.left - run.right < RUN_GAP * height) {
      const spaced = !(UNSPACED.test(run.text.at(-1)!) && UNSPACED.test(word.text[0]!));
      run.text += `${spaced ? ' ' : ''}${word.text}`;
      run.right = Math.max(run.right, word.left + word.width);
    } else runs.push({ left: word.left, right: word.left + word.width, text: word.text });
  }
  return runs.map(({ left, right, text }) => ({ left, width: right - left, text }));
}

function parseTsv(tsv: string): { sizes: Map<number, { width: number; height: number }>; words: OcrWord[] } {
  const sizes = new Map<number, { width: number; height: number }>();
  const words: OcrWord[] = [];
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells.length < 12 || !/^\d+$/.test(cells[0]!)) continue;
    const [level, page, block, paragraph, line, , left, top, width, height, confidence] = cells.slice(0, 11).map(Number) as number[];
    // tesseract marks a word read against its line's direction (LRM, RLM): layout marks, not text.
    const text = cells.slice(11).join('\t').replace(BIDI_CONTROLS, '').trim();
    if (level === 1) sizes.set(page!, { width: width!, height: height! });
    else if (level === 5 && text !== '' && confidence! >= 0) words.push({ page: page!, line: `${block}.${paragraph}.${line}`, left: left!, top: top!, width: width!, height: height!, text });
  }
  return { sizes, words };
}

/**
 * How far the page was turned clockwise, from the way the words of its lines follow each other: rightwards on an
 * upright page, leftwards between two words of a right-to-left script (a pair of words of either script tells nothing).
 */
function turnOf(words: readonly OcrWord[]): 0 | 90 | 180 | 270 {
  let dx = 0;
  let dy = 0;
  for (const [index, word] of words.entries()) {
    const previous = words[index - 1];
    if (!previous || previous.line !== word.line || previous.page !== word.page) continue;
    const directions = [strongDirection(previous.text), strongDirection(word.text)];
    if (directions[0] !== directions[1] && directions.includes('rtl')) continue;
    const sign = directions[0] === 'rtl' ? -1 : 1;
    dx += sign * (centre(word).x - centre(previous).x);
    dy += sign * (centre(word).y - centre(previous).y);
  }
  if (Math.abs(dx) >= Math.abs(dy)) return dx >= 0 ? 0 : 180;
  return dy > 0 ? 90 : 270;
}

/** A word's box on the upright page, from its box on a picture turned `turn` degrees clockwise. */
function turned(box: Box, size: { width: number; height: number }, turn: 0 | 90 | 180 | 270): Box {
  if (turn === 90) return { left: box.top, top: size.width - (box.left + box.width), width: box.height, height: box.width };
  if (turn === 180) return { left: size.width - (box.left + box.width), top: size.height - (box.top + box.height), width: box.width, height: box.height };
  if (turn === 270) return { left: size.height - (box.top + box.height), top: box.left, width: box.height, height: box.width };
  return box;
}

/**
 * The slope of the page's lines (their median): each line's from the baselines of its words without descenders (a
 * word's centre moves with its letters, its baseline does not). Below MIN_SKEW_SLOPE it is noise, past MAX_SKEW_SLOPE
 * a layout, not a skew: 0 either way.
 */
function skewOf(words: readonly OcrWord[]): number {
  const slopes: number[] = [];
  const byLine = new Map<string, OcrWord[]>();
  for (const word of words) if (!DESCENDS.test(word.text)) byLine.set(word.line, [...(byLine.get(word.line) ?? []), word]);
  for (const line of byLine.values()) {
    const points = line.map((word) => ({ x: centre(word).x, y: word.top + word.height }));
    const meanX = points.reduce((sum, p) => sum + p.x, 0) / points.length;
    const meanY = points.reduce((sum, p) => sum + p.y, 0) / points.length;
    const spread = points.reduce((sum, p) => sum + (p.x - meanX) ** 2, 0);
    if (points.length < 2 || spread === 0) continue;
    slopes.push(points.reduce((sum, p) => sum + (p.x - meanX) * (p.y - meanY), 0) / spread);
  }
  const slope = slopes.length > 0 ? median(slopes) : 0;
  return Math.abs(slope) < MIN_SKEW_SLOPE || Math.abs(slope) > MAX_SKEW_SLOPE ? 0 : slope;
}

/** Line heights grouped into sizes (each within SAME_SIZE_RATIO of its group's smallest); a height's size is its group's median. */
function clusteredSizes(heights: readonly number[]): (height: number) => number {
  const sorted = [...heights].sort((a, b) => a - b);
  const groups: number[][] = [];
  for (const height of sorted) {
    const group = groups.at(-1);
    if (group && height <= group[0]! * SAME_SIZE_RATIO) group.push(height);
    else groups.push([height]);
  }
  const sizeOf = new Map<number, number>();
  for (const group of groups) for (const height of group) sizeOf.set(height, group[Math.floor(group.length / 2)]!);
  return (height) => sizeOf.get(height) ?? height;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const centre = (box: Box) => ({ x: box.left + box.width / 2, y: box.top + box.height / 2 });
