import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIBREOFFICE_DESCRIPTOR } from './libreoffice.descriptor.js';
import { familyOf } from './libreoffice-filters.js';
import { LibreOfficeRuntime } from './libreoffice.runtime.js';
import { expectDocument, mimeOf, pdfInfo, pdfPages, pdfText, residentMb } from '../../../testing/document-checks.js';
import {
  SAMPLE_CELLS,
  SAMPLE_HEADING,
  sampleCsv,
  sampleDocx,
  sampleHtml,
  sampleOdp,
  sampleOds,
  sampleOdt,
  sampleRtf,
  sampleTxt,
  sampleXlsx,
} from '../../../testing/office-samples.js';
import { writeLegacyOfficeSamples } from '../../../testing/legacy-office-samples.js';
import { convertStep, expectFailure, testContext } from '../../../test/support/test-context.js';

const dir = mkdtempSync(join(tmpdir(), 'fileshift-lo-spec-'));
const workRoot = join(dir, 'instances');
mkdirSync(workRoot);
const samples = join(dir, 'samples');
mkdirSync(samples);
const logged: string[] = [];

const runtime = new LibreOfficeRuntime({ size: 2, workRoot, log: (level, message) => logged.push(`${level} ${message}`) });
let installed = false;
let startMs = 0;

/** The words every sample of a family holds, looked for in every output. */
const MARKERS = { text: SAMPLE_HEADING, sheet: SAMPLE_CELLS[0], slide: SAMPLE_HEADING } as const;
const sample = (format: string) => join(samples, `sample.${format}`);

afterAll(async () => {
  await runtime.stop();
  rmSync(dir, { recursive: true, force: true });
});

beforeAll(async () => {
  const probe = await runtime.probe();
  if (!probe.available) {
    console.error(`\n*** ENGINE MISSING: LibreOffice (${probe.problem}). Install the Debian packages ${LIBREOFFICE_DESCRIPTOR.debianPackages.join(' ')}; these tests FAIL without them. ***\n`);
    return;
  }
  installed = true;
  // The pool warms in the background while the samples are written and the legacy ones made.
  const started = Date.now();
  const warm = runtime.start().then(() => (startMs = Date.now() - started));

  // Written by hand (no office suite involved).
  writeFileSync(sample('docx'), sampleDocx());
  writeFileSync(sample('odt'), sampleOdt());
  writeFileSync(sample('rtf'), sampleRtf());
  writeFileSync(sample('txt'), sampleTxt());
  writeFileSync(sample('html'), sampleHtml());
  writeFileSync(sample('csv'), sampleCsv());
  writeFileSync(sample('xlsx'), sampleXlsx());
  writeFileSync(sample('ods'), sampleOds());
  writeFileSync(sample('odp'), sampleOdp());
  writeFileSync(join(samples, 'three-pages.docx'), sampleDocx(['Page two', 'Page three']));

  await writeLegacyOfficeSamples(workRoot, [
    { from: sample('docx'), to: 'doc', output: sample('doc') },
    { from: sample('xlsx'), to: 'xls', output: sample('xls') },
    { from: sample('odp'), to: 'ppt', output: sample('ppt') },
    { from: sample('odp'), to: 'pptx', output: sample('pptx') },
  ]);
  await warm;
});

/**
 * The soffice.bin pids of the pool once every instance is ready: an instance replaced by an earlier test
 * (after its conversion limit, a kill or a crash) may still be starting, and a starting soffice.bin may restart
 * itself under a new pid before its bridge connects.
 */
async function startedOfficePids(): Promise<Array<number | undefined>> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { instances } = await runtime.inspect();
    const pids = instances.map((i) => i.officePid).sort();
    if (instances.every((i) => i.ready && i.officePid !== undefined) || Date.now() > deadline) return pids;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('LibreOfficeRuntime (Debian packages libreoffice-*-nogui, python3-uno)', () => {
  it('is installed on this machine, and the probe says which version', async () => {
    const probe = await runtime.probe();
    expect(probe.available).toBe(true);
    expect(probe.version).toMatch(/^LibreOffice \d+\.\d+/);
  });

  it('warms the pool in the background: size instances, each its own profile, a conversion much faster warm than the start', async () => {
    expect(installed).toBe(true);
    const before = await runtime.inspect();
    expect(before.instances).toHaveLength(2);
    expect(new Set(before.instances.map((i) => i.profileDir)).size).toBe(2);
    const pids = before.instances.map((i) => i.officePid).sort();
    expect(pids.every((pid) => typeof pid === 'number')).toBe(true);

    const times: number[] = [];
    for (let run = 0; run < 8; run++) {
      const started = Date.now();
      const [out] = (await convertStep(runtime, { inputPath: sample('docx'), from: 'docx', to: 'pdf' }, dir)) as [string];
      times.push(Date.now() - started);
      expect(mimeOf(out)).toBe('application/pdf');
    }
    const after = await runtime.inspect();
    // Same instances, same soffice.bin processes: nothing was started for these conversions.
    expect(after.instances).toHaveLength(2);
    expect(after.instances.map((i) => i.officePid).sort()).toEqual(pids);
    const sorted = [...times].sort((a, b) => a - b);
    const rss = after.instances.map((i) => residentMb(i.processes.map((p) => p.pid)));
    console.info(
      `[libreoffice figures] pool of 2 warm in ${startMs} ms (both instances started at once); docx → pdf warm: ` +
        `first ${times[0]} ms, p50 ${sorted[Math.floor(sorted.length / 2)]} ms, max ${sorted.at(-1)} ms over ${times.length} runs; RSS per instance ${rss.join(' / ')} MB`,
    );
    expect(logged.some((line) => /pool of 2/.test(line) && /each instance in a sandbox of its own/.test(line))).toBe(true);
  });
});

