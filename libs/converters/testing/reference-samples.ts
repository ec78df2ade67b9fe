import type { CanaryFile } from './canary-files.js';
import { MARKUP_SAMPLES } from './markup-samples.js';
import { odf, SAMPLE_HEADING, sampleHtml, sampleRtf } from './office-samples.js';
import { zip } from './zip-writer.js';

// Documents that name files outside themselves, in every way their format allows: pictures, style sheets,
// backgrounds, frames, fields, relationships, links, includes. Each names every spelling `hrefs` gives for a
// canary (relative, absolute, file: URL, to each place a test puts canaries), and carries SAMPLE_HEADING, so an
// output can be checked both for its own text and for any canary.

/** The spellings of a reference to one canary file, as the format's document would resolve them. */
export type Hrefs = (file: CanaryFile) => string[];

/** One document: its name (what it tries), its format and bytes. */
export interface ReferenceSample {
  name: string;
  format: string;
  bytes: Buffer;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const sample = (name: string, format: string, content: string | Buffer): ReferenceSample => ({ name, format, bytes: Buffer.isBuffer(content) ? content : Buffer.from(content) });

// ---------------------------------------------------------------- HTML and RTF (LibreOffice)

/** HTML naming files by every element and property LibreOffice's HTML import reads one from. */
export function htmlReferenceSamples(hrefs: Hrefs): ReferenceSample[] {
  const withHead = (head: string, body = '') => sampleHtml(body).replace('</head>', `${head}</head>`);
  const each = (file: CanaryFile, markup: (href: string) => string) => hrefs(file).map((href) => markup(escape(href))).join('\n');
  return [
    sample('html-img', 'html', sampleHtml(each('canary.png', (href) => `<p><img src="${href}" width="64" height="64" alt="picture"></p>`))),
    sample('html-stylesheet', 'html', withHead(each('canary.css', (href) => `<link rel="stylesheet" type="text/css" href="${href}">`))),
    sample('html-css-import', 'html', withHead(`<style>${each('canary.css', (href) => `@import url("${href}");`)}</style>`)),
    sample('html-body-background', 'html', sampleHtml().replace('<body>', `<body background="${escape(hrefs('canary.png')[0]!)}">`)),
    ...hrefs('canary.png').slice(1).map((href, i) => sample(`html-body-background-${i + 2}`, 'html', sampleHtml().replace('<body>', `<body background="${escape(href)}">`))),
    sample('html-table-background', 'html', sampleHtml(each('canary.png', (href) => `<table background="${href}" width="300"><tr><td background="${href}" height="64">cell</td></tr></table>`))),
    sample(
      'html-css-background',
      'html',
      withHead(
        `<style>${hrefs('canary.png').map((href, i) => `.background${i} { background-image: url("${escape(href)}"); }`).join('\n')}</style>`,
        hrefs('canary.png').map((href, i) => `<p class="background${i}">class</p><p style="background-image: url('${escape(href)}')">style</p>`).join('\n'),
      ),
    ),
    sample('html-frames', 'html', sampleHtml(each('canary.xhtml', (href) => `<iframe src="${href}" width="300" height="100"></iframe>`) + each('canary.png', (href) => `<embed src="${href}" width="64" height="64"><object data="${href}" type="image/png" width="64" height="64"></object>`))),
  ];
}

/**
 * RTF fields that read a file: INCLUDEPICTURE (with and without \\d, "do not store") and INCLUDETEXT, and the
 * field type spelled as a reader still reads it: split across groups, a letter as `\\'hh` or `\\uN`, lower case.
 */
export function rtfReferenceSamples(hrefs: Hrefs): ReferenceSample[] {
  const field = (instruction: string) => `{\\field{\\*\\fldinst ${instruction}}{\\fldrslt }}\\par\n`;
  const withFields = (fields: string) => sampleRtf().replace(/\}\n$/, `${fields}}\n`);
  const disguised = (href: string) => [`{INCLUDE}{PICTURE "${href}"}`, `\\'49NCLUDEPICTURE "${href}"`, `\\u73?NCLUDEPICTURE "${href}"`, `includepicture "${href}"`];
  return [
    sample('rtf-includepicture', 'rtf', withFields(hrefs('canary.png').map((href) => field(`INCLUDEPICTURE "${href}" \\\\d`) + field(`INCLUDEPICTURE "${href}"`)).join(''))),
    sample('rtf-includepicture-disguised', 'rtf', withFields(hrefs('canary.png').flatMap(disguised).map(field).join(''))),
    sample('rtf-includetext', 'rtf', withFields(hrefs('canary.txt').map((href) => field(`INCLUDETEXT "${href}"`)).join(''))),
  ];
}

