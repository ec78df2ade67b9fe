import type { DocumentProfile } from './document-profile.js';
import { listMarker, type ListMarker } from './list-marker.js';
import type { MarkdownBlock } from './markdown-block.js';
import { appendSpans, type Line, type Segment, spansText } from './page-lines.js';
import type { TextSpan } from './pdf-page.js';
import { tableAt } from './table-detection.js';

/** A line this much further from the one before it than the usual step starts a new paragraph. */
const PARAGRAPH_GAP = 1.35;
/** A bold line alone at most this long may be a heading. */
const MAX_BOLD_HEADING_CHARS = 80;
/** A block of a heading's size but longer than this is a paragraph in large print. */
const MAX_HEADING_CHARS = 200;
/** Text that ends a sentence: a paragraph ending so does not go on in the next column or page. */
const SENTENCE_END = /[.!?:;]["'”’)\]]*$/;

interface OpenBlock {
  block: MarkdownBlock & { kind: 'heading' | 'paragraph' | 'item' };
  fontSize: number;
  first: Line;
  last: Line;
  lines: number;
  /** Where the item's marker sits. */
  markerLeft?: number;
}

/**
 * Pure: rebuilds headings, paragraphs, list items and tables from the lines of each flow (a column of a
 * page, in reading order), fed flow after flow for the whole document. Lines join into a paragraph while
 * they follow at the usual line step and start at the same indent; across a column or page break, a
 * paragraph that has not ended its sentence goes on.
 */
export class BlockBuilder {
  private open: OpenBlock | undefined;
  /** The marker positions of the list being written, outermost first. */
  private listLefts: number[] = [];
  /** Per depth, the place of the last item (for lettered and roman lists). */
  private listCounts: number[] = [];

  constructor(
    private readonly profile: DocumentProfile,
    /** The level of a heading found by a bold line alone (below every heading found by size). */
    private readonly boldHeadingLevel: number,
    private readonly emit: (block: MarkdownBlock) => void,
  ) {}

  flow(flowLines: readonly Line[]): void {
    // A flow read right to left is laid out as its mirror image: its lines start at their left edge there.
    const rtl = flowLines.filter((line) => line.rtl).length * 2 > flowLines.length;
    const lines = (rtl ? flowLines.map(mirrored) : flowLines).map(withMarkerCellMerged);
    const flowRight = Math.max(...lines.map((line) => line.right));
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index]!;
      const table = tableAt(lines, index);
      if (table) {
        this.close();
        this.listLefts = [];
        this.emit({ kind: 'table', rows: table.rows.map((row) => row.map((cell) => trimSpans(cell))) });
        index = table.end - 1;
        continue;
      }
      this.line(line, index === 0, flowRight);
    }
  }

  /** After the last flow. */
  end(): void {
    this.close();
  }

  private line(line: Line, startsFlow: boolean, flowRight: number): void {
    const spans = lineSpans(line);
    const text = spansText(spans);
    const level = this.profile.headingLevels.get(line.fontSize);
    const marker = listMarker(text);
    const open = this.open;
    if (level !== undefined) {
      const sameHeading = open?.block.kind === 'heading' && open.fontSize === line.fontSize && !startsFlow && line.top - open.last.top <= 1.6 * line.fontSize;
      if (sameHeading && spansText(open.block.spans).length + text.length <= MAX_HEADING_CHARS) return this.extend(open, line, spans);
      this.start({ kind: 'heading', level, spans }, line);
      return;
    }
    if (marker) {
      this.startItem(line, spans, marker);
      return;
    }
    if (open && open.block.kind !== 'heading' && this.continues(open, line, startsFlow, flowRight)) return this.extend(open, line, spans);
    this.start({ kind: 'paragraph', spans }, line);
  }

  /** Whether `line` goes on with the open paragraph or item. */
  private continues(open: OpenBlock, line: Line, startsFlow: boolean, flowRight: number): boolean {
    // A paragraph keeps one direction: an English line after a Hebrew paragraph starts one of its own.
    if (Math.abs(open.fontSize - line.fontSize) > 1 || !!open.last.rtl !== !!line.rtl) return false;
    const text = spansText(open.block.spans).trimEnd();
    if (startsFlow) return !SENTENCE_END.test(text);
    const step = this.profile.lineStep(line.fontSize);
    const gap = line.top - open.last.top;
    if (gap <= 0 || gap > step * PARAGRAPH_GAP) return false;
    // A bold line alone, then plain text: a heading and its paragraph.
    if (open.lines === 1 && allBold(open.block.spans) && !allBold(lineSpans(line))) return false;
    const tolerance = Math.max(3, line.fontSize * 0.5);
    if (open.block.kind === 'item') return line.left > open.markerLeft! - tolerance;
    // The line before ended a sentence with room left for this line's first word: the paragraph ended there.
    const lineText = spansText(lineSpans(line));
    const charWidth = (line.right - line.left) / Math.max(1, lineText.length);
    const firstWord = /^\s*\S+/.exec(lineText)?.[0].length ?? 0;
    if (SENTENCE_END.test(text) && open.last.right + (firstWord + 1) * charWidth < flowRight - tolerance) return false;
    if (Math.abs(line.left - open.last.left) <= tolerance) return true;
    // The second line of a paragraph whose first line is indented.
    if (open.lines === 1 && line.left < open.first.left) return true;
    // Centred lines.
    return Math.abs(line.left + line.right - open.last.left - open.last.right) / 2 <= tolerance;
  }

  private startItem(line: Line, spans: TextSpan[], marker: ListMarker): void {
    const tolerance = Math.max(3, line.fontSize * 0.5);
    // A list goes on until a heading, paragraph or table starts (they empty listLefts).
    if (this.listLefts.length === 0) this.listCounts = [];
    while (this.listLefts.length > 0 && this.listLefts.at(-1)! > line.left + tolerance) this.listLefts.pop();
    if (this.listLefts.length === 0 || line.left > this.listLefts.at(-1)! + tolerance) this.listLefts.push(line.left);
    const depth = this.listLefts.length - 1;
    this.listCounts.length = depth + 1;
    this.listCounts[depth] = (this.listCounts[depth] ?? 0) + 1;
    const number = marker.ordered ? (marker.number ?? this.listCounts[depth]) : undefined;
    const keepList = this.listLefts;
    this.close();
    this.listLefts = keepList;
    this.open = { block: { kind: 'item', depth, ...(number !== undefined ? { number } : {}), spans: dropChars(spans, marker.length) }, fontSize: line.fontSize, first: line, last: line, lines: 1, markerLeft: line.left };
  }

  private start(block: MarkdownBlock & { kind: 'heading' | 'paragraph' }, line: Line): void {
    this.close();
    this.listLefts = [];
    this.listCounts = [];
    this.open = { block, fontSize: line.fontSize, first: line, last: line, lines: 1 };
  }

  private extend(open: OpenBlock, line: Line, spans: TextSpan[]): void {
    joinLine(open.block.spans, spans);
    open.last = line;
    open.lines++;
  }

  private close(): void {
    const open = this.open;
    this.open = undefined;
    if (!open) return;
    const { block } = open;
    block.spans = trimSpans(block.spans);
    if (block.spans.length === 0) return;
    const text = spansText(block.spans);
    if (block.kind === 'heading' && text.length > MAX_HEADING_CHARS) this.emit({ kind: 'paragraph', spans: block.spans });
    else if (block.kind === 'paragraph' && open.lines === 1 && allBold(block.spans) && text.length <= MAX_BOLD_HEADING_CHARS && !/[.,;]$/.test(text)) {
      this.emit({ kind: 'heading', level: this.boldHeadingLevel, spans: block.spans });
    } else this.emit(block);
  }
}

