/**
 * pdftohtml (poppler 22.12) copies link targets and font names from the PDF into its HTML unescaped: a
 * hostile PDF gets `<a href="x" onmouseover="…">` or `</style><script>` into the output. So its HTML is
 * never passed on as it is: this filter reads it line by line and writes back only the markup pdftohtml
 * itself writes in `-s -noframes -i` mode, rebuilt from values it checks (numbers, colours, class names,
 * http(s)/mailto links, in-document page links); anything else is escaped or dropped. The page text is
 * already escaped by pdftohtml. The document head is ours: UTF-8, a Content-Security-Policy that blocks
 * scripts and remote loads, and the PDF's title escaped. The outline pdftohtml appends is left out (its
 * links name pdftohtml's file name).
 */
export class PdftohtmlSanitizer {
  private state: 'head' | 'pages' | 'style' | 'done' = 'head';
  private style = '';

  /** The safe lines for one line of pdftohtml's output (often none). */
  line(line: string): string[] {
    switch (this.state) {
      case 'head':
        if (!PAGE_COMMENT.test(line)) return [];
        this.state = 'pages';
        return this.pageLine(line);
      case 'style':
        if (line === '</style>') {
          this.state = 'pages';
          const rules = cssRules(this.style);
          this.style = '';
          return rules.length > 0 ? ['<style>', ...rules, '</style>'] : [];
        }
        if (this.style.length < MAX_STYLE_CHARS) this.style += `${line}\n`;
        return [];
      case 'pages':
        return this.pageLine(line);
      case 'done':
        return [];
    }
  }

  /** The next lines come from another pdftohtml run (the next page range): skip its head. */
  nextPart(): void {
    this.state = 'head';
    this.style = '';
  }

  private pageLine(line: string): string[] {
    let match: RegExpExecArray | null;
    if ((match = PAGE_COMMENT.exec(line))) return [`<!-- Page ${match[1]} -->`];
    if ((match = PAGE_ANCHOR.exec(line))) return [`<a name="${match[1]}"></a>`];
    if ((match = PAGE_DIV.exec(line))) return [`<div id="page${match[1]}-div" style="position:relative;width:${match[2]}px;height:${match[3]}px;">`];
    if (line === '</div>') return ['</div>'];
    if ((match = TEXT_LINE.exec(line))) return [`<p style="position:absolute;top:${match[1]}px;left:${match[2]}px;white-space:nowrap" class="${match[3]}">${inlineMarkup(match[4]!)}</p>`];
    if (line === '<style type="text/css">') {
      this.state = 'style';
      return [];
    }
    if (line.startsWith('<a name="outline">') || line === '</body>') this.state = 'done';
    return [];
  }
}

/** Our document head: pdftohtml's is not used (it names the output file when the PDF has no title). */
export function htmlDocumentStart(title: string | undefined): string {
  return [
    '<!DOCTYPE html>',
    '<html>',
    '<head>',
    '<meta charset="utf-8"/>',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"/>`,
    `<title>${escapeHtml(title?.trim() || 'Document')}</title>`,
    '<style>',
    'body{background:#a0a0a0;margin:0;padding:10px 0}',
    'p{margin:0;padding:0}',
    'div[id$="-div"]{background:#fff;margin:0 auto 10px auto;overflow:hidden}',
    '</style>',
    '</head>',
    '<body>',
    '',
  ].join('\n');
}

export const HTML_DOCUMENT_END = '</body>\n</html>\n';

const PAGE_COMMENT = /^<!-- Page (\d+) -->$/;
const PAGE_ANCHOR = /^<a name="?(\d+)"?><\/a>$/;
const PAGE_DIV = /^<div id="page(\d+)-div" style="position:relative;width:(\d+)px;height:(\d+)px;">$/;
const TEXT_LINE = /^<p style="position:absolute;top:(-?\d+)px;left:(-?\d+)px;white-space:nowrap" class="(ft\d+)">(.*)<\/p>$/;
const SIMPLE_TAGS = new Set(['<b>', '</b>', '<i>', '</i>', '<br/>']);
const LINK = /^<a href="(.*)">$/s;
const EXTERNAL_TARGET = /^(?:https?:\/\/|mailto:)[^\s"'<>`\\]+$/i;
const PAGE_TARGET = /^[^\s"'<>]*\.html#(\d+)$/;
const MAX_STYLE_CHARS = 256 * 1024;

/** The text of one line: escaped text, b/i/br, and links to http(s), mailto or a page of this document. */
function inlineMarkup(content: string): string {
  let openLinks = 0;
  return content
    .split(/(<[^>]*>)/)
    .map((piece, index) => {
      if (index % 2 === 0) return piece.replace(/</g, '&lt;').replace(/>/g, '&gt;');
      if (SIMPLE_TAGS.has(piece)) return piece;
      if (piece === '</a>') {
        if (openLinks === 0) return '';
        openLinks--;
        return piece;
      }
      const link = LINK.exec(piece);
      if (link) {
        openLinks++;
        const target = link[1]!;
        if (EXTERNAL_TARGET.test(target)) return `<a href="${target.replace(/&(?!amp;)/g, '&amp;')}">`;
        const page = PAGE_TARGET.exec(target);
        return page ? `<a href="#${page[1]}">` : '<a>';
      }
      return escapeHtml(piece);
    })
    .join('') + '</a>'.repeat(openLinks);
}

/** The `.ftN{…}` rules of a page's style block, each declaration checked; the font family reduced to safe characters. */
function cssRules(style: string): string[] {
  const rules: string[] = [];
  for (const [, name, body] of style.matchAll(/\.(ft\d+)\{([^}]*)\}/g)) {
    const declarations: string[] = [];
    for (const declaration of body!.split(';')) {
      const [property = '', value = ''] = declaration.split(/:(.*)/s).map((part) => part.trim());
      if ((property === 'font-size' || property === 'line-height') && /^\d+px$/.test(value)) declarations.push(`${property}:${value}`);
      else if (property === 'color' && /^#[0-9a-fA-F]{6}$/.test(value)) declarations.push(`color:${value}`);
      else if (property === 'font-family') {
        const family = value.replace(/[^A-Za-z0-9 +_-]/g, '').slice(0, 64);
        if (family) declarations.push(`font-family:"${family}"`);
      }
    }
    rules.push(`.${name}{${declarations.join(';')}}`);
  }
  return rules;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
