import { describe, expect, it } from 'vitest';
import { HTML_DOCUMENT_END, htmlDocumentStart, PdftohtmlSanitizer } from './pdftohtml.sanitizer.js';

/** pdftohtml -s -noframes -i output, shaped as poppler 22.12 writes it, with what a hostile PDF can plant. */
const pdftohtmlOutput = (page: number, font: string, link: string) =>
  [
    '<!DOCTYPE html>',
    '<html xmlns="http://www.w3.org/1999/xhtml" lang="" xml:lang="">',
    '<head>',
    '<title>/tmp/scratch/part-1</title>',
    '</head>',
    '<body bgcolor="#A0A0A0" vlink="blue" link="blue">',
    `<!-- Page ${page} -->`,
    `<a name="${page}"></a>`,
    '<style type="text/css">',
    '<!--',
    `\tp {margin: 0; padding: 0;}\t.ft${page}0{font-size:36px;font-family:${font};color:#000000;}`,
    `\t.ft${page}1{font-size:18px;line-height:21px;font-family:Helvetica;color:#ff0000;}`,
    '-->',
    '</style>',
    `<div id="page${page}-div" style="position:relative;width:892px;height:1263px;">`,
    `<p style="position:absolute;top:187px;left:108px;white-space:nowrap" class="ft${page}0"><a href="${link}">Click</a> &lt;b&gt; &amp; <b>bold</b><br/><i>it</i></p>`,
    `<p style="position:absolute;top:200px;left:108px;white-space:nowrap" class="ft${page}1">Plain text</p>`,
    '<img src="x.png" onerror="alert(3)"/>',
    '</div>',
    '<a name="outline"></a><h1>Document Outline</h1>',
    '<ul><li><a href="part-1.html#2">Second</a></li></ul>',
    '<hr/>',
    '</body>',
    '</html>',
  ];

const sanitize = (...parts: string[][]) => {
  const sanitizer = new PdftohtmlSanitizer();
  const lines: string[] = [];
  for (const part of parts) {
    for (const line of part) lines.push(...sanitizer.line(line));
    sanitizer.nextPart();
  }
  return lines.join('\n');
};

describe('PdftohtmlSanitizer (pure)', () => {
  it('keeps the pages pdftohtml writes: anchors, page boxes, positioned text, b/i/br, the font rules', () => {
    const html = sanitize(pdftohtmlOutput(1, 'Helvetica', 'https://example.com/?a=1&b=2'));
    expect(html).toBe(
      [
        '<!-- Page 1 -->',
        '<a name="1"></a>',
        '<style>',
        '.ft10{font-size:36px;font-family:"Helvetica";color:#000000}',
        '.ft11{font-size:18px;line-height:21px;font-family:"Helvetica";color:#ff0000}',
        '</style>',
        '<div id="page1-div" style="position:relative;width:892px;height:1263px;">',
        '<p style="position:absolute;top:187px;left:108px;white-space:nowrap" class="ft10"><a href="https://example.com/?a=1&amp;b=2">Click</a> &lt;b&gt; &amp; <b>bold</b><br/><i>it</i></p>',
        '<p style="position:absolute;top:200px;left:108px;white-space:nowrap" class="ft11">Plain text</p>',
        '</div>',
      ].join('\n'),
    );
  });

  it('defuses markup planted in a font name or a link target; drops the head, images and the outline', () => {
    const html = sanitize(
      pdftohtmlOutput(1, 'Evil;}</style><script>alert(1)</script>', 'x" onmouseover="alert(2)'),
      pdftohtmlOutput(2, 'Fine', 'x"><script>alert(4)</script><a href="'),
      pdftohtmlOutput(3, 'Fine', 'javascript:alert(5)'),
      pdftohtmlOutput(4, 'Fine', 'other.html#7'),
    );
    expect(html).not.toMatch(/<script|onmouseover=|onerror=|<img|javascript:|\/tmp\/scratch|Document Outline/i);
    // The rule ends at the first "}" the font name holds; the rest of the name is dropped.
    expect(html).toContain('.ft10{font-size:36px;font-family:"Evil"}');
    expect(html).toContain('class="ft10"><a>Click</a>');
    expect(html).toContain('<a href="#7">Click</a>');
    expect(html.match(/<!-- Page \d -->/g)).toEqual(['<!-- Page 1 -->', '<!-- Page 2 -->', '<!-- Page 3 -->', '<!-- Page 4 -->']);
    // Every <a> opened is closed on its line.
    for (const line of html.split('\n')) expect((line.match(/<a[ >]/g) ?? []).length).toBe((line.match(/<\/a>/g) ?? []).length);
  });

  it('writes its own head: UTF-8, a policy against scripts and remote loads, the title escaped', () => {
    const head = htmlDocumentStart('Q3 <script>"&"</script>');
    expect(head).toContain('<meta charset="utf-8"/>');
    expect(head).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(head).toContain('<title>Q3 &#60;script&#62;&#34;&#38;&#34;&#60;/script&#62;</title>');
    expect(htmlDocumentStart(undefined)).toContain('<title>Document</title>');
    expect(HTML_DOCUMENT_END).toBe('</body>\n</html>\n');
  });
});
