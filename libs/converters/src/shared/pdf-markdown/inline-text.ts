import type { TextSpan } from './pdf-page.js';

/** The content of a `<text>` element is not what pdftohtml writes: an unknown tag, entity or unbalanced markup. */
export class MalformedTextError extends Error {}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const LINK_TARGET = /^(?:https?:\/\/|mailto:)[^\s<>"`\\]+$/i;
// C0 controls (but tab and line feed, read as spaces), DEL and C1 controls carry nothing readable.
const isControl = (char: string) => {
  const code = char.charCodeAt(0);
  return (code < 0x20 && char !== '\t' && char !== '\n') || (code >= 0x7f && code <= 0x9f);
};
const withoutControls = (text: string) => [...text].filter((char) => !isControl(char)).join('');

/**
 * Pure: the spans of one `<text>` element's content: text with the five XML entities and character
 * references, inside `<b>`, `<i>` and `<a href="…">` (nested in any order). No other markup is accepted.
 */
export function parseInlineText(content: string): TextSpan[] {
  const spans: TextSpan[] = [];
  let bold = 0;
  let italic = 0;
  const links: Array<string | undefined> = [];
  for (const token of content.match(/<[^>]*>|[^<]+/g) ?? []) {
    if (token.startsWith('<')) {
      if (token === '<b>') bold++;
      else if (token === '<i>') italic++;
      else if (token === '</b>' && bold > 0) bold--;
      else if (token === '</i>' && italic > 0) italic--;
      else if (token === '</a>' && links.length > 0) links.pop();
      else {
        const link = /^<a href="([^"<]*)">$/.exec(token);
        if (!link) throw new MalformedTextError(`unexpected markup in a text line`);
        const target = decodeEntities(link[1]!);
        links.push(LINK_TARGET.test(target) ? target : undefined);
      }
      continue;
    }
    const text = withoutControls(decodeEntities(token)).replace(/[\t\n]/g, ' ');
    if (!text) continue;
    const href = links.findLast((target) => target !== undefined);
    const span: TextSpan = { text, bold: bold > 0, italic: italic > 0, ...(href ? { href } : {}) };
    const last = spans.at(-1);
    if (last && last.bold === span.bold && last.italic === span.italic && last.href === span.href) last.text += text;
    else spans.push(span);
  }
  if (bold !== 0 || italic !== 0 || links.length !== 0) throw new MalformedTextError('unbalanced markup in a text line');
  return spans;
}

/** The five XML entities and numeric character references; anything else that looks like a reference is malformed. */
export function decodeEntities(text: string): string {
  if (/&(?!(?:#x[0-9a-fA-F]{1,6}|#\d{1,7}|lt|gt|amp|quot|apos);)/.test(text)) throw new MalformedTextError('an unknown entity in a text line');
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);/g, (_, entity: string) => {
    if (!entity.startsWith('#')) return ENTITIES[entity]!;
    const code = entity.startsWith('#x') ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1));
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '';
  });
}
