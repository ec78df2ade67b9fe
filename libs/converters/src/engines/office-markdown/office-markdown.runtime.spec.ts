import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OFFICE_MARKDOWN_DESCRIPTOR } from './office-markdown.descriptor.js';
import { nodeHostedRuntime } from '../../../test/support/node-hosted.js';
import { slidesToMarkdown } from './slides-markdown.js';
import { readZipEntries } from '../../shared/zip-entries.js';
import { zip } from '../../../testing/zip-writer.js';
import { convertStep, expectFailure } from '../../../test/support/test-context.js';

const dir = mkdtempSync(join(tmpdir(), 'fileshift-office-markdown-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NS = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const rels = (items: Array<[string, string, string]>) =>
  `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items.map(([id, type, target]) => `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`).join('')}</Relationships>`;
const paragraph = (text: string, pPr = '') => `<a:p>${pPr}<a:r><a:t>${text}</a:t></a:r></a:p>`;
const shape = (placeholder: string, body: string) => `<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/><p:nvPr>${placeholder}</p:nvPr></p:nvSpPr><p:txBody>${body}</p:txBody></p:sp>`;

/** A presentation as PowerPoint lays it out: slide2.xml is shown first, to test the show order. */
function samplePptx(): Buffer {
  const first =
    `<p:sld ${NS}><p:cSld><p:spTree>` +
    shape('<p:ph type="title"/>', paragraph('Quarterly review')) +
    shape('<p:ph idx="1"/>', paragraph('Revenue &amp; costs') + paragraph('Up 10 %', '<a:pPr lvl="1"/>') + paragraph('# not a heading', '<a:pPr><a:buNone/></a:pPr>')) +
    `<p:graphicFrame><a:graphic><a:graphicData><a:tbl><a:tr><a:tc><a:txBody>${paragraph('Region')}</a:txBody></a:tc><a:tc><a:txBody>${paragraph('Sales')}</a:txBody></a:tc></a:tr>` +
    `<a:tr><a:tc><a:txBody>${paragraph('North | East')}</a:txBody></a:tc><a:tc><a:txBody>${paragraph('12')}</a:txBody></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>` +
    `<p:pic><p:nvPicPr><p:cNvPr id="4" name="Picture 3" descr="A chart of sales"/></p:nvPicPr><p:blipFill><a:blip r:embed="rId2"/></p:blipFill></p:pic>` +
    `</p:spTree></p:cSld></p:sld>`;
  const second = `<p:sld ${NS}><p:cSld><p:spTree><p:grpSp>${shape('', paragraph('Thank you'))}</p:grpSp></p:spTree></p:cSld></p:sld>`;
  const notes = `<p:notes ${NS}><p:cSld><p:spTree>${shape('<p:ph type="body" idx="1"/>', paragraph('Mention the new office.'))}</p:spTree></p:cSld></p:notes>`;
  return zip([
    { name: '[Content_Types].xml', content: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
    { name: 'ppt/presentation.xml', content: `<p:presentation ${NS}><p:sldIdLst><p:sldId id="256" r:id="rId7"/><p:sldId id="257" r:id="rId3"/></p:sldIdLst></p:presentation>` },
    { name: 'ppt/_rels/presentation.xml.rels', content: rels([['rId3', 'slide', 'slides/slide1.xml'], ['rId7', 'slide', 'slides/slide2.xml']]) },
    { name: 'ppt/slides/slide1.xml', content: second },
    { name: 'ppt/slides/slide2.xml', content: first },
    { name: 'ppt/slides/_rels/slide2.xml.rels', content: rels([['rId1', 'notesSlide', '../notesSlides/notesSlide1.xml'], ['rId2', 'image', '../media/image1.png']]) },
    { name: 'ppt/notesSlides/notesSlide1.xml', content: notes },
  ]);
}

describe('pptx → Markdown (pure)', () => {
  it('gives one section per slide in show order: title, bullets with levels, table, picture, notes', () => {
    const parts = readZipEntries(samplePptx(), () => true, { maxEntries: 100, maxInflatedBytes: 1_000_000 });
    expect(slidesToMarkdown(parts)).toBe(
      [
        '## Slide 1: Quarterly review',
        '- Revenue & costs\n  - Up 10 %\n\n\\# not a heading',
        '| Region | Sales |\n| --- | --- |\n| North \\| East | 12 |',
        '![A chart of sales](image1.png)',
        '**Notes:** Mention the new office.',
        '## Slide 2',
        'Thank you',
      ].join('\n\n') + '\n',
    );
  });

  it('stops inflating at the cap, however small the headers say the entries are', () => {
    const bomb = zip([{ name: 'ppt/presentation.xml', content: Buffer.alloc(5_000_000) }]);
    expect(() => readZipEntries(bomb, () => true, { maxEntries: 10, maxInflatedBytes: 1_000_000 })).toThrow('expands past 1000000 bytes');
  });
});

describe('OfficeMarkdownRuntime', () => {
  const runtime = nodeHostedRuntime(OFFICE_MARKDOWN_DESCRIPTOR, 'office-markdown');

  it('converts a file, and refuses what it cannot read with the spec failure types', async () => {
    const pptx = join(dir, 'deck.pptx');
    writeFileSync(pptx, samplePptx());
    const [md] = (await convertStep(runtime, { inputPath: pptx, from: 'pptx', to: 'md' }, dir)) as [string];
    expect(readFileSync(md, 'utf8')).toMatch(/^## Slide 1: Quarterly review/);

    const notZip = join(dir, 'not.pptx');
    writeFileSync(notZip, 'hello');
    await expectFailure(convertStep(runtime, { inputPath: notZip, from: 'pptx', to: 'md' }, dir), 'unsupported_or_corrupt_input', dir);

    const doctype = join(dir, 'doctype.pptx');
    writeFileSync(doctype, zip([{ name: 'ppt/presentation.xml', content: '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><p:presentation>&e;</p:presentation>' }]));
    await expectFailure(convertStep(runtime, { inputPath: doctype, from: 'pptx', to: 'md' }, dir), 'security_rejected', dir);
  });
});
