import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversionGraph } from '../../platform/conversion-graph.js';
import { POPPLER_DESCRIPTOR } from './poppler.descriptor.js';
import { ENGINE_DESCRIPTORS } from '../engines.js';
import { LibreOfficeRuntime } from '../libreoffice/libreoffice.runtime.js';
import { PopplerRuntime } from './poppler.runtime.js';
import { pdfText } from '../../../testing/document-checks.js';
import { REPORT, sampleReportOdt } from '../../../testing/office-samples.js';
import { handPdf, postScriptToPdf, qpdfEncrypted, reportMissingEngine } from '../../../testing/pdf-samples.js';
import { convertStep, expectFailure, leftovers, testContext } from '../../../test/support/test-context.js';

// The test's files live in the engine's scratch directory, as a job's input does: only it is bound into the sandbox.
const workRoot = mkdtempSync(join(tmpdir(), 'fileshift-pdfmd-work-'));
const dir = join(workRoot, 'files');
mkdirSync(dir);
const work = { workDir: workRoot };
const instances = join(dir, 'instances');
mkdirSync(instances);
const libreOfficeLog: string[] = [];
const libreOffice = new LibreOfficeRuntime({ size: 1, workRoot: instances, log: (level, message) => libreOfficeLog.push(`${level} ${message}`) });
const poppler = new PopplerRuntime();

afterAll(async () => {
  await libreOffice.stop();
  rmSync(workRoot, { recursive: true, force: true });
});

const toMarkdown = async (pdf: string, options = {}) => readFileSync((await convertStep(poppler, { inputPath: pdf, from: 'pdf', to: 'md', options }, dir, work))[0]!, 'utf8');
/** The blocks of a Markdown text (parted by blank lines). */
const blocks = (md: string) => md.trim().split(/\n{2,}/);

type Show = [font: string, size: number, x: number, y: number, text: string];

/** PostScript written by hand: each page a list of strings shown at a place, in a font (A4, points from the bottom). */
function postScriptPages(pages: Show[][]): string {
  const escape = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/•/g, '\\267');
  const body = pages
    .map((shows) => shows.map(([font, size, x, y, text]) => `/${font} findfont ${size} scalefont setfont ${x} ${y} moveto (${escape(text)}) show`).join('\n') + '\nshowpage')
    .join('\n');
  return `%!PS-Adobe-3.0\n<< /PageSize [595 842] >> setpagedevice\n${body}\n`;
}

/** Body text in Times 11 at a 14 pt leading from `y` down. */
const lines = (x: number, y: number, texts: string[]): Show[] => texts.map((text, i) => ['Times-Roman', 11, x, y - i * 14, text]);
/** The running header and the page number every page of the Ghostscript sample carries. */
const margins = (page: number): Show[] => [
  ['Times-Roman', 8, 72, 810, 'Ghostscript sample report'],
  ['Times-Roman', 8, 290, 30, String(page)],
];
const LEFT_COLUMN = ['The left column starts the second page and', 'its lines run from the margin to the gutter', 'as a column of a paper or a newsletter does,', 'so that it reads as a column of prose text.'];
const RIGHT_COLUMN = ['The right column sits beside the left one on', 'the very same lines of the page and must be', 'read after it, not line by line across both', 'columns as a plain text extraction reads it.'];