// ---------------------------------------------------------------- OOXML

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS = {
  w: 'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  wp: 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing',
  a: 'http://schemas.openxmlformats.org/drawingml/2006/main',
  pic: 'http://schemas.openxmlformats.org/drawingml/2006/picture',
  p: 'http://schemas.openxmlformats.org/presentationml/2006/main',
  s: 'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
};

interface Relationship {
  id: string;
  type: string;
  target: string;
  external?: boolean;
}

const relationships = (rels: readonly Relationship[]) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  rels.map((rel) => `<Relationship Id="${rel.id}" Type="${REL}/${rel.type}" Target="${escape(rel.target)}"${rel.external ? ' TargetMode="External"' : ''}/>`).join('') +
  `</Relationships>`;

const contentTypes = (overrides: Record<string, string>) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
  Object.entries(overrides).map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`).join('') +
  `</Types>`;

/** A DrawingML picture (`<pic:pic>`) showing the relationship `id`, by `r:link` (a linked picture) or `r:embed`. */
const picture = (id: string, n: number, how: 'r:link' | 'r:embed') =>
  `<pic:pic xmlns:pic="${NS.pic}"><pic:nvPicPr><pic:cNvPr id="${n}" name="picture${n}.png"/><pic:cNvPicPr/></pic:nvPicPr>` +
  `<pic:blipFill><a:blip ${how}="${id}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
  `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="609600" cy="609600"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic>`;

function wordDocument(body: string, rels: readonly Relationship[], parts: ReadonlyArray<{ name: string; type: string; content: string }> = []): Buffer {
  const document =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="${NS.w}" xmlns:r="${REL}" xmlns:wp="${NS.wp}" xmlns:a="${NS.a}">` +
    `<w:body><w:p><w:r><w:t>${SAMPLE_HEADING}</w:t></w:r></w:p>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`;
  return zip([
    {
      name: '[Content_Types].xml',
      content: contentTypes({
        '/word/document.xml': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
        ...Object.fromEntries(parts.map((part) => [`/word/${part.name}`, part.type])),
      }),
    },
    { name: '_rels/.rels', content: relationships([{ id: 'rId1', type: 'officeDocument', target: 'word/document.xml' }]) },
    { name: 'word/document.xml', content: document },
    { name: 'word/_rels/document.xml.rels', content: relationships(rels) },
    ...parts.map((part) => ({ name: `word/${part.name}`, content: part.content })),
  ]);
}

/**
 * Word documents naming files: pictures by external relationships (linked, and "embedded" from outside),
 * INCLUDEPICTURE and INCLUDETEXT fields, and documents imported whole into them (w:altChunk) in RTF and HTML that
 * name files in turn.
 */
export function docxReferenceSamples(hrefs: Hrefs): ReferenceSample[] {
  const pictures = hrefs('canary.png');
  const rels = pictures.map((target, i) => ({ id: `rIdPicture${i}`, type: 'image', target, external: true }));
  const drawing = (how: 'r:link' | 'r:embed') =>
    rels
      .map(
        (rel, i) =>
          `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="609600" cy="609600"/><wp:docPr id="${i + 1}" name="picture${i + 1}"/>` +
          `<a:graphic><a:graphicData uri="${NS.pic}">${picture(rel.id, i + 1, how)}</a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`,
      )
      .join('');
  const field = (instruction: string) => `<w:p><w:fldSimple w:instr="${escape(instruction)}"><w:r><w:t>field</w:t></w:r></w:fldSimple></w:p>`;
  const complexField = (instruction: string) =>
    `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve">${escape(instruction)}</w:instrText></w:r>` +
    `<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>field</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`;
  return [
    sample('docx-linked-picture', 'docx', wordDocument(drawing('r:link'), rels)),
    sample('docx-external-embed', 'docx', wordDocument(drawing('r:embed'), rels)),
    sample(
      'docx-include-fields',
      'docx',
      wordDocument(
        [...pictures.map((href) => ` INCLUDEPICTURE "${href}" \\d `), ...hrefs('canary.txt').map((href) => ` INCLUDETEXT "${href}" `)].map((instruction) => field(instruction) + complexField(instruction)).join(''),
        [],
      ),
    ),
    sample(
      'docx-altchunk',
      'docx',
      wordDocument(
        '<w:altChunk r:id="rIdChunkRtf"/><w:altChunk r:id="rIdChunkHtml"/>',
        [
          { id: 'rIdChunkRtf', type: 'aFChunk', target: 'chunk.rtf' },
          { id: 'rIdChunkHtml', type: 'aFChunk', target: 'chunk.html' },
        ],
        [
          { name: 'chunk.rtf', type: 'application/rtf', content: rtfReferenceSamples(hrefs).find((one) => one.name === 'rtf-includepicture')!.bytes.toString() },
          { name: 'chunk.html', type: 'text/html', content: htmlReferenceSamples(hrefs).find((one) => one.name === 'html-img')!.bytes.toString() },
        ],
      ),
    ),
  ];
}