/** A line as its mirror image (x negated): right-to-left text laid out as left-to-right text is. */
function mirrored(line: Line): Line {
  const flip = <T extends { left: number; right: number }>(box: T): T => ({ ...box, left: -box.right, right: -box.left });
  return { ...flip(line), cells: line.cells.map(flip) };
}

/** A bullet or number pdftohtml wrote apart from its item's text is part of the item's first cell. */
function withMarkerCellMerged(line: Line): Line {
  const [first, second, ...rest] = line.cells;
  if (!first || !second) return line;
  const marker = spansText(first.spans).trim();
  if (!listMarker(marker) || listMarker(marker)!.length < marker.length) return line;
  const merged: Segment = { ...first, right: second.right, spans: [...first.spans.map((span) => ({ ...span, text: `${span.text.trimEnd()} ` })), ...second.spans] };
  return { ...line, cells: [merged, ...rest] };
}

/** A line's spans, its cells parted by a space. */
function lineSpans(line: Line): TextSpan[] {
  const spans: TextSpan[] = [];
  line.cells.forEach((cell, index) => {
    if (index > 0) appendSpans(spans, [{ text: ' ', bold: false, italic: false }]);
    appendSpans(spans, cell.spans);
  });
  return spans;
}

/** Joins the next line onto a block's text: a word hyphenated at the line's end is made whole again. */
function joinLine(spans: TextSpan[], next: readonly TextSpan[]): void {
  const last = spans.at(-1);
  const following = next.map((span) => ({ ...span }));
  if (last && following[0]) {
    last.text = last.text.trimEnd();
    following[0].text = following[0].text.trimStart();
    if (last.text.endsWith('\u00ad')) last.text = last.text.slice(0, -1);
    else if (/\p{L}-$/u.test(last.text) && /^\p{Ll}/u.test(following[0].text)) last.text = last.text.slice(0, -1);
    else following.unshift({ text: ' ', bold: false, italic: false });
  }
  appendSpans(spans, following);
}

/** The spans without their first `count` characters (a list marker). */
function dropChars(spans: readonly TextSpan[], count: number): TextSpan[] {
  const kept: TextSpan[] = [];
  let left = count;
  for (const span of spans) {
    if (left >= span.text.length) {
      left -= span.text.length;
      continue;
    }
    kept.push({ ...span, text: span.text.slice(left) });
    left = 0;
  }
  return kept;
}

/** Spaces collapsed, none at either end, empty spans dropped. */
function trimSpans(spans: readonly TextSpan[]): TextSpan[] {
  const collapsed = spans.map((span) => ({ ...span, text: span.text.replace(/\s+/g, ' ') }));
  const kept: TextSpan[] = [];
  for (const span of collapsed) {
    if (kept.length === 0) span.text = span.text.trimStart();
    else if (/ $/.test(kept.at(-1)!.text)) span.text = span.text.replace(/^ /, '');
    if (span.text) kept.push(span);
  }
  while (kept.length > 0) {
    const last = kept.at(-1)!;
    last.text = last.text.trimEnd();
    if (last.text) break;
    kept.pop();
  }
  return kept;
}

const allBold = (spans: readonly TextSpan[]) => spans.some((span) => span.text.trim()) && spans.every((span) => span.bold || !span.text.trim());
