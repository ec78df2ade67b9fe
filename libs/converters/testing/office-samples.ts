import { vbaProject } from './vba-project.js';
import { zip, type ZipEntry } from './zip-writer.js';

// Office documents written by hand (ZIP + XML), not by an office suite: the engine is tested on files
// it did not produce itself. Every sample carries the same words, which the output checks look for.

export const SAMPLE_HEADING = 'Fileshift sample';
export const SAMPLE_CELLS = ['alpha', 'beta'] as const;

export const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// ---------------------------------------------------------------- plain text formats

export const sampleTxt = () => `${SAMPLE_HEADING}\n\nA paragraph of plain text.\n${SAMPLE_CELLS.join('\t')}\n`;

export const sampleCsv = (extraRows: readonly string[] = []) => ['name,value', `${SAMPLE_CELLS[0]},1`, `${SAMPLE_CELLS[1]},2`, ...extraRows].join('\n') + '\n';

export const sampleHtml = (body = '') =>
  `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>sample</title></head><body>\n<h1>${SAMPLE_HEADING}</h1>\n<p>A paragraph of <b>HTML</b>.</p>\n` +
  `<table border="1"><tr><td>${SAMPLE_CELLS[0]}</td><td>${SAMPLE_CELLS[1]}</td></tr><tr><td>1</td><td>2</td></tr></table>\n${body}</body></html>\n`;

export const sampleRtf = () =>
  `{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0\\froman Times New Roman;}}\\f0\\fs24\n{\\b\\fs36 ${SAMPLE_HEADING}}\\par\n` +
  `A paragraph of RTF.\\par\n\\trowd\\cellx2000\\cellx4000 ${SAMPLE_CELLS[0]}\\cell ${SAMPLE_CELLS[1]}\\cell\\row\n}\n`;

// ---------------------------------------------------------------- OOXML

const CONTENT_TYPES = (overrides: Record<string, string>) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
  Object.entries(overrides)
    .map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`)
    .join('') +
  `</Types>`;

const RELS = (rels: Array<[id: string, type: string, target: string]>) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  rels
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${type.includes('://') ? type : `http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}`}" Target="${target}"/>`)
    .join('') +
  `</Relationships>`;

/** WordprocessingML of a heading, a paragraph and a 2×2 table; `pages` adds pages after page breaks, one paragraph each. */
function wordDocument(pages: readonly string[]): string {
  const paragraph = (text: string, style?: string) =>
    `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
  const cell = (text: string) => `<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>${paragraph(text)}</w:tc>`;
  const table =
    `<w:tbl><w:tblPr><w:tblW w:w="4000" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid>` +
    `<w:tr>${cell(SAMPLE_CELLS[0])}${cell(SAMPLE_CELLS[1])}</w:tr><w:tr>${cell('1')}${cell('2')}</w:tr></w:tbl>`;
  const pageBreak = `<w:p><w:r><w:br w:type="page"/></w:r></w:p>`;
  const body =
    paragraph(SAMPLE_HEADING, 'Heading1') + paragraph('A paragraph written by hand as WordprocessingML.') + table + pages.map((text) => pageBreak + paragraph(text)).join('');
  return wordBody(body);
}

/** A w:document of the given body, on an A4 page with inch margins. */
const wordBody = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
  `<w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr></w:body></w:document>`;

/** A DOCX package around a w:document, with the styles Word writes. */
function wordPackage(document: string): Buffer {
  return zip([
    {
      name: '[Content_Types].xml',
      content: CONTENT_TYPES({
        '/word/document.xml': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
        '/word/styles.xml': 'application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml',
      }),
    },
    { name: '_rels/.rels', content: RELS([['rId1', 'officeDocument', 'word/document.xml']]) },
    { name: 'word/document.xml', content: document },
    { name: 'word/_rels/document.xml.rels', content: RELS([['rId1', 'styles', 'styles.xml']]) },
    { name: 'word/styles.xml', content: WORD_STYLES },
  ]);
}

/** A DOCX: heading, paragraph and a 2×2 table; `pages` adds pages after page breaks, one paragraph each. */
export const sampleDocx = (pages: readonly string[] = []): Buffer => wordPackage(wordDocument(pages));

/** A paragraph of a hand-written document: its text, the language it is tagged with, the font it names. */
export interface SampleParagraph {
  text: string;
  lang?: string;
  font?: string;
}

/** A DOCX of the given paragraphs, each a run tagged with its language (w:lang) and font (w:rFonts), as Word writes them. */
export function docxOfParagraphs(paragraphs: readonly SampleParagraph[]): Buffer {
  const run = ({ text, lang, font }: SampleParagraph) => {
    const fonts = font ? `<w:rFonts w:ascii="${font}" w:hAnsi="${font}" w:eastAsia="${font}" w:cs="${font}"/>` : '';
    const language = lang ? `<w:lang w:val="${lang}" w:eastAsia="${lang}" w:bidi="${lang}"/>` : '';
    return `<w:p><w:r>${fonts || language ? `<w:rPr>${fonts}${language}</w:rPr>` : ''}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
  };
  return wordPackage(wordBody(paragraphs.map(run).join('')));
}

