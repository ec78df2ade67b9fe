import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GHOSTSCRIPT_DESCRIPTOR } from './ghostscript.descriptor.js';
import { GhostscriptRuntime } from './ghostscript.runtime.js';
import { processesWith, until } from '../../../test/support/processes.js';
import { convertStep, expectFailure, testContext, leftovers } from '../../../test/support/test-context.js';
import { ghostscriptEps, ghostscriptPdf, handPdf, img2pdfPdf, photoJpeg, postScript, qpdfEncrypted, qpdfMerged, reportMissingEngine, run } from '../../../testing/pdf-samples.js';
import { pdfInfo, pdfPages, pdfText } from '../../../testing/document-checks.js';
import { writeLegacyOfficeSamples } from '../../../testing/legacy-office-samples.js';
import { docxOfParagraphs } from '../../../testing/office-samples.js';

const workRoot = mkdtempSync(join(tmpdir(), 'fileshift-gs-work-'));
// The test's files live in the engine's scratch directory, as a job's input does: only it is bound into the sandbox.
const dir = mkdtempSync(join(workRoot, 'files-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(workRoot, { recursive: true, force: true });
});
const work = { workDir: workRoot };
const producer = (pdf: string) => /^Producer:\s+(.*)$/m.exec(run('pdfinfo', [pdf]))?.[1];
/** The XMP metadata's PDF/A claim, e.g. "2B". */
const pdfaClaim = (pdf: string) => {
  const xmp = run('pdfinfo', ['-meta', pdf]);
  const part = /pdfaid:part=['"](\d)['"]|<pdfaid:part>(\d)</.exec(xmp);
  const conformance = /pdfaid:conformance=['"](\w)['"]|<pdfaid:conformance>(\w)</.exec(xmp);
  return part && conformance ? `${part[1] ?? part[2]}${conformance[1] ?? conformance[2]}` : undefined;
};
/** The catalog's output intents, read by qpdf (JSON version 2: "obj:N 0 R" → {value}). */
const outputIntents = (pdf: string) => {
  const json = JSON.parse(run('qpdf', ['--json', '--json-key=qpdf', pdf])) as { qpdf: [unknown, Record<string, { value?: Record<string, unknown> }>] };
  const objects = Object.values(json.qpdf[1]).map((object) => object.value ?? {});
  return objects.filter((object) => object['/Type'] === '/OutputIntent').map((intent) => ({ subtype: intent['/S'], hasProfile: typeof intent['/DestOutputProfile'] === 'string' }));
};
/** Pixel size and resolution of the images in a PDF, by poppler's pdfimages. */
const images = (pdf: string) =>
  run('pdfimages', ['-list', pdf])
    .split('\n')
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => line.trim().split(/\s+/))
    .map((columns) => ({ width: Number(columns[3]), height: Number(columns[4]), ppi: Number(columns[12]) }));

describe('GhostscriptRuntime (Debian packages ghostscript, poppler-utils)', () => {
  const runtime = new GhostscriptRuntime();
  let ps = '';
  let hand = '';
  let fromGs = '';
  let photoPdf = '';
  let merged = '';
  let five = '';
  let thousands = '';

  beforeAll(async () => {
    const probe = await runtime.probe();
    if (!probe.available) {
      reportMissingEngine('ghostscript', probe.problem, GHOSTSCRIPT_DESCRIPTOR.debianPackages);
      return;
    }
    ps = join(dir, 'letter.ps');
    writeFileSync(ps, postScript(['Dear reader', 'Second sheet', 'Yours truly']));
    hand = handPdf(dir, 'hand', ['First hand page', 'Second hand page', 'Third hand page']);
    fromGs = ghostscriptPdf(dir, 'ghostscript', ['One', 'Two']);
    // A 1200 × 900 photo at 300 dpi (4 × 3 in): the presets downsample it.
    photoPdf = img2pdfPdf(dir, 'photo', [await photoJpeg(dir, 'photo', 1200, 900, 300)]);
    const smallPhotoPdf = img2pdfPdf(dir, 'small-photo', [await photoJpeg(dir, 'small-photo', 300, 200, 150)]);
    merged = qpdfMerged(dir, 'merged', [hand, smallPhotoPdf]);
    five = ghostscriptPdf(dir, 'five', ['Page A', 'Page B', 'Page C', 'Page D', 'Page E']);
    thousands = handPdf(dir, 'thousands', Array.from({ length: 3000 }, (_, i) => `Page ${i + 1}`));
  });

  it('is installed on this machine and says which version', async () => {
    const probe = await runtime.probe();
    expect(probe.available).toBe(true);
    expect(probe.version).toMatch(/^Ghostscript \d+\.\d+/);
  });

  it('names the Debian packages when gs is missing', async () => {
    const probe = await new GhostscriptRuntime(undefined, 'gs-not-installed').probe();
    expect(probe.available).toBe(false);
    expect(probe.problem).toContain('ghostscript');
    expect(probe.problem).toContain('apt-get install');
  });

  it('converts every pair of its descriptor, taking each option the pair lists', async () => {
    const given = { pdfa: '2b', compress: 'ebook', pages: '1-2' } as const;
    const inputs: Record<string, string> = { ps, pdf: hand, eps: ghostscriptEps(dir, 'figure', 'Fileshift figure') };
    for (const pair of GHOSTSCRIPT_DESCRIPTOR.pairs) {
      const options = Object.fromEntries((pair.options ?? []).map((name) => [name, given[name as keyof typeof given]]));
      const [out] = (await convertStep(runtime, { inputPath: inputs[pair.from]!, from: pair.from, to: pair.to, options }, dir, work)) as [string];
      expect(pdfaClaim(out), `${pair.from} → ${pair.to}`).toBe('2B');
      expect(pdfPages(out)).toBe({ pdf: 2, ps: 3, eps: 1 }[pair.from]);
    }
  });

  it('keeps the text of ligatures: a LibreOffice PDF\'s "fi" and "ffi" still read as letters after a rewrite', async () => {
    const docx = join(dir, 'ligatures.docx');
    writeFileSync(docx, docxOfParagraphs([{ text: 'The files define official offices.', font: 'Carlito' }]));
    // LibreOffice writes in a directory of its own (its sandbox's user takes it over); the test keeps a copy, as an upload.
    const office = mkdtempSync(join(tmpdir(), 'fileshift-gs-office-'));
    const pdf = join(dir, 'ligatures.pdf');
    try {
      copyFileSync(docx, join(office, 'ligatures.docx'));
      await writeLegacyOfficeSamples(office, [{ from: join(office, 'ligatures.docx'), to: 'pdf', output: join(office, 'ligatures.pdf') }]);
      copyFileSync(join(office, 'ligatures.pdf'), pdf);
    } finally {
      rmSync(office, { recursive: true, force: true });
    }
    expect(pdfText(pdf)).toContain('The files define official offices.');
    const [out] = (await convertStep(runtime, { inputPath: pdf, from: 'pdf', to: 'pdf' }, dir)) as [string];
    expect(pdfText(out)).toContain('The files define official offices.');
  }, 120_000);

  it('converts an EPS to a one-page PDF the size of its bounding box, not of a sheet', async () => {
    const [out] = (await convertStep(runtime, { inputPath: ghostscriptEps(dir, 'cropped', 'Fileshift figure'), from: 'eps', to: 'pdf' }, dir, work)) as [string];
    expect(pdfPages(out)).toBe(1);
    const [width, height] = /Page size:\s+([\d.]+) x ([\d.]+)/.exec(pdfInfo(out))!.slice(1).map(Number) as [number, number];
    expect(width).toBeLessThan(595);
    expect(height).toBeLessThan(200);
    expect(pdfText(out)).toContain('Fileshift figure');
  });

  it('converts PostScript written here to a PDF of its pages', async () => {
    const progress: number[] = [];
    const [out] = (await convertStep(runtime, { inputPath: ps, from: 'ps', to: 'pdf' }, dir, { ...work, onProgress: (p) => progress.push(p) })) as [string];
    expect(pdfPages(out)).toBe(3);
    expect(pdfText(out)).toMatch(/Dear reader[\s\S]*Second sheet[\s\S]*Yours truly/);
    expect(producer(out)).toMatch(/Ghostscript/);
    expect(progress.at(-1)).toBe(100);
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  const rewrites: Array<[string, () => string, number]> = [
    ['written by hand', () => hand, 3],
    ['made by Ghostscript', () => fromGs, 2],
    ['made by img2pdf', () => photoPdf, 1],
    ['merged by qpdf', () => merged, 4],
  ];
  for (const [made, pdf, pages] of rewrites) {
    it(`rewrites (normalises) a PDF ${made} when no option is given, keeping its pages`, async () => {
      const [out] = (await convertStep(runtime, { inputPath: pdf(), from: 'pdf', to: 'pdf' }, dir, work)) as [string];
      expect(pdfPages(out)).toBe(pages);
      expect(producer(out)).toMatch(/Ghostscript/);
    });
  }

  for (const level of ['1b', '2b', '3b'] as const) {
    it(`writes PDF/A-${level}: the XMP claims it and an sRGB output intent is embedded`, async () => {
      const [out] = (await convertStep(runtime, { inputPath: merged, from: 'pdf', to: 'pdf', options: { pdfa: level } }, dir, work)) as [string];
      expect(pdfaClaim(out)).toBe(level.toUpperCase());
      expect(outputIntents(out)).toEqual([{ subtype: '/GTS_PDFA1', hasProfile: true }]);
      expect(pdfPages(out)).toBe(4);
      expect(pdfText(out)).toContain('First hand page');
      // Fonts are embedded, as PDF/A requires.
      expect(run('pdffonts', [out])).not.toMatch(/\sno\s+no\s+no\s+\d+\s+\d+\s*$/m);
      if (level === '1b') expect(run('pdfinfo', [out])).toMatch(/^PDF version:\s+1\.4$/m);
    });
  }

  it('writes PDF/A from PostScript too', async () => {
    const [out] = (await convertStep(runtime, { inputPath: ps, from: 'ps', to: 'pdf', options: { pdfa: '2b', compress: 'printer' } }, dir, work)) as [string];
    expect(pdfaClaim(out)).toBe('2B');
    expect(pdfPages(out)).toBe(3);
  });

  it('compresses: the presets downsample a large photo (screen 72, ebook 150 ppi) into far smaller files', async () => {
    const compressed = async (compress: 'screen' | 'ebook' | 'prepress') => (await convertStep(runtime, { inputPath: photoPdf, from: 'pdf', to: 'pdf', options: { compress } }, dir, work))[0]!;
    const original = statSync(photoPdf).size;
    expect(images(photoPdf)).toEqual([{ width: 1200, height: 900, ppi: 300 }]);
    const screen = await compressed('screen');
    expect(images(screen)).toEqual([{ width: 288, height: 216, ppi: 72 }]);
    expect(statSync(screen).size).toBeLessThan(original / 4);
    const ebook = await compressed('ebook');
    expect(images(ebook)).toEqual([{ width: 600, height: 450, ppi: 150 }]);
    expect(statSync(ebook).size).toBeLessThan(original / 4);
    expect(statSync(screen).size).toBeLessThan(statSync(ebook).size);
    // prepress keeps the resolution.
    expect(images(await compressed('prepress'))).toEqual([{ width: 1200, height: 900, ppi: 300 }]);
  });

  it('keeps only the pages asked for, in order, reporting progress by page', async () => {
    const progress: number[] = [];
    const [out] = (await convertStep(runtime, { inputPath: five, from: 'pdf', to: 'pdf', options: { pages: '5,2-3' } }, dir, { ...work, onProgress: (p) => progress.push(p) })) as [string];
    expect(pdfPages(out)).toBe(3);
    expect(pdfText(out).replace(/\s+/g, ' ').trim()).toBe('Page B Page C Page E');
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(100);
  });

  it('refuses a 3000-page PDF past the page limit at once, and takes its pages within the limit', async () => {
    const started = Date.now();
    const error = await expectFailure(convertStep(runtime, { inputPath: thousands, from: 'pdf', to: 'pdf' }, dir, work), 'file_too_large', dir);
    expect(error.message).toContain(`at most ${GHOSTSCRIPT_DESCRIPTOR.limits.maxPages} pages`);
    expect(Date.now() - started).toBeLessThan(5_000);
    const [out] = (await convertStep(runtime, { inputPath: thousands, from: 'pdf', to: 'pdf', options: { pages: '10-14' } }, dir, work)) as [string];
    expect(pdfPages(out)).toBe(5);
    expect(pdfText(out)).toContain('Page 14');
  });

  it('refuses PostScript that prints more pages than the limit', async () => {
    const many = join(dir, 'many.ps');
    writeFileSync(many, postScript(Array.from({ length: 12 }, (_, i) => `Sheet ${i + 1}`)));
    const error = await expectFailure(convertStep(runtime, { inputPath: many, from: 'ps', to: 'pdf' }, dir, testContext(runtime, workRoot, { maxPages: 10 })), 'file_too_large', dir);
    expect(error.message).toContain('more than 10 pages');
  });

  it('ends PostScript that never stops at the timeout', async () => {
    const endless = join(dir, 'endless.ps');
    writeFileSync(endless, '%!PS\n{ } loop\n');
    const started = Date.now();
    await expectFailure(convertStep(runtime, { inputPath: endless, from: 'ps', to: 'pdf' }, dir, testContext(runtime, workRoot, { timeoutMs: 1_500 })), 'timeout', dir);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('keeps PostScript inside -dSAFER: it cannot read or write files', async () => {
    const secret = join(dir, 'secret.txt');
    writeFileSync(secret, 'top secret');
    const reader = join(dir, 'reader.ps');
    writeFileSync(reader, `%!PS\n/Helvetica findfont 12 scalefont setfont 72 700 moveto (${secret}) (r) file 100 string readstring pop show showpage\n`);
    await expectFailure(convertStep(runtime, { inputPath: reader, from: 'ps', to: 'pdf' }, dir, work), 'unsupported_or_corrupt_input', dir);
    const writer = join(dir, 'writer.ps');
    const target = join(dir, 'written-by-ps.txt');
    writeFileSync(writer, `%!PS\n(${target}) (w) file dup (owned) writestring closefile showpage\n`);
    await expectFailure(convertStep(runtime, { inputPath: writer, from: 'ps', to: 'pdf' }, dir, work), 'unsupported_or_corrupt_input', dir);
    expect(readdirSync(dir)).not.toContain('written-by-ps.txt');
  });

  it('refuses a password-protected PDF as security_rejected, saying so', async () => {
    const locked = qpdfEncrypted(hand, join(dir, 'locked.pdf'), 'user-secret');
    const error = await expectFailure(convertStep(runtime, { inputPath: locked, from: 'pdf', to: 'pdf', options: { compress: 'ebook' } }, dir, work), 'security_rejected', dir);
    expect(error.message).toMatch(/password-protected/);
  });

  it('does not rewrite a PDF whose owner password restricts it: the copy would lose the restrictions', async () => {
    for (const restriction of ['--modify=none', '--extract=n', '--print=none']) {
      const restricted = qpdfEncrypted(hand, join(dir, `restricted${restriction}.pdf`), '', [restriction]);
      const error = await expectFailure(convertStep(runtime, { inputPath: restricted, from: 'pdf', to: 'pdf', options: { pdfa: '2b' } }, dir, work), 'security_rejected', dir);
      expect(error.message).toMatch(/permissions restrict/);
    }
    // Encrypted with an owner password that restricts nothing: rewritten.
    const unrestricted = qpdfEncrypted(hand, join(dir, 'owner-only.pdf'), '');
    const [out] = (await convertStep(runtime, { inputPath: unrestricted, from: 'pdf', to: 'pdf' }, dir, work)) as [string];
    expect(pdfPages(out)).toBe(3);
    expect(run('pdfinfo', [out])).toMatch(/^Encrypted:\s+no$/m);
  });

  it('reports a truncated PDF, PostScript named pdf, a PDF named ps and broken PostScript as unsupported_or_corrupt_input', async () => {
    const truncated = join(dir, 'truncated.pdf');
    writeFileSync(truncated, readFileSync(fromGs).subarray(0, 1500));
    await expectFailure(convertStep(runtime, { inputPath: truncated, from: 'pdf', to: 'pdf' }, dir, work), 'unsupported_or_corrupt_input', dir);
    // Ghostscript would run a file without a PDF header as PostScript: it is refused first.
    const psNamedPdf = join(dir, 'program.pdf');
    copyFileSync(ps, psNamedPdf);
    await expectFailure(convertStep(runtime, { inputPath: psNamedPdf, from: 'pdf', to: 'pdf' }, dir, work), 'unsupported_or_corrupt_input', dir);
    const pdfNamedPs = join(dir, 'document.ps');
    copyFileSync(hand, pdfNamedPs);
    const notPs = join(dir, 'not.ps');
    writeFileSync(notPs, 'plain words, no program');
    for (const input of [pdfNamedPs, notPs]) await expectFailure(convertStep(runtime, { inputPath: input, from: 'ps', to: 'pdf' }, dir, work), 'unsupported_or_corrupt_input', dir);
    const broken = join(dir, 'broken.ps');
    writeFileSync(broken, '%!PS\n/Helvetica findfont 12 scalefont setfont 72 700 moveto (unterminated show showpage\n');
    await expectFailure(convertStep(runtime, { inputPath: broken, from: 'ps', to: 'pdf' }, dir, work), 'unsupported_or_corrupt_input', dir);
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('holds the output to the output cap', async () => {
    await expectFailure(convertStep(runtime, { inputPath: photoPdf, from: 'pdf', to: 'pdf' }, dir, testContext(runtime, workRoot, { maxOutputBytes: 20_000 })), 'file_too_large', dir);
  });

  it('treats a hostile file name as a name, "%" and "@" included', async () => {
    const hostile = join(dir, '@-a; rm -rf x $(touch pwned) %d %pipe%echo.pdf');
    copyFileSync(hand, hostile);
    const outputDir = join(dir, 'hostile out; %s %d');
    const [out] = (await convertStep(runtime, { inputPath: hostile, from: 'pdf', to: 'pdf', options: { pdfa: '1b' } }, outputDir, work)) as [string];
    expect(pdfPages(out)).toBe(3);
    expect(readdirSync(dir)).not.toContain('pwned');
  });

  it('ends Ghostscript at once when the job is cancelled', async () => {
    const endless = join(dir, 'endless-cancel.ps');
    writeFileSync(endless, '%!PS\n{ } loop\n');
    const controller = new AbortController();
    const outputDir = join(dir, 'cancelled');
    mkdirSync(outputDir);
    const conversion = runtime.convert({ inputPath: endless, outputDir, from: 'ps', to: 'pdf', options: {} }, { ...testContext(runtime, workRoot), signal: controller.signal });
    await until(() => processesWith(endless).length > 0);
    const cancelled = Date.now();
    controller.abort();
    await expectFailure(conversion, 'unknown', dir);
    expect(Date.now() - cancelled).toBeLessThan(2_000);
    expect(processesWith(endless)).toEqual([]);
    expect(leftovers(workRoot, dir)).toEqual([]);
  });

  it('refuses a conversion it does not do', async () => {
    await expectFailure(convertStep(runtime, { inputPath: hand, from: 'pdf', to: 'png' }, dir, work), 'unsupported_output_format', dir);
  });
});