describe.concurrent('every pair of the descriptor, from samples not all written by LibreOffice, checked by other decoders', () => {
  it('has 55 pairs, each with a sample', () => {
    // 6 text inputs × 6 outputs, 4 sheet × 5, 3 slide × 3, less the 10 identities.
    expect(LIBREOFFICE_DESCRIPTOR.pairs).toHaveLength(55);
    expect(readdirSync(samples).sort()).toEqual(
      ['csv', 'doc', 'docx', 'html', 'odp', 'ods', 'odt', 'ppt', 'pptx', 'rtf', 'txt', 'xls', 'xlsx'].map((f) => `sample.${f}`).concat('three-pages.docx').sort(),
    );
  });
  for (const { from, to } of LIBREOFFICE_DESCRIPTOR.pairs) {
    it(`${from} → ${to}`, async () => {
      expect(installed).toBe(true);
      const outputDir = join(dir, `pair-${from}-${to}`);
      const [out] = (await convertStep(runtime, { inputPath: sample(from), from, to }, outputDir)) as [string];
      expect(out.endsWith(`/output.${to}`)).toBe(true);
      expectDocument(out, to, MARKERS[familyOf(from)!]);
    });
  }
});

describe('options, limits and failures', () => {
  const threePages = () => join(samples, 'three-pages.docx');

  it('pdfa 2b writes PDF/A-2b (XMP pdfaid part 2, conformance B)', async () => {
    const [out] = (await convertStep(runtime, { inputPath: sample('odt'), from: 'odt', to: 'pdf', options: { pdfa: '2b' } }, dir)) as [string];
    const meta = pdfInfo(out, '-meta');
    expect(meta).toMatch(/pdfaid:part(>|=")2/);
    expect(meta).toMatch(/pdfaid:conformance(>|=")B/);
    const [plain] = (await convertStep(runtime, { inputPath: sample('odt'), from: 'odt', to: 'pdf' }, dir)) as [string];
    expect(pdfInfo(plain, '-meta')).not.toMatch(/pdfaid/);
  });

  it('writes plain text as UTF-8 without a byte-order mark, lines ended by LF', async () => {
    const [text] = (await convertStep(runtime, { inputPath: sample('docx'), from: 'docx', to: 'txt' }, dir)) as [string];
    const bytes = readFileSync(text);
    expect(bytes.subarray(0, SAMPLE_HEADING.length).toString('utf8')).toBe(SAMPLE_HEADING);
    expect(bytes.includes('\r')).toBe(false);
  });

  it('pages "2" of a three-page document gives that one page', async () => {
    const [all] = (await convertStep(runtime, { inputPath: threePages(), from: 'docx', to: 'pdf' }, dir)) as [string];
    expect(pdfPages(all)).toBe(3);
    const [second] = (await convertStep(runtime, { inputPath: threePages(), from: 'docx', to: 'pdf', options: { pages: '2' } }, dir)) as [string];
    expect(pdfPages(second)).toBe(1);
    expect(pdfText(second)).toContain('Page two');
    expect(pdfText(second)).not.toContain('Page three');
    const [some] = (await convertStep(runtime, { inputPath: threePages(), from: 'docx', to: 'pdf', options: { pages: '1,3-9' } }, dir)) as [string];
    expect(pdfPages(some)).toBe(2);
  });

  it('refuses a PDF of more pages than maxPages (file_too_large), counting only the pages asked for', async () => {
    const error = await expectFailure(convertStep(runtime, { inputPath: threePages(), from: 'docx', to: 'pdf' }, dir, testContext(runtime, dir, { maxPages: 2 })), 'file_too_large', dir);
    expect(error.message).toMatch(/3 pages; at most 2/);
    const [one] = (await convertStep(runtime, { inputPath: threePages(), from: 'docx', to: 'pdf', options: { pages: '2' } }, dir, testContext(runtime, dir, { maxPages: 1 }))) as [string];
    expect(pdfPages(one)).toBe(1);
  });

  it('refuses a page range that selects no page', async () => {
    const error = await expectFailure(convertStep(runtime, { inputPath: threePages(), from: 'docx', to: 'pdf', options: { pages: '7' } }, dir), 'unsupported_or_corrupt_input', dir);
    expect(error.message).toMatch(/3 pages/);
  });

  it('refuses an output past maxOutputBytes (file_too_large) and leaves no output', async () => {
    const outputDir = join(dir, 'capped');
    await expectFailure(convertStep(runtime, { inputPath: sample('docx'), from: 'docx', to: 'pdf' }, outputDir, testContext(runtime, dir, { maxOutputBytes: 500 })), 'file_too_large', dir);
    for (const step of readdirSync(outputDir)) expect(readdirSync(join(outputDir, step))).toEqual([]);
  });

  it('reports input LibreOffice cannot read as unsupported_or_corrupt_input, leaving the instance running', async () => {
    const pids = await startedOfficePids();
    const corrupt = join(samples, 'corrupt.xlsx');
    writeFileSync(corrupt, Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(2000, 7)]));
    const error = await expectFailure(convertStep(runtime, { inputPath: corrupt, from: 'xlsx', to: 'pdf' }, dir), 'unsupported_or_corrupt_input', samples);
    expect(error.retryable).toBe(false);
    expect(error.diagnostics).toBeTruthy();
    // Plain text posing as a docx: type detection would read it as text; it is refused instead.
    const text = join(samples, 'text.docx');
    writeFileSync(text, 'just words, not a document\n');
    const refused = await expectFailure(convertStep(runtime, { inputPath: text, from: 'docx', to: 'pdf' }, dir), 'unsupported_or_corrupt_input', samples);
    expect(refused.message).toBe('The input is not a readable docx file.');
    expect((await runtime.inspect()).instances.map((i) => i.officePid).sort(), logged.join('\n')).toEqual(pids);
    rmSync(corrupt);
    rmSync(text);
  });

  it('converts an HTML page whose document dates LibreOffice cannot parse (its own Calc export writes 00:00:00), and the instance survives', async () => {
    const pids = await startedOfficePids();
    const calcHtml = join(samples, 'calc-export.html');
    const dates = '<meta name="created" content="00:00:00"/><meta name="changed" content="garbage"/>';
    writeFileSync(calcHtml, `<!DOCTYPE html><html><head>${dates}</head><body><table><tr><td>${SAMPLE_CELLS[0]}</td><td>1</td></tr></table></body></html>`);
    const [out] = (await convertStep(runtime, { inputPath: calcHtml, from: 'html', to: 'txt' }, dir)) as [string];
    expectDocument(out, 'txt', SAMPLE_CELLS[0]);
    expect((await runtime.inspect()).instances.map((i) => i.officePid).sort()).toEqual(pids);
  });

  it('converts an HTML page with HTTP headers in its head (a Content-Security-Policy, a refresh, as our PDF → HTML writes), keeping its charset, and the instance survives', async () => {
    const pids = await startedOfficePids();
    const page = join(samples, 'headers.html');
    const headers =
      `<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">` +
      `<meta http-equiv=refresh content="5">`;
    writeFileSync(page, Buffer.from(`<!DOCTYPE html><html><head>${headers}</head><style>p { margin: 0 }</style><body><p style="position:absolute;top:10px">${SAMPLE_HEADING} caf\u00e9</p></body></html>`, 'latin1'));
    for (const to of ['docx', 'txt'] as const) {
      const [out] = (await convertStep(runtime, { inputPath: page, from: 'html', to }, dir)) as [string];
      expectDocument(out, to, SAMPLE_HEADING);
      if (to === 'txt') expect(readFileSync(out, 'utf8')).toContain('café');
    }
    expect((await runtime.inspect()).instances.map((i) => i.officePid).sort()).toEqual(pids);
  });

  it('refuses a pair it does not offer', async () => {
    await expectFailure(convertStep(runtime, { inputPath: sample('docx'), from: 'docx', to: 'xlsx' }, dir), 'unsupported_output_format', dir);
    await expectFailure(convertStep(runtime, { inputPath: sample('docx'), from: 'docx', to: 'docx' }, dir), 'unsupported_output_format', dir);
  });

  it('treats a hostile file name as a name and writes nothing beside the input', async () => {
    const inputDir = join(dir, 'hostile; $(touch pwned) `id` #%');
    mkdirSync(inputDir);
    const hostile = join(inputDir, "a'; rm -rf x $(touch pwned) #1%20.docx");
    writeFileSync(hostile, sampleDocx());
    const [out] = (await convertStep(runtime, { inputPath: hostile, from: 'docx', to: 'odt' }, join(dir, 'out "; echo'))) as [string];
    expectDocument(out, 'odt', SAMPLE_HEADING);
    expect(readdirSync(inputDir)).toEqual(["a'; rm -rf x $(touch pwned) #1%20.docx"]);
    expect(readdirSync(dir)).not.toContain('pwned');
  });
});