/** Word writes the styles a document uses; readers that go by style names (pandoc) find "heading 1" here. */
const WORD_STYLES =
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">` +
  `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>` +
  `<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style>` +
  `</w:styles>`;

/**
 * A macro-enabled Word document (.docm): the DOCX's content plus a VBA project whose `Document_Open` (module
 * ThisDocument) and `AutoOpen` (a standard module) each append a line naming themselves to `macroMarkerPath`.
 * They must never run.
 */
export function sampleDocm({ macroMarkerPath }: { macroMarkerPath: string }): Buffer {
  const write = (who: string) =>
    `  Dim n As Integer\r\n  n = FreeFile\r\n  Open "${macroMarkerPath.replace(/"/g, '""')}" For Append As #n\r\n  Print #n, "${who} ran"\r\n  Close #n\r\n`;
  const thisDocument =
    ['Attribute VB_Name = "ThisDocument"', 'Attribute VB_Base = "1Normal.ThisDocument"', 'Attribute VB_GlobalNameSpace = False', 'Attribute VB_Creatable = False']
      .concat(['Attribute VB_PredeclaredId = True', 'Attribute VB_Exposed = True', 'Attribute VB_TemplateDerived = True', 'Attribute VB_Customizable = True'])
      .join('\r\n') + `\r\nPrivate Sub Document_Open()\r\n${write('Document_Open')}End Sub\r\n`;
  const autoMacros = `Attribute VB_Name = "AutoMacros"\r\nSub AutoOpen()\r\n${write('AutoOpen')}End Sub\r\n`;
  return zip([
    {
      name: '[Content_Types].xml',
      content: CONTENT_TYPES({
        '/word/document.xml': 'application/vnd.ms-word.document.macroEnabled.main+xml',
        '/word/vbaProject.bin': 'application/vnd.ms-office.vbaProject',
      }),
    },
    { name: '_rels/.rels', content: RELS([['rId1', 'officeDocument', 'word/document.xml']]) },
    { name: 'word/document.xml', content: wordDocument([]) },
    { name: 'word/_rels/document.xml.rels', content: RELS([['rId1', 'http://schemas.microsoft.com/office/2006/relationships/vbaProject', 'vbaProject.bin']]) },
    {
      name: 'word/vbaProject.bin',
      content: vbaProject([
        { name: 'ThisDocument', kind: 'document', source: thisDocument },
        { name: 'AutoMacros', kind: 'procedural', source: autoMacros },
      ]),
    },
  ]);
}