/** A spreadsheet whose picture is linked and whose formula reads another workbook (an external link). */
export function xlsxReferenceSamples(hrefs: Hrefs): ReferenceSample[] {
  const tables = hrefs('canary.csv');
  const pictures = hrefs('canary.png');
  const sheet =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${NS.s}" xmlns:r="${REL}"><sheetData>` +
    `<row r="1"><c r="A1" t="inlineStr"><is><t>${SAMPLE_HEADING}</t></is></c></row>` +
    tables.map((_, i) => `<row r="${i + 2}"><c r="A${i + 2}" t="str"><f>[${i + 1}]canary!A1</f></c></row>`).join('') +
    `</sheetData><drawing r:id="rIdDrawing"/></worksheet>`;
  const anchors = pictures
    .map(
      (_, i) =>
        `<xdr:oneCellAnchor><xdr:from><xdr:col>2</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${i * 4}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>` +
        `<xdr:ext cx="609600" cy="609600"/><xdr:pic><xdr:nvPicPr><xdr:cNvPr id="${i + 2}" name="picture${i}"/><xdr:cNvPicPr/></xdr:nvPicPr>` +
        `<xdr:blipFill><a:blip r:link="rIdPicture${i}"/><a:stretch><a:fillRect/></a:stretch></xdr:blipFill>` +
        `<xdr:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr></xdr:pic><xdr:clientData/></xdr:oneCellAnchor>`,
    )
    .join('');
  const drawing = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="${NS.a}" xmlns:r="${REL}">${anchors}</xdr:wsDr>`;
  const workbook =
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="${NS.s}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets>` +
    `<externalReferences>${tables.map((_, i) => `<externalReference r:id="rIdLink${i}"/>`).join('')}</externalReferences></workbook>`;
  const externalLink = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<externalLink xmlns="${NS.s}" xmlns:r="${REL}"><externalBook r:id="rId1"><sheetNames><sheetName val="canary"/></sheetNames></externalBook></externalLink>`;
  const linkType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.externalLink+xml';
  return [
    sample(
      'xlsx-external-links',
      'xlsx',
      zip([
        {
          name: '[Content_Types].xml',
          content: contentTypes({
            '/xl/workbook.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
            '/xl/worksheets/sheet1.xml': 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml',
            '/xl/drawings/drawing1.xml': 'application/vnd.openxmlformats-officedocument.drawing+xml',
            ...Object.fromEntries(tables.map((_, i) => [`/xl/externalLinks/externalLink${i + 1}.xml`, linkType])),
          }),
        },
        { name: '_rels/.rels', content: relationships([{ id: 'rId1', type: 'officeDocument', target: 'xl/workbook.xml' }]) },
        { name: 'xl/workbook.xml', content: workbook },
        {
          name: 'xl/_rels/workbook.xml.rels',
          content: relationships([{ id: 'rId1', type: 'worksheet', target: 'worksheets/sheet1.xml' }, ...tables.map((_, i) => ({ id: `rIdLink${i}`, type: 'externalLink', target: `externalLinks/externalLink${i + 1}.xml` }))]),
        },
        { name: 'xl/worksheets/sheet1.xml', content: sheet },
        { name: 'xl/worksheets/_rels/sheet1.xml.rels', content: relationships([{ id: 'rIdDrawing', type: 'drawing', target: '../drawings/drawing1.xml' }]) },
        { name: 'xl/drawings/drawing1.xml', content: drawing },
        { name: 'xl/drawings/_rels/drawing1.xml.rels', content: relationships(pictures.map((target, i) => ({ id: `rIdPicture${i}`, type: 'image', target, external: true }))) },
        ...tables.flatMap((target, i) => [
          { name: `xl/externalLinks/externalLink${i + 1}.xml`, content: externalLink },
          { name: `xl/externalLinks/_rels/externalLink${i + 1}.xml.rels`, content: relationships([{ id: 'rId1', type: 'externalLinkPath', target, external: true }]) },
        ]),
      ]),
    ),
  ];
}

/** A presentation whose slide shows linked pictures. */
export function pptxReferenceSamples(hrefs: Hrefs): ReferenceSample[] {
  const pictures = hrefs('canary.png');
  const pptx = (name: string) => `application/vnd.openxmlformats-officedocument.presentationml.${name}+xml`;
  const shapes = pictures
    .map(
      (_, i) =>
        `<p:pic><p:nvPicPr><p:cNvPr id="${i + 3}" name="picture${i}"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:link="rIdPicture${i}"/><a:stretch><a:fillRect/></a:stretch></p:blipFill>` +
        `<p:spPr><a:xfrm><a:off x="${(i % 6) * 1300000}" y="${2000000 + Math.floor(i / 6) * 1300000}"/><a:ext cx="1219200" cy="1219200"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`,
    )
    .join('');
  const tree = (content: string) =>
    `<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${content}</p:spTree></p:cSld>`;
  const title =
    `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="457200" y="274638"/><a:ext cx="8229600" cy="1143000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>` +
    `<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>${SAMPLE_HEADING}</a:t></a:r></a:p></p:txBody></p:sp>`;
  const xml = (root: string, inner: string, extra = '') => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:${root} xmlns:a="${NS.a}" xmlns:r="${REL}" xmlns:p="${NS.p}"${extra}>${inner}</p:${root}>`;
  return [
    sample(
      'pptx-linked-picture',
      'pptx',
      zip([
        {
          name: '[Content_Types].xml',
          content: contentTypes({
            '/ppt/presentation.xml': pptx('presentation.main'),
            '/ppt/slides/slide1.xml': pptx('slide'),
            '/ppt/slideLayouts/slideLayout1.xml': pptx('slideLayout'),
            '/ppt/slideMasters/slideMaster1.xml': pptx('slideMaster'),
          }),
        },
        { name: '_rels/.rels', content: relationships([{ id: 'rId1', type: 'officeDocument', target: 'ppt/presentation.xml' }]) },
        {
          name: 'ppt/presentation.xml',
          content: xml('presentation', `<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/>`),
        },
        { name: 'ppt/_rels/presentation.xml.rels', content: relationships([{ id: 'rId1', type: 'slideMaster', target: 'slideMasters/slideMaster1.xml' }, { id: 'rId2', type: 'slide', target: 'slides/slide1.xml' }]) },
        { name: 'ppt/slideMasters/slideMaster1.xml', content: xml('sldMaster', `${tree('')}<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/><p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst>`) },
        { name: 'ppt/slideMasters/_rels/slideMaster1.xml.rels', content: relationships([{ id: 'rId1', type: 'slideLayout', target: '../slideLayouts/slideLayout1.xml' }]) },
        { name: 'ppt/slideLayouts/slideLayout1.xml', content: xml('sldLayout', tree(''), ' type="blank"') },
        { name: 'ppt/slideLayouts/_rels/slideLayout1.xml.rels', content: relationships([{ id: 'rId1', type: 'slideMaster', target: '../slideMasters/slideMaster1.xml' }]) },
        { name: 'ppt/slides/slide1.xml', content: xml('sld', tree(title + shapes)) },
        {
          name: 'ppt/slides/_rels/slide1.xml.rels',
          content: relationships([{ id: 'rId1', type: 'slideLayout', target: '../slideLayouts/slideLayout1.xml' }, ...pictures.map((target, i) => ({ id: `rIdPicture${i}`, type: 'image', target, external: true }))]),
        },
      ]),
    ),
  ];
}

// ---------------------------------------------------------------- ODF

const linkedImage = (href: string, size = '2cm') =>
  `<draw:frame text:anchor-type="as-char" svg:width="${size}" svg:height="${size}"><draw:image xlink:href="${escape(href)}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame>`;

/** ODF documents naming files: linked pictures, a linked section, a paragraph background, a floating frame; a sheet's linked table and external reference; a slide's linked picture. */
export function odfReferenceSamples(hrefs: Hrefs): ReferenceSample[] {
  const heading = `<text:h text:outline-level="1">${SAMPLE_HEADING}</text:h>`;
  const backgroundStyles = hrefs('canary.png')
    .map(
      (href, i) =>
        `<style:style style:name="Background${i}" style:family="paragraph"><style:paragraph-properties fo:background-color="transparent">` +
        `<style:background-image xlink:href="${escape(href)}" xlink:type="simple" xlink:actuate="onLoad" style:repeat="repeat"/></style:paragraph-properties></style:style>`,
    )
    .join('');
  const tableRow = (cells: string) => `<table:table-row>${cells}</table:table-row>`;
  const stringCell = (text: string) => `<table:table-cell office:value-type="string"><text:p>${escape(text)}</text:p></table:table-cell>`;
  return [
    sample('odt-linked-picture', 'odt', odf('text', heading + hrefs('canary.png').map((href) => `<text:p>${linkedImage(href)}</text:p>`).join(''))),
    sample(
      'odt-linked-section',
      'odt',
      odf('text', heading + hrefs('canary.txt').map((href, i) => `<text:section text:name="Linked${i}"><text:section-source xlink:href="${escape(href)}" xlink:type="simple" text:filter-name="Text (encoded)"/><text:p/></text:section>`).join('')),
    ),
    sample('odt-background', 'odt', odf('text', heading + hrefs('canary.png').map((_, i) => `<text:p text:style-name="Background${i}">background</text:p>`).join(''), { styles: backgroundStyles })),
    sample(
      'odt-floating-frame',
      'odt',
      odf('text', heading + hrefs('canary.xhtml').map((href) => `<text:p><draw:frame text:anchor-type="as-char" svg:width="6cm" svg:height="2cm"><draw:floating-frame xlink:href="${escape(href)}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>`).join('')),
    ),
    sample(
      'ods-linked-table',
      'ods',
      odf(
        'spreadsheet',
        `<table:table table:name="Sheet1">${tableRow(stringCell(SAMPLE_HEADING))}` +
          hrefs('canary.csv').map((href) => tableRow(`<table:table-cell table:formula="of:=['${escape(href)}'#$canary.A1]"/>`)).join('') +
          `<table:shapes>${hrefs('canary.png').map((href) => linkedImage(href)).join('')}</table:shapes></table:table>` +
          hrefs('canary.csv')
            .map(
              (href, i) =>
                `<table:table table:name="Linked${i}"><table:table-source xlink:type="simple" xlink:href="${escape(href)}" table:filter-name="Text - txt - csv (StarCalc)" table:filter-options="44,34,76,1" table:mode="copy-all"/>` +
                `${tableRow(stringCell('linked'))}</table:table>`,
            )
            .join(''),
      ),
    ),
    sample(
      'odp-linked-picture',
      'odp',
      odf(
        'presentation',
        `<draw:page draw:name="page1"><draw:frame svg:x="2cm" svg:y="1cm" svg:width="20cm" svg:height="3cm"><draw:text-box><text:p>${SAMPLE_HEADING}</text:p></draw:text-box></draw:frame>` +
          hrefs('canary.png')
            .map((href, i) => `<draw:frame svg:x="${1 + (i % 6) * 4}cm" svg:y="${5 + Math.floor(i / 6) * 4}cm" svg:width="3cm" svg:height="3cm"><draw:image xlink:href="${escape(href)}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame>`)
            .join('') +
          `</draw:page>`,
      ),
    ),
  ];
}

// ---------------------------------------------------------------- e-books (calibre)

/** An EPUB 2 whose chapter and package name files outside the book: pictures, style sheets, SVG images, spine pages, a cover. */
export function epubReferenceSamples(hrefs: Hrefs): ReferenceSample[] {
  const epub = (options: { body?: string; head?: string; manifest?: string; spine?: string; metadata?: string }) => {
    const chapter =
      `<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:svg="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">` +
      `<head><title>${SAMPLE_HEADING}</title>${options.head ?? ''}</head><body><h1>${SAMPLE_HEADING}</h1><p>A paragraph of the book.</p>${options.body ?? ''}</body></html>`;
    const opf =
      `<?xml version="1.0" encoding="UTF-8"?>\n<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">` +
      `<dc:title>${SAMPLE_HEADING}</dc:title><dc:identifier id="id">urn:uuid:8a1c2f4e-0000-4000-8000-000000000002</dc:identifier><dc:language>en</dc:language>${options.metadata ?? ''}</metadata>` +
      `<manifest><item id="chapter" href="chapter.xhtml" media-type="application/xhtml+xml"/>${options.manifest ?? ''}</manifest><spine><itemref idref="chapter"/>${options.spine ?? ''}</spine></package>`;
    return zip([
      { name: 'mimetype', content: 'application/epub+zip', store: true },
      { name: 'META-INF/container.xml', content: `<?xml version="1.0"?>\n<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>` },
      { name: 'OEBPS/content.opf', content: opf },
      { name: 'OEBPS/chapter.xhtml', content: chapter },
    ]);
  };
  const each = (file: CanaryFile, markup: (href: string, i: number) => string) => hrefs(file).map((href, i) => markup(escape(href), i)).join('');
  return [
    sample('epub-img', 'epub', epub({ body: each('canary.png', (href) => `<p><img src="${href}" alt="picture"/></p>`) })),
    sample('epub-stylesheet', 'epub', epub({ head: each('canary.css', (href) => `<link rel="stylesheet" type="text/css" href="${href}"/>`) })),
    sample('epub-css-url', 'epub', epub({ body: each('canary.png', (href) => `<div style="background-image: url('${href}'); width: 64px; height: 64px">background</div>`) })),
    sample('epub-svg-image', 'epub', epub({ body: each('canary.png', (href) => `<svg:svg width="64" height="64"><svg:image width="64" height="64" xlink:href="${href}"/></svg:svg>`) })),
    sample('epub-frames', 'epub', epub({ body: each('canary.xhtml', (href) => `<iframe src="${href}"></iframe><object data="${href}" type="application/xhtml+xml"></object>`) })),
    sample(
      'epub-package-items',
      'epub',
      epub({
        manifest: each('canary.xhtml', (href, i) => `<item id="page${i}" href="${href}" media-type="application/xhtml+xml"/>`) + each('canary.png', (href, i) => `<item id="cover${i}" href="${href}" media-type="image/png"/>`),
        spine: each('canary.xhtml', (_, i) => `<itemref idref="page${i}"/>`),
        metadata: `<meta name="cover" content="cover0"/>`,
      }),
    ),
  ];
}

/** FictionBooks whose cover and images name files instead of the book's own binaries. */
export function fb2ReferenceSamples(hrefs: Hrefs): ReferenceSample[] {
  const fb2 = (coverpage: string, body: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0" xmlns:l="http://www.w3.org/1999/xlink">` +
    `<description><title-info><genre>reference</genre><author><first-name>Ada</first-name><last-name>Writer</last-name></author><book-title>${SAMPLE_HEADING}</book-title>${coverpage}<lang>en</lang></title-info></description>` +
    `<body><section><title><p>${SAMPLE_HEADING}</p></title><p>A paragraph of the book.</p>${body}</section></body></FictionBook>\n`;
  return [
    ...hrefs('canary.png').map((href, i) => sample(`fb2-cover-${i + 1}`, 'fb2', fb2(`<coverpage><image l:href="${escape(href)}"/></coverpage>`, ''))),
    sample('fb2-images', 'fb2', fb2('', hrefs('canary.png').map((href) => `<image l:href="${escape(href)}"/>`).join(''))),
  ];
}

// ---------------------------------------------------------------- markup (pandoc)

/** Markup naming files: pictures, includes, raw inclusions, frames and style sheets, in each markup format pandoc reads. */
export function markupReferenceSamples(hrefs: Hrefs): ReferenceSample[] {
  const lines = (file: CanaryFile, line: (href: string) => string) => hrefs(file).map(line).join('\n\n');
  const tex = (body: string) => MARKUP_SAMPLES.tex!.replace('\\end{document}', `${body}\n\\end{document}`);
  return [
    sample('md-images', 'md', `${MARKUP_SAMPLES.md}\n${lines('canary.png', (href) => `![picture](${href})`)}\n\n${lines('canary.png', (href) => `<img src="${escape(href)}">`)}\n`),
    sample('md-raw-includes', 'md', `${MARKUP_SAMPLES.md}\n${lines('canary.txt', (href) => `\\input{${href}}\n\n\\include{${href}}`)}\n\n${lines('canary.xhtml', (href) => `<iframe src="${escape(href)}"></iframe>`)}\n`),
    sample(
      'html-references',
      'html',
      sampleHtml(lines('canary.png', (href) => `<img src="${escape(href)}">`) + lines('canary.xhtml', (href) => `<iframe src="${escape(href)}"></iframe>`)).replace(
        '</head>',
        lines('canary.css', (href) => `<link rel="stylesheet" href="${escape(href)}">`) + '</head>',
      ),
    ),
    sample('rst-images', 'rst', `${MARKUP_SAMPLES.rst}\n${lines('canary.png', (href) => `.. image:: ${href}\n\n.. figure:: ${href}\n\n   A figure.`)}\n`),
    sample('org-images', 'org', `${MARKUP_SAMPLES.org}\n${lines('canary.png', (href) => `[[${href.startsWith('file:') ? href : `file:${href}`}]]`)}\n`),
    sample('tex-graphics', 'tex', tex(lines('canary.png', (href) => `\\includegraphics{${href}}`))),
    sample(
      'ipynb-images',
      'ipynb',
      JSON.stringify({ cells: [{ cell_type: 'markdown', metadata: {}, source: [`# ${SAMPLE_HEADING}\n\n`, ...hrefs('canary.png').map((href) => `![picture](${href})\n\n`)] }], metadata: {}, nbformat: 4, nbformat_minor: 5 }),
    ),
  ];
}

/** Markup whose includes name files: pandoc, sandboxed, fails on them (it reads no file but its input). */
export function markupIncludeSamples(hrefs: Hrefs): ReferenceSample[] {
  const lines = (line: (href: string) => string) => hrefs('canary.txt').map(line).join('\n\n');
  return [
    sample('rst-include', 'rst', `${MARKUP_SAMPLES.rst}\n${lines((href) => `.. include:: ${href}`)}\n`),
    sample('rst-raw-file', 'rst', `${MARKUP_SAMPLES.rst}\n${lines((href) => `.. raw:: html\n   :file: ${href}`)}\n`),
    sample('rst-csv-table-file', 'rst', `${MARKUP_SAMPLES.rst}\n${lines((href) => `.. csv-table:: canary\n   :file: ${href}`)}\n`),
    sample('org-include', 'org', `${MARKUP_SAMPLES.org}\n${lines((href) => `#+INCLUDE: "${href}"`)}\n`),
    sample('tex-input', 'tex', MARKUP_SAMPLES.tex!.replace('\\end{document}', `${lines((href) => `\\input{${href}}\n\\include{${href.replace(/\.txt$/, '')}}\n\\lstinputlisting{${href}}`)}\n\\end{document}`)),
  ];
}

// ---------------------------------------------------------------- SVG (sharp, librsvg)

/** An SVG drawing 64×64 images of each reference side by side on white. */
export function svgReferenceSample(hrefs: Hrefs): ReferenceSample {
  const images = hrefs('canary.png');
  return sample(
    'svg-images',
    'svg',
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${64 * images.length}" height="64"><rect width="100%" height="64" fill="white"/>` +
      images.map((href, i) => `<image x="${64 * i}" y="0" width="64" height="64" xlink:href="${escape(href)}"/><image x="${64 * i}" y="0" width="64" height="64" href="${escape(href)}"/>`).join('') +
      `</svg>`,
  );
}