describe('PopplerRuntime pdf → md (poppler-utils; LibreOffice and Ghostscript make the PDFs)', () => {
  let fromLibreOffice = '';
  let fromGhostscript = '';
  let fromHand = '';

  beforeAll(async () => {
    for (const runtime of [poppler, libreOffice]) {
      const probe = await runtime.probe();
      if (!probe.available) reportMissingEngine(runtime.descriptor.id, probe.problem, runtime.descriptor.debianPackages);
    }
    const odt = join(dir, 'report.odt');
    writeFileSync(odt, sampleReportOdt());
    await libreOffice.start();
    [fromLibreOffice] = (await convertStep(libreOffice, { inputPath: odt, from: 'odt', to: 'pdf' }, dir, { workDir: instances })) as [string];
    fromGhostscript = postScriptToPdf(
      dir,
      'ghostscript-report',
      postScriptPages([
        [
          ...margins(1),
          ['Helvetica-Bold', 18, 72, 760, 'Annual figures'],
          ...lines(72, 730, ['This paragraph was written in PostScript by hand, and its lines are', 'set at a fixed leading; the last word of this second line is hyphen-', 'ated and comes back whole in the Markdown.']),
          ['Helvetica-Bold', 14, 72, 670, 'Figures'],
          ...[['Region', 'Sales', 'Growth'], ['North', '120', '4%'], ['South', '95', '2%'], ['East', '143', '7%']].flatMap((row, r) => row.map((cell, c): Show => ['Times-Roman', 11, [72, 200, 300][c]!, 645 - r * 14, cell])),
          ...lines(90, 570, ['• Alpha point', '• Beta point']),
          ...lines(110, 542, ['- Gamma detail']),
          ...lines(90, 528, ['• Delta point']),
          ...lines(72, 490, ['The last paragraph of the first page is long enough to fill its line, and', 'it runs on to']),
        ],
        [...margins(2), ...lines(72, 760, ['the second page without a break in its sentence.']), ['Helvetica-Bold', 14, 72, 720, 'Two columns'], ...lines(72, 690, LEFT_COLUMN), ...lines(320, 690, RIGHT_COLUMN)],
        [...margins(3), ...lines(72, 760, ['The end.'])],
      ]),
    );
    fromHand = handPdf(dir, 'hand', ['First hand page', 'Second hand page', 'Third hand page Café'], { title: 'A hand-written PDF' });
  }, 120_000);

  it('is the plan the graph chooses for pdf → md: one poppler step, no pandoc', () => {
    const plan = new ConversionGraph(ENGINE_DESCRIPTORS).plan('pdf', 'md');
    expect(plan?.steps.map((step) => `${step.engine}:${step.from}→${step.to}`)).toEqual(['poppler:pdf→md']);
    expect(POPPLER_DESCRIPTOR.pairs).toContainEqual({ from: 'pdf', to: 'md', recommended: true, options: ['pages', 'languages'], firstStepOnly: true });
  });

  it('reads a LibreOffice PDF back: headings, a paragraph with bold, italic and a link, nested bullets, a numbered list, a table, two columns in order; no running header or page numbers', async () => {
    const md = await toMarkdown(fromLibreOffice);
    const found = blocks(md);
    const [intro, findings, measurements, twoColumns] = REPORT.headings;
    expect(found.filter((block) => block.startsWith('#'))).toEqual([`# ${intro}`, `## ${findings}`, `## ${measurements}`, `# ${twoColumns}`]);
    expect(found[1]).toMatch(/^This report explains how \*\*Fileshift\*\* reads a PDF .* The _documentation_ is at \[the docs site\]\(https:\/\/example\.com\/docs\)\. .*machine\.$/);
    const [scanned, tables, merged, headers] = REPORT.bullets;
    expect(found).toContain(`- ${scanned}\n- ${tables}\n  - ${merged}\n- ${headers}`);
    expect(found).toContain(REPORT.steps.map((step, i) => `${i + 1}. ${step}`).join('\n'));
    expect(found).toContain(['| Engine | Pages | Seconds |', '| --- | --- | --- |', '| poppler | 200 | 1.5 |', '| ghostscript | 120 | 3.2 |', '| libreoffice | 80 | 4.8 |'].join('\n'));
    // The left column whole, then the right one: each a paragraph of its own.
    const left = found.findIndex((block) => block.startsWith(REPORT.left));
    const right = found.findIndex((block) => block.startsWith(REPORT.right));
    expect(left).toBeGreaterThan(found.indexOf(`# ${twoColumns}`));
    expect(right).toBe(left + 1);
    expect(found[left]).toMatch(/machine\.$/);
    expect(md).not.toContain(REPORT.header);
    expect(md).not.toMatch(/Page \d/);
    // pdftotext reads the two columns line by line across: the reason for our reading order.
    expect(pdfText(fromLibreOffice)).toMatch(new RegExp(`${REPORT.left}\\.\\s+${REPORT.right}`));
  });

  it('reads a Ghostscript PDF written in PostScript by hand: headings, a de-hyphenated paragraph, a table, a nested list, a paragraph over the page break, two columns', async () => {
    const md = await toMarkdown(fromGhostscript);
    expect(blocks(md)).toEqual([
      '# Annual figures',
      'This paragraph was written in PostScript by hand, and its lines are set at a fixed leading; the last word of this second line is hyphenated and comes back whole in the Markdown.',
      '## Figures',
      '| Region | Sales | Growth |\n| --- | --- | --- |\n| North | 120 | 4% |\n| South | 95 | 2% |\n| East | 143 | 7% |',
      '- Alpha point\n- Beta point\n  - Gamma detail\n- Delta point',
      'The last paragraph of the first page is long enough to fill its line, and it runs on to the second page without a break in its sentence.',
      '## Two columns',
      LEFT_COLUMN.join(' '),
      RIGHT_COLUMN.join(' '),
      'The end.',
    ]);
  });

  it('reads the hand-written PDF: its title first, the pages\' lines joined while no sentence ends, UTF-8', async () => {
    expect(await toMarkdown(fromHand)).toBe('# A hand-written PDF\n\nFirst hand page Second hand page Third hand page Café\n');
  });

  it('reads only the pages asked for, in order, over several pdftohtml runs', async () => {
    const md = await toMarkdown(fromGhostscript, { pages: '1,3' });
    expect(md).toContain('# Annual figures');
    expect(md).not.toContain('Two columns');
    expect(md).toMatch(/it runs on to The end\.\n$/);
    const one = await toMarkdown(fromHand, { pages: '2' });
    expect(one).toBe('# A hand-written PDF\n\nSecond hand page\n');
  });

  it('passes on no markup a hostile PDF plants in its link, font name or title, and keeps no unsafe link', async () => {
    const hostile = handPdf(dir, 'hostile', ['Hover me', 'Second page'], {
      baseFont: 'Evil#3B#7D#3C#2Fstyle#3E#3Cscript#3Ealert#281#29#3C#2Fscript#3E',
      uri: 'https://x.example/" onmouseover="alert(1)',
      title: '</title><script>alert(2)</script> [x](javascript:y)',
    });
    const md = await toMarkdown(hostile);
    expect(md).toBe('# \\</title\\>\\<script\\>alert(2)\\</script\\> \\[x\\](javascript:y)\n\nHover me Second page\n');
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('writes one file and nothing beside it, progress up to 100, and leaks no path', async () => {
    const progress: number[] = [];
    const [out] = (await convertStep(poppler, { inputPath: fromGhostscript, from: 'pdf', to: 'md' }, dir, { ...work, onProgress: (p) => progress.push(p) })) as [string];
    expect(readdirSync(dirname(out))).toEqual(['output.md']);
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    for (const secret of [dir, tmpdir(), 'ghostscript-report']) expect(readFileSync(out, 'utf8')).not.toContain(secret);
  });

  it('holds the Markdown to the output cap, leaving nothing behind', async () => {
    const outputDir = join(dir, 'capped');
    mkdirSync(outputDir);
    const error = await expectFailure(poppler.convert({ inputPath: fromLibreOffice, outputDir, from: 'pdf', to: 'md', options: {} }, testContext(poppler, workRoot, { maxOutputBytes: 2_000 })), 'file_too_large', dir);
    expect(error.message).toContain('2000');
    expect(readdirSync(outputDir)).toEqual([]);
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('refuses a password-protected PDF and one whose permissions forbid copying', async () => {
    const locked = qpdfEncrypted(fromHand, join(dir, 'locked.pdf'), 'user-secret');
    expect((await expectFailure(convertStep(poppler, { inputPath: locked, from: 'pdf', to: 'md' }, dir, work), 'security_rejected', dir)).message).toMatch(/password-protected/);
    const noCopy = qpdfEncrypted(fromHand, join(dir, 'no-copy.pdf'), '', ['--extract=n']);
    expect((await expectFailure(convertStep(poppler, { inputPath: noCopy, from: 'pdf', to: 'md' }, dir, work), 'security_rejected', dir)).message).toMatch(/copying/);
  });

  it('reports a truncated PDF as unsupported_or_corrupt_input', async () => {
    const truncated = join(dir, 'truncated.pdf');
    writeFileSync(truncated, readFileSync(fromGhostscript).subarray(0, 1500));
    await expectFailure(convertStep(poppler, { inputPath: truncated, from: 'pdf', to: 'md' }, dir, work), 'unsupported_or_corrupt_input', dir);
    expect(leftovers(workRoot, dir)).toEqual([]);
  });
});