/** An XLSX: a row of strings, a row of numbers, and optionally a formula in A3 (no cached value). */
export function sampleXlsx(formula?: string): Buffer {
  const strings = SAMPLE_CELLS.map((text, i) => `<c r="${'AB'[i]}1" t="inlineStr"><is><t>${text}</t></is></c>`).join('');
  const formulaRow = formula ? `<row r="3"><c r="A3" t="str"><f>${escapeXml(formula)}</f></c></row>` : '';
  const sheet =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
    `<sheetData><row r="1">${strings}</row><row r="2"><c r="A2"><v>1</v></c><c r="B2"><v>2</v></c></row>${formulaRow}</sheetData></worksheet>`;
  const workbook =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
    `<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
  return zip([
    {
      name: '[Content_Types].xml',
      content: CONTENT_TYPES({
        '/xl/workbook.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
        '/xl/worksheets/sheet1.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml',
      }),
    },
    { name: '_rels/.rels', content: RELS([['rId1', 'officeDocument', 'xl/workbook.xml']]) },
    { name: 'xl/workbook.xml', content: workbook },
    { name: 'xl/_rels/workbook.xml.rels', content: RELS([['rId1', 'worksheet', 'worksheets/sheet1.xml']]) },
    { name: 'xl/worksheets/sheet1.xml', content: sheet },
  ]);
}

// ---------------------------------------------------------------- ODF

const ODF_NAMESPACES = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"',
  'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
  'xmlns:xlink="http://www.w3.org/1999/xlink"',
  'xmlns:script="urn:oasis:names:tc:opendocument:xmlns:script:1.0"',
  'xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2"',
  // Event names and script languages are QNames: dom:load and ooo:script need their prefixes bound.
  'xmlns:dom="http://www.w3.org/2001/xml-events"',
  'xmlns:ooo="http://openoffice.org/2004/office"',
].join(' ');

const ODF_TYPES = {
  text: 'application/vnd.oasis.opendocument.text',
  spreadsheet: 'application/vnd.oasis.opendocument.spreadsheet',
  presentation: 'application/vnd.oasis.opendocument.presentation',
} as const;

export interface OdfExtras {
  scripts?: string;
  /** Automatic styles of content.xml. */
  styles?: string;
  /** The inside of styles.xml's document-styles: named styles, page layouts, master pages. */
  documentStyles?: string;
  /** The document's title in meta.xml (PDF exports carry it as the PDF's title). */
  title?: string;
  files?: ZipEntry[];
}

/** An ODF package of `kind` whose office body holds `body` (markup with the office, style, text, table, draw, svg, xlink… prefixes). */
export function odf(kind: keyof typeof ODF_TYPES, body: string, extras: OdfExtras = {}): Buffer {
  const content =
    `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content ${ODF_NAMESPACES} office:version="1.3">` +
    (extras.scripts ? `<office:scripts>${extras.scripts}</office:scripts>` : '') +
    `<office:automatic-styles>${extras.styles ?? ''}</office:automatic-styles><office:body><office:${kind}>${body}</office:${kind}></office:body></office:document-content>`;
  // Every office suite writes styles.xml, and some readers (pandoc) require it: an empty one unless styles are given.
  const styles = `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-styles ${ODF_NAMESPACES} office:version="1.3">${extras.documentStyles ?? '<office:styles/>'}</office:document-styles>`;
  const meta = extras.title
    ? [{ name: 'meta.xml', content: `<?xml version="1.0" encoding="UTF-8"?>\n<office:document-meta ${ODF_NAMESPACES} xmlns:dc="http://purl.org/dc/elements/1.1/" office:version="1.3"><office:meta><dc:title>${escapeXml(extras.title)}</dc:title></office:meta></office:document-meta>` }]
    : [];
  const files = [{ name: 'styles.xml', content: styles }, ...meta, ...(extras.files ?? [])];
  const manifest =
    `<?xml version="1.0" encoding="UTF-8"?>\n<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">` +
    `<manifest:file-entry manifest:full-path="/" manifest:version="1.3" manifest:media-type="${ODF_TYPES[kind]}"/>` +
    `<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>` +
    files.map((file) => `<manifest:file-entry manifest:full-path="${file.name}" manifest:media-type="text/xml"/>`).join('') +
    `</manifest:manifest>`;
  return zip([
    { name: 'mimetype', content: ODF_TYPES[kind], store: true },
    { name: 'META-INF/manifest.xml', content: manifest },
    { name: 'content.xml', content },
    ...files,
  ]);
}

