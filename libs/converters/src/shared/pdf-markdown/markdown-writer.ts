import type { MarkdownBlock } from './markdown-block.js';
import type { TextSpan } from './pdf-page.js';

/**
 * Pure: writes blocks as Markdown (CommonMark with GFM tables), chunk by chunk. Text is escaped so that it
 * never reads as markup or HTML; bold and italic are kept where they set words apart (not when the whole
 * block is bold or italic, nor in headings); http(s) and mailto links are kept.
 */
export class MarkdownWriter {
  private previous: MarkdownBlock['kind'] | undefined;
  /** Per depth of the list being written, the column its items' text starts at. */
  private listIndents: number[] = [];

  constructor(private readonly write: (chunk: string) => void) {}

  block(block: MarkdownBlock): void {
    const inList = block.kind === 'item' && this.previous === 'item';
    if (this.previous !== undefined) this.write(inList ? '\n' : '\n\n');
    if (!inList) this.listIndents = [];
    this.previous = block.kind;
    switch (block.kind) {
      case 'heading':
        // A `#` at the end would close the heading.
        this.write(`${'#'.repeat(Math.min(Math.max(block.level, 1), 6))} ${inline(block.spans, false).replace(/#$/, '\\#')}`);
        return;
      case 'paragraph':
        this.write(escapeBlockStart(inline(block.spans, true)));
        return;
      case 'item': {
        const depth = Math.min(block.depth, this.listIndents.length);
        const indent = depth === 0 ? 0 : this.listIndents[depth - 1]!;
        const marker = block.number !== undefined ? `${block.number}. ` : '- ';
        this.listIndents.length = depth;
        this.listIndents.push(indent + marker.length);
        this.write(`${' '.repeat(indent)}${marker}${escapeBlockStart(inline(block.spans, true))}`);
        return;
      }
      case 'table': {
        const columns = Math.max(...block.rows.map((row) => row.length));
        const row = (cells: readonly TextSpan[][]) => `| ${Array.from({ length: columns }, (_, i) => inline(cells[i] ?? [], true)).join(' | ')} |`;
        const [header = [], ...body] = block.rows;
        this.write([row(header), `|${' --- |'.repeat(columns)}`, ...body.map(row)].join('\n'));
        return;
      }
    }
  }

  /** After the last block: the file ends with a line break. */
  end(): void {
    if (this.previous !== undefined) this.write('\n');
  }
}

const LINK_TARGET = /^(?:https?:\/\/|mailto:)[^\s<>"`\\]+$/i;

/** The Markdown of a run of spans: escaped text, emphasis where it sets words apart, links. */
export function inline(spans: readonly TextSpan[], marks: boolean): string {
  const visible = spans.filter((span) => span.text.trim());
  const boldMarks = marks && !visible.every((span) => span.bold);
  const italicMarks = marks && !visible.every((span) => span.italic);
  let out = '';
  for (let index = 0; index < spans.length; ) {
    // A run of spans with one link target is one link.
    const href = spans[index]!.href;
    let end = index + 1;
    while (end < spans.length && spans[end]!.href === href) end++;
    const run = spans.slice(index, end);
    const text = run.map((span, i) => emphasised(span, boldMarks, italicMarks, run[i - 1]?.text ?? out, run[i + 1]?.text ?? spans[end]?.text ?? '')).join('');
    if (href && LINK_TARGET.test(href) && text.trim()) {
      const [, lead = '', body = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
      out += `${lead}[${body}](${href.replace(/[()]/g, (c) => (c === '(' ? '%28' : '%29'))})${trail}`;
    } else out += text;
    index = end;
  }
  return out;
}

function emphasised(span: TextSpan, boldMarks: boolean, italicMarks: boolean, before: string, after: string): string {
  const [, lead = '', body = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(span.text)!;
  if (!body) return span.text;
  let text = escapeMarkdown(body);
  // `_` does not open emphasis inside a word: there `*` does.
  const inWord = (!lead && /[\p{L}\p{N}]$/u.test(before)) || (!trail && /^[\p{L}\p{N}]/u.test(after));
  if (span.italic && italicMarks) text = inWord ? `*${text}*` : `_${text}_`;
  if (span.bold && boldMarks) text = `**${text}**`;
  return `${lead}${text}${trail}`;
}

/** Escapes what Markdown would read as markup anywhere in a line (and `<`, so no HTML is ever made). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|~]/g, '\\$&').replace(/&(?=#?\w+;)/g, '\\&');
}

/** Escapes what Markdown would read as markup at the start of a block: a heading, quote, list or rule. */
export function escapeBlockStart(text: string): string {
  return text.replace(/^([#>+=-])/, '\\$1').replace(/^(\d+)([.)])(?=\s|$)/, '$1\\$2');
}