export interface OdtExtras {
  /** Paragraphs on further pages (page breaks before each). */
  pages?: readonly string[];
  /** A linked (not embedded) image: LibreOffice must never fetch it. */
  linkedImageUrl?: string;
  /** A Basic macro bound to the document's load event, writing this file: it must never run. */
  macroMarkerPath?: string;
}

/** An ODT: heading, paragraph and a 2×2 table, plus the extras asked for. */
export function sampleOdt(extras: OdtExtras = {}): Buffer {
  const cell = (text: string) => `<table:table-cell office:value-type="string"><text:p>${escapeXml(text)}</text:p></table:table-cell>`;
  const image = extras.linkedImageUrl
    ? `<text:p><draw:frame draw:name="linked" text:anchor-type="as-char" svg:width="2cm" svg:height="2cm">` +
      `<draw:image xlink:href="${escapeXml(extras.linkedImageUrl)}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>`
    : '';
  const body =
    `<text:h text:outline-level="1">${SAMPLE_HEADING}</text:h><text:p>A paragraph written by hand as ODF.</text:p>${image}` +
    `<table:table table:name="T1"><table:table-column table:number-columns-repeated="2"/><table:table-row>${cell(SAMPLE_CELLS[0])}${cell(SAMPLE_CELLS[1])}</table:table-row>` +
    `<table:table-row>${cell('1')}${cell('2')}</table:table-row></table:table>` +
    (extras.pages ?? []).map((text) => `<text:p text:style-name="PageBreak">${escapeXml(text)}</text:p>`).join('');
  const styles = `<style:style style:name="PageBreak" style:family="paragraph"><style:paragraph-properties fo:break-before="page"/></style:style>`;
  if (!extras.macroMarkerPath) return odf('text', body, { styles });
  return odf('text', body, {
    styles,
    scripts: `<office:event-listeners>${MACRO_EVENTS.map(
      (event) =>
        `<script:event-listener script:language="ooo:script" script:event-name="${event}" xlink:type="simple" ` +
        `xlink:href="vnd.sun.star.script:Standard.Module1.Main?language=Basic&amp;location=document"/>`,
    ).join('')}</office:event-listeners>`,
    files: basicLibrary(`Sub Main\n  Dim n As Integer\n  n = FreeFile\n  Open "${extras.macroMarkerPath}" For Append As #n\n  Print #n, "macro ran"\n  Close #n\nEnd Sub\n`),
  });
}

/** Every document event a load, an export and a close go through: the macro is bound to each. */
const MACRO_EVENTS = ['dom:load', 'office:load-finished', 'office:view-created', 'office:copy-to', 'office:copy-to-done', 'office:prepare-unload', 'dom:unload'];

/** The document's Basic library "Standard" with one module, as LibreOffice stores it in ODF. */
function basicLibrary(source: string): ZipEntry[] {
  const doctype = (root: string, dtd: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE ${root} PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN" "${dtd}">\n`;
  return [
    {
      name: 'Basic/script-lc.xml',
      content:
        doctype('library:libraries', 'libraries.dtd') +
        `<library:libraries xmlns:library="http://openoffice.org/2000/library" xmlns:xlink="http://www.w3.org/1999/xlink">` +
        `<library:library library:name="Standard" library:link="false"/></library:libraries>`,
    },
    {
      name: 'Basic/Standard/script-lb.xml',
      content:
        doctype('library:library', 'library.dtd') +
        `<library:library xmlns:library="http://openoffice.org/2000/library" library:name="Standard" library:readonly="false" library:passwordprotected="false">` +
        `<library:element library:name="Module1"/></library:library>`,
    },
    {
      name: 'Basic/Standard/Module1.xml',
      content: doctype('script:module', 'module.dtd') + `<script:module xmlns:script="http://openoffice.org/2000/script" script:name="Module1" script:language="StarBasic">${escapeXml(source)}</script:module>`,
    },
  ];
}

/** An ODS: a row of strings, a row of numbers, and optionally a formula in A3 with no cached value. */
export function sampleOds(formula?: string): Buffer {
  const string = (text: string) => `<table:table-cell office:value-type="string"><text:p>${escapeXml(text)}</text:p></table:table-cell>`;
  const number = (value: number) => `<table:table-cell office:value-type="float" office:value="${value}"><text:p>${value}</text:p></table:table-cell>`;
  const formulaRow = formula ? `<table:table-row><table:table-cell table:formula="of:=${escapeXml(formula)}"/></table:table-row>` : '';
  return odf(
    'spreadsheet',
    `<table:table table:name="Sheet1"><table:table-column table:number-columns-repeated="2"/>` +
      `<table:table-row>${string(SAMPLE_CELLS[0])}${string(SAMPLE_CELLS[1])}</table:table-row><table:table-row>${number(1)}${number(2)}</table:table-row>${formulaRow}</table:table>`,
  );
}

/** An ODP: one slide per title. */
export function sampleOdp(titles: readonly string[] = [SAMPLE_HEADING]): Buffer {
  const slides = titles
    .map(
      (title, i) =>
        `<draw:page draw:name="page${i + 1}"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm">` +
        `<draw:text-box><text:p>${escapeXml(title)}</text:p></draw:text-box></draw:frame></draw:page>`,
    )
    .join('');
  return odf('presentation', slides);
}

// ---------------------------------------------------------------- a structured report (for reading PDFs back)

/** The words of the report sample, which tests of PDF readers look for in their output. */
export const REPORT = {
  title: 'Fileshift field report',
  header: 'Fileshift field report, internal',
  headings: ['Introduction', 'Findings', 'Measurements', 'Two columns'],
  bullets: ['Scanned pages carry no text layer', 'Tables lose their columns', 'Merged cells are split', 'Headers repeat on every page'],
  steps: ['Read the text layer with poppler', 'Rebuild paragraphs and lists', 'Write Markdown for agents'],
  table: [
    ['Engine', 'Pages', 'Seconds'],
    ['poppler', '200', '1.5'],
    ['ghostscript', '120', '3.2'],
    ['libreoffice', '80', '4.8'],
  ],
  link: 'https://example.com/docs',
  left: 'The left column opens the second part',
  right: 'The right column closes the second part',
} as const;

const LOREM =
  'Conversions run inside a sandbox with a deadline and an output cap, and every engine reports what it can do, so the planner only chooses steps that exist on this machine.';

/**
 * An ODT written by hand that LibreOffice lays out like a real report: a running header and a page-number
 * footer, headings at two levels, a paragraph with bold, italic and a link, a bulleted list with a nested
 * item, a numbered list, a 3-column table, and a page in two columns (left column, then a column break).
 */
export function sampleReportOdt(): Buffer {
  const p = (text: string, style = 'Body') => `<text:p text:style-name="${style}">${text}</text:p>`;
  const h = (level: number, text: string, style = `H${level}`) => `<text:h text:style-name="${style}" text:outline-level="${level}">${escapeXml(text)}</text:h>`;
  const item = (text: string, nested = '') => `<text:list-item>${p(escapeXml(text))}${nested}</text:list-item>`;
  const cell = (text: string) => `<table:table-cell office:value-type="string">${p(escapeXml(text))}</table:table-cell>`;
  const [intro, findings, measurements, twoColumns] = REPORT.headings;
  const [scanned, tables, merged, headers] = REPORT.bullets;
  const body =
    h(1, intro) +
    p(
      `This report explains how <text:span text:style-name="Bold">Fileshift</text:span> reads a PDF back into text that an agent can use. ${LOREM} ` +
        `The <text:span text:style-name="Italic">documentation</text:span> is at <text:a xlink:type="simple" xlink:href="${REPORT.link}">the docs site</text:a>. ${LOREM}`,
    ) +
    h(2, findings) +
    p('The survey found these recurring problems:') +
    `<text:list text:style-name="Bullets">${item(scanned)}${item(tables, `<text:list>${item(merged)}</text:list>`)}${item(headers)}</text:list>` +
    p('We propose these steps:') +
    `<text:list text:style-name="Numbers">${REPORT.steps.map((step) => item(step)).join('')}</text:list>` +
    h(2, measurements) +
    `<table:table table:name="Timings" table:style-name="Timings"><table:table-column table:number-columns-repeated="3"/>` +
    REPORT.table.map((row) => `<table:table-row>${row.map(cell).join('')}</table:table-row>`).join('') +
    `</table:table>` +
    p(LOREM) +
    h(1, twoColumns, 'H1Break') +
    `<text:section text:name="Columns" text:style-name="TwoColumns">` +
    p(`${REPORT.left}. ${LOREM} ${LOREM}`) +
    p(`${REPORT.right}. ${LOREM} ${LOREM}`, 'ColumnBreak') +
    `</text:section>`;
  const styles =
    `<style:style style:name="Bold" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>` +
    `<style:style style:name="Italic" style:family="text"><style:text-properties fo:font-style="italic"/></style:style>` +
    `<style:style style:name="H1Break" style:family="paragraph" style:parent-style-name="H1"><style:paragraph-properties fo:break-before="page"/></style:style>` +
    `<style:style style:name="ColumnBreak" style:family="paragraph" style:parent-style-name="Body"><style:paragraph-properties fo:break-before="column"/></style:style>` +
    `<style:style style:name="TwoColumns" style:family="section"><style:section-properties><style:columns fo:column-count="2" fo:column-gap="1cm"/></style:section-properties></style:style>` +
    `<style:style style:name="Timings" style:family="table"><style:table-properties style:width="12cm" table:align="left"/></style:style>` +
    `<text:list-style style:name="Bullets">` +
    [1, 2].map((level) => `<text:list-level-style-bullet text:level="${level}" text:bullet-char="${level === 1 ? '•' : '◦'}"><style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" fo:text-indent="-0.6cm" fo:margin-left="${level * 1.2}cm"/></style:list-level-properties></text:list-level-style-bullet>`).join('') +
    `</text:list-style>` +
    `<text:list-style style:name="Numbers"><text:list-level-style-number text:level="1" style:num-format="1" style:num-suffix="."><style:list-level-properties text:list-level-position-and-space-mode="label-alignment"><style:list-level-label-alignment text:label-followed-by="listtab" fo:text-indent="-0.6cm" fo:margin-left="1.2cm"/></style:list-level-properties></text:list-level-style-number></text:list-style>`;
  const font = (size: number, bold = false) => `<style:text-properties fo:font-size="${size}pt" style:font-name="Liberation Serif" fo:font-family="'Liberation Serif'"${bold ? ' fo:font-weight="bold"' : ''}/>`;
  const documentStyles =
    `<office:styles>` +
    `<style:style style:name="Body" style:family="paragraph"><style:paragraph-properties fo:margin-bottom="0.25cm"/>${font(11)}</style:style>` +
    `<style:style style:name="H1" style:family="paragraph"><style:paragraph-properties fo:margin-top="0.4cm" fo:margin-bottom="0.3cm"/>${font(20, true)}</style:style>` +
    `<style:style style:name="H2" style:family="paragraph"><style:paragraph-properties fo:margin-top="0.3cm" fo:margin-bottom="0.2cm"/>${font(15, true)}</style:style>` +
    `<style:style style:name="Margin" style:family="paragraph">${font(9)}</style:style>` +
    `</office:styles>` +
    `<office:automatic-styles><style:page-layout style:name="Page"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-top="1.5cm" fo:margin-bottom="1.5cm" fo:margin-left="2cm" fo:margin-right="2cm"/>` +
    `<style:header-style><style:header-footer-properties fo:min-height="0.8cm" fo:margin-bottom="0.5cm"/></style:header-style><style:footer-style><style:header-footer-properties fo:min-height="0.8cm" fo:margin-top="0.5cm"/></style:footer-style></style:page-layout></office:automatic-styles>` +
    `<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="Page">` +
    `<style:header>${p(escapeXml(REPORT.header), 'Margin')}</style:header><style:footer>${p('Page <text:page-number text:select-page="current">1</text:page-number>', 'Margin')}</style:footer>` +
    `</style:master-page></office:master-styles>`;
  return odf('text', body, { styles, documentStyles, title: REPORT.title });
}
