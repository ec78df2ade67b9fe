import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalibreRuntime } from '../src/engines/calibre/calibre.runtime.js';
import { CALIBRE_DESCRIPTOR } from '../src/engines/calibre/calibre.descriptor.js';
import { LIBREOFFICE_DESCRIPTOR } from '../src/engines/libreoffice/libreoffice.descriptor.js';
import { PANDOC_DESCRIPTOR } from '../src/engines/pandoc/pandoc.descriptor.js';
import { SHARP_DESCRIPTOR } from '../src/engines/sharp/sharp.descriptor.js';
import type { EngineDescriptor } from '../src/platform/engine-descriptor.js';
import type { EngineRuntime } from '../src/platform/engine-runtime.js';
import { LibreOfficeRuntime } from '../src/engines/libreoffice/libreoffice.runtime.js';
import { PandocRuntime } from '../src/engines/pandoc/pandoc.runtime.js';
import { EngineSandbox } from '../src/platform/sandbox/engine-sandbox.js';
import { SandboxedProcessRunner } from '../src/platform/sandboxed-process.runner.js';
import { CANARY_RGB, canaryTraces, describeTraces, writeCanaryFiles } from '../testing/canary-files.js';
import { zipText } from '../testing/document-checks.js';
import { SAMPLE_HEADING } from '../testing/office-samples.js';
import {
  docxReferenceSamples,
  epubReferenceSamples,
  fb2ReferenceSamples,
  type Hrefs,
  htmlReferenceSamples,
  markupIncludeSamples,
  markupReferenceSamples,
  odfReferenceSamples,
  pptxReferenceSamples,
  type ReferenceSample,
  rtfReferenceSamples,
  svgReferenceSample,
  xlsxReferenceSamples,
} from '../testing/reference-samples.js';
import { nodeHostedRuntime } from './support/node-hosted.js';
import { type FailureVerdict, referenceProblems, samplesFollowed, spellings } from './support/reference-checks.js';
import { convertStep } from './support/test-context.js';

// No engine may read a file a document names — a picture, a style sheet, a background, an included text, a linked
// section, an external relationship, an SVG image — whatever the spelling (relative, absolute, file: URL). Canary
// files sit where an engine could still reach them inside its sandbox (beside the input as the engine sees it, in
// its own temporary directory, in the job's scratch directory) and outside every sandbox; documents of every format
// that can name a file name them all; every output of every target must carry the document's own text and no trace
// of a canary (its word, its picture, its colour). Positive controls run the same documents through the same
// programs without our defences, to show each reference is live.

const dir = mkdtempSync(join(tmpdir(), 'fileshift-references-'));
/** Outside every job's scratch directory and every engine's own: only an unsandboxed engine could read it. */
const outside = join(dir, 'outside');
mkdirSync(outside);
beforeAll(() => writeCanaryFiles(outside));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = promisify(execFile);
const targetsOf = (descriptor: EngineDescriptor) => (format: string) => descriptor.pairs.filter((pair) => pair.from === format).map((pair) => pair.to);
const newDir = (name: string) => mkdtempSync(join(dir, `${name}-`));

async function expectInstalled(runtime: EngineRuntime, name: string): Promise<void> {
  const probe = await runtime.probe();
  if (!probe.available) console.error(`\n*** ENGINE MISSING: ${name} (${probe.problem}); these tests FAIL without it. ***\n`);
  expect(probe.available).toBe(true);
}

/** The same documents, one reference spelling each (`sample@label`): a control then shows every spelling is live. */
function bySpelling(build: (hrefs: Hrefs) => ReferenceSample[], hrefs: Hrefs, labels: readonly string[]): ReferenceSample[] {
  return labels.flatMap((label, i) => build((file) => [hrefs(file)[i]!]).map((sample) => ({ ...sample, name: `${sample.name}@${label}` })));
}

// ---------------------------------------------------------------- LibreOffice

/** Every document LibreOffice reads that can name a file; ODF resolves relative references from inside its package. */
const officeSamples = (hrefs: Hrefs, packageHrefs: Hrefs) => [
  ...htmlReferenceSamples(hrefs),
  ...rtfReferenceSamples(hrefs),
  ...docxReferenceSamples(hrefs),
  ...xlsxReferenceSamples(hrefs),
  ...pptxReferenceSamples(hrefs),
  ...odfReferenceSamples(packageHrefs),
];

/** What a plain soffice reads (control below); the other samples it does not read even unprotected (kept for later versions). */
const READ_BY_PLAIN_LIBREOFFICE = [
  'docx-linked-picture',
  'html-body-background',
  'html-img',
  'html-stylesheet',
  'html-table-background',
  'odp-linked-picture',
  'ods-linked-table',
  'odt-background',
  'odt-linked-picture',
  'pptx-linked-picture',
  'rtf-includepicture',
  'xlsx-external-links',
];

/** The file's one LibreOffice pool (also the first step of the audit's chain, under calibre below). */
const libreoffice = new LibreOfficeRuntime({ size: 1, workRoot: newDir('lo-pool'), log: () => undefined });
afterAll(() => libreoffice.stop());

describe('LibreOffice: a document reads no file it names', () => {
  /** The job's scratch directory: inputs, outputs, and canaries beside the inputs. */
  const job = newDir('lo-job');
  const runtime = libreoffice;
  /** soffice's own directories: where it sees its input (the pool stages each input there) and its temporary directory. */
  let office: { tag: string; exchange: string; temporaries: string };
  let samples: ReferenceSample[] = [];

  beforeAll(async () => {
    await expectInstalled(runtime, 'LibreOffice');
    await runtime.start();
    const [instance] = (await runtime.inspect()).instances;
    expect(instance).toBeDefined();
    const instanceDir = dirname(instance!.profileDir);
    // The pool's layout (libreoffice-instance.ts): each input is staged in `exchange`, soffice's HOME and TMPDIR are `tmp`.
    office = { tag: instance!.tag, exchange: join(instanceDir, 'exchange'), temporaries: join(instanceDir, 'tmp') };
    for (const place of [job, office.temporaries]) await writeCanaryFiles(place);
    const places = [office.exchange, office.temporaries, job, outside];
    const fromInput = relative(office.exchange, office.temporaries);
    samples = officeSamples(spellings(['', fromInput], places), spellings(['..', posix.join('..', fromInput)], places));
  }, 120_000);

  it(
    'positive control: a plain soffice (LibreOffice’s own defaults: no profile, guard nor sandbox of ours) reads them, in every spelling',
    async () => {
      const control = newDir('lo-control');
      const documents = join(control, 'documents');
      const temporaries = join(control, 'tmp');
      for (const place of [documents, temporaries]) {
        mkdirSync(place);
        await writeCanaryFiles(place);
      }
      const hrefs = spellings(['', '../tmp'], [documents, temporaries]);
      const packageHrefs = spellings(['..', '../../tmp'], [documents, temporaries]);
      const labels = ['beside', 'relative', 'absolute', 'file-url', 'absolute-elsewhere', 'file-url-elsewhere'];
      const controlSamples = [
        ...officeSamples(hrefs, packageHrefs),
        ...bySpelling((one) => [...htmlReferenceSamples(one).filter((s) => s.name === 'html-img'), ...docxReferenceSamples(one).filter((s) => s.name === 'docx-linked-picture')], hrefs, labels),
        ...bySpelling((one) => odfReferenceSamples(one).filter((s) => s.name === 'odt-linked-picture'), packageHrefs, labels),
      ];
      for (const sample of controlSamples) writeFileSync(join(documents, `${sample.name}.${sample.format}`), sample.bytes);
      const profile = pathToFileURL(join(control, 'profile')).href;
      const outputs: Array<{ sample: string; format: string; path: string }> = [];
      const TARGETS: Record<string, string> = { html: 'pdf', rtf: 'odt', docx: 'pdf', odt: 'pdf', xlsx: 'pdf', ods: 'pdf', pptx: 'pdf', odp: 'pdf' };
      for (const [from, to] of Object.entries(TARGETS)) {
        const inputs = controlSamples.filter((sample) => sample.format === from);
        const outDir = join(control, `out-${from}`);
        // HTML as the pool imports it (into Writer); everything else by type detection.
        const importFilter = from === 'html' ? ['--infilter=HTML (StarWriter)'] : [];
        await run('/usr/lib/libreoffice/program/soffice', [`-env:UserInstallation=${profile}`, '--headless', '--norestore', ...importFilter, '--convert-to', to, '--outdir', outDir, ...inputs.map((sample) => join(documents, `${sample.name}.${from}`))], {
          cwd: documents,
          timeout: 240_000,
          env: { PATH: '/usr/bin:/bin', HOME: control, LANG: 'C.UTF-8' },
        });
        for (const sample of inputs) outputs.push({ sample: sample.name.replace(/-\d+$/, ''), format: to, path: join(outDir, `${sample.name}.${to}`) });
      }
      const followed = await samplesFollowed(outputs);
      expect(followed).toEqual(expect.arrayContaining(READ_BY_PLAIN_LIBREOFFICE));
      // Every spelling is read: beside the document, relative, absolute and file: URL, here and elsewhere.
      for (const name of ['html-img', 'docx-linked-picture', 'odt-linked-picture']) expect(followed).toEqual(expect.arrayContaining(labels.map((label) => `${name}@${label}`)));
    },
    300_000,
  );

  for (const format of ['html', 'rtf', 'docx', 'odt', 'xlsx', 'ods', 'pptx', 'odp']) {
    it(`${format}: no output, to any target, carries a file the document names`, async () => {
      const problems = await referenceProblems({
        runtime,
        samples: samples.filter((sample) => sample.format === format),
        targets: targetsOf(LIBREOFFICE_DESCRIPTOR),
        workDir: job,
        // The pool empties its exchange directory after each conversion: the canaries beside the input go in again.
        beforeEach: () => writeCanaryFiles(office.exchange),
      });
      expect(problems).toEqual([]);
    }, 180_000);
  }

  it('converted everything in the instance it started with (the references named live places throughout)', async () => {
    const [instance] = (await runtime.inspect()).instances;
    expect(instance?.tag).toBe(office.tag);
  });
});

// ---------------------------------------------------------------- calibre

/** `../` repeated: climbing out of the book, or of calibre's working directory, towards the job's directory and past it. */
const CLIMBS = ['..', '../..', '../../..', '../../../..', '../../../../..', '../../../../../..'];

/** calibre's spellings: book- or working-directory-relative climbs, then absolute and file: URL; calibre also reads `file://` + a relative path. */
const calibreHrefs =
  (directories: readonly string[]): Hrefs =>
  (file) => [...spellings(CLIMBS, directories)(file), ...CLIMBS.map((climb) => `file://${climb}/${file}`)];

const ebookSamples = (hrefs: Hrefs) => [
  ...epubReferenceSamples(hrefs),
  // One cover each: a few spellings are enough to try calibre's cover path.
  ...fb2ReferenceSamples((file) => hrefs(file).filter((_, i) => [1, 2, CLIMBS.length, CLIMBS.length + 1].includes(i))),
  ...docxReferenceSamples(hrefs),
];

/** calibre's ebook-convert as it is, run directly (no sandbox, no screening): the positive controls' calibre. */
const ebookConvert = (input: string, output: string, cwd: string) => run('ebook-convert', [input, output], { cwd, env: { ...process.env, QT_QPA_PLATFORM: 'offscreen' } });

/** An AZW3 whose SVG images name files: calibre writes it from such an EPUB keeping the names (AZW3 keeps SVG as SVG). */
async function azw3WithSvgImages(hrefs: Hrefs, workDir: string): Promise<ReferenceSample> {
  const epub = epubReferenceSamples(hrefs).find((sample) => sample.name === 'epub-svg-image')!;
  const epubPath = join(workDir, 'svg-images-source.epub');
  writeFileSync(epubPath, epub.bytes);
  const azw3Path = join(workDir, 'svg-images-source.azw3');
  // Made where no canary is: calibre must not have drawn one into the AZW3 itself.
  await ebookConvert(epubPath, azw3Path, workDir);
  return { name: 'azw3-svg-image', format: 'azw3', bytes: readFileSync(azw3Path) };
}

describe('calibre: a book reads no file it names', () => {
  it('positive control: a plain ebook-convert reads a DOCX’s linked pictures and draws SVG images (EPUB, AZW3) from files', async () => {
    const control = newDir('calibre-control');
    const work = join(control, 'work');
    mkdirSync(work);
    await writeCanaryFiles(control);
    const convert = async (sample: ReferenceSample, to: string) => {
      const input = join(control, `${sample.name}.${sample.format}`);
      writeFileSync(input, sample.bytes);
      const output = join(control, `${sample.name}.${to}`);
      // From a working directory beside the canaries' own, as the runtime's is below the job's.
      await ebookConvert(input, output, work);
      return { sample: sample.name, format: to, path: output };
    };
    const relativeToWork = (file: string) => [`../${file}`];
    const absolute = (file: string) => [join(control, file)];
    const fileUrl = (file: string) => [pathToFileURL(join(control, file)).href, `file://../${file}`];
    const named = (samples: ReferenceSample[], name: string, label: string) => ({ ...samples.find((sample) => sample.name === name)!, name: `${name}@${label}` });
    const outputs = [
      await convert(named(docxReferenceSamples(fileUrl), 'docx-linked-picture', 'file-url'), 'epub'),
      await convert(named(epubReferenceSamples(relativeToWork), 'epub-svg-image', 'relative'), 'mobi'),
      await convert(named(epubReferenceSamples(absolute), 'epub-svg-image', 'absolute'), 'mobi'),
      await convert(await azw3WithSvgImages(relativeToWork, newDir('calibre-control-azw3')), 'mobi'),
    ];
    expect(await samplesFollowed(outputs)).toEqual(['azw3-svg-image', 'docx-linked-picture@file-url', 'epub-svg-image@absolute', 'epub-svg-image@relative']);
  }, 180_000);

  // The engine sandbox off: the input screening and calibre's own checks alone, every canary reachable.
  describe('engine sandbox off: the input screening and calibre alone', () => {
    const job = newDir('calibre-job-unsandboxed');
    const runtime = new CalibreRuntime(new SandboxedProcessRunner(undefined, EngineSandbox.start('off')));
    beforeAll(() => writeCanaryFiles(job));

    it('is installed', () => expectInstalled(runtime, 'calibre'));

    it('EPUB, FB2, DOCX, AZW3: no output carries a file the book names; a book drawing SVG from a file is refused', async () => {
      const hrefs = calibreHrefs([job, outside]);
      const problems = await referenceProblems({
        runtime,
        samples: [...ebookSamples(hrefs), await azw3WithSvgImages(hrefs, newDir('calibre-azw3'))],
        targets: targetsOf(CALIBRE_DESCRIPTOR),
        workDir: job,
        // calibre would draw those from the machine's files: the screening refuses the book before calibre runs.
        refusal: (error, sample) => error.failureType === 'security_rejected' && /SVG/.test(error.message) && /svg-image$/.test(sample.name),
        refusedWhole: (sample) => /svg-image$/.test(sample.name),
      });
      expect(problems).toEqual([]);
    }, 600_000);
  });

  // As the worker runs it: calibre's sandbox holds its own directory (the book) and the system's files.
  describe('engine sandbox required', () => {
    const job = newDir('calibre-job');
    beforeAll(() => writeCanaryFiles(job));

    it('the sandbox alone hides the job’s files and the machine’s: a plain ebook-convert, run as the runtime runs calibre, draws none', async () => {
      const book = await azw3WithSvgImages((file) => [join(job, file), join(outside, file), `../../${file}`], newDir('calibre-sandbox-azw3'));
      const own = mkdtempSync(join(job, 'fileshift-calibre-'));
      const input = join(own, 'input.azw3');
      writeFileSync(input, book.bytes);
      const sandboxed = join(own, 'output.mobi');
      const result = await new SandboxedProcessRunner().forEngine(CALIBRE_DESCRIPTOR).run({ command: 'ebook-convert', args: [input, sandboxed], scratchDir: own, timeoutMs: 120_000, env: { QT_QPA_PLATFORM: 'offscreen' } });
      expect(result.exitCode).toBe(0);
      const traces = await canaryTraces(sandboxed, 'mobi', SAMPLE_HEADING);
      expect(traces.ownText).toBe(true);
      expect(describeTraces(traces)).toBe('');
      // The same run outside the sandbox draws them.
      const unsandboxed = join(job, 'unsandboxed.mobi');
      await ebookConvert(input, unsandboxed, own);
      expect(describeTraces(await canaryTraces(unsandboxed, 'mobi', SAMPLE_HEADING))).not.toBe('');
    }, 180_000);

    it('the audit’s chain: LibreOffice keeps an HTML picture it did not read as a link to the file in its DOCX; calibre reads none of it into any book', async () => {
      const runtime = new CalibreRuntime();
      const [html] = htmlReferenceSamples((file) => [join(job, file), pathToFileURL(join(job, file)).href]).filter((sample) => sample.name === 'html-img');
      const htmlPath = join(job, 'page.html');
      writeFileSync(htmlPath, html!.bytes);
      const [docx] = (await convertStep(libreoffice, { inputPath: htmlPath, from: 'html', to: 'docx' }, job)) as [string];
      expect(zipText(docx, 'word/_rels/document.xml.rels')).toMatch(/TargetMode="External"/);
      const problems = await referenceProblems({ runtime, samples: [{ name: 'docx-from-html', format: 'docx', bytes: readFileSync(docx) }], targets: targetsOf(CALIBRE_DESCRIPTOR), workDir: job });
      expect(problems).toEqual([]);
      // The same DOCX through a plain ebook-convert: the pictures are read.
      const control = join(job, 'control-from-html.epub');
      await ebookConvert(docx, control, job);
      expect(describeTraces(await canaryTraces(control, 'epub', SAMPLE_HEADING))).not.toBe('');
    }, 240_000);
  });
});

// ---------------------------------------------------------------- pandoc

/** pandoc refusing a file a document names: sandboxed, it fails rather than go without it (includes, a notebook's attachments). */
const pandocRefusal: FailureVerdict = (error) => error.failureType === 'unsupported_or_corrupt_input' && /not found in resource path|could not (?:fetch|find)|PandocResourceNotFound/i.test(error.diagnostics ?? '');

describe('pandoc: markup reads no file it names', () => {
  const job = newDir('pandoc-job');
  const runtime = new PandocRuntime();
  let samples: ReferenceSample[] = [];
  let includes: ReferenceSample[] = [];

  beforeAll(async () => {
    await writeCanaryFiles(job);
    const hrefs = spellings([''], [job, outside]);
    samples = [
      ...markupReferenceSamples(hrefs),
      ...docxReferenceSamples(hrefs).filter((sample) => sample.name === 'docx-linked-picture'),
      ...epubReferenceSamples(hrefs).filter((sample) => sample.name === 'epub-img'),
    ];
    includes = markupIncludeSamples(hrefs);
  });

  it('is installed', () => expectInstalled(runtime, 'pandoc'));

  it('positive control: pandoc without --sandbox embeds the pictures and includes the texts', async () => {
    const control = newDir('pandoc-control');
    await writeCanaryFiles(control);
    const hrefs = spellings([''], [control]);
    const readers: Record<string, string> = { md: 'markdown', html: 'html', rst: 'rst', org: 'org', tex: 'latex', ipynb: 'ipynb' };
    const outputs = [];
    for (const sample of [...markupReferenceSamples(hrefs), ...markupIncludeSamples(hrefs)]) {
      const input = join(control, `${sample.name}.${sample.format}`);
      writeFileSync(input, sample.bytes);
      const output = join(control, `${sample.name}.odt`);
      await run('pandoc', ['--from', readers[sample.format]!, '--to', 'odt', '--output', output, input], { cwd: control });
      outputs.push({ sample: sample.name, format: 'odt', path: output });
    }
    expect(await samplesFollowed(outputs)).toEqual(
      expect.arrayContaining(['html-references', 'ipynb-images', 'md-images', 'org-images', 'org-include', 'rst-csv-table-file', 'rst-images', 'rst-include', 'tex-graphics', 'tex-input']),
    );
  }, 120_000);

  it('md, html, rst, org, tex, ipynb, docx, epub: no output, to any target, carries a file the document names', async () => {
    const problems = await referenceProblems({ runtime, samples, targets: targetsOf(PANDOC_DESCRIPTOR), workDir: job, refusal: pandocRefusal });
    expect(problems).toEqual([]);
  }, 300_000);

  it('includes (rst include, raw and csv-table files, Org #+INCLUDE, LaTeX \\input) fail rather than read the file', async () => {
    const problems = await referenceProblems({ runtime, samples: includes, targets: () => ['md', 'html', 'odt'], workDir: job, refusal: pandocRefusal, refusedWhole: () => true });
    expect(problems).toEqual([]);
  }, 120_000);
});

// ---------------------------------------------------------------- SVG (sharp, librsvg)

/** How many 64-pixel cells of a rendered row of images show the canary colour. */
async function canaryCells(png: string | Buffer): Promise<number> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let cells = 0;
  for (let x = 32; x < info.width; x += 64) {
    const i = (32 * info.width + x) * info.channels;
    if (CANARY_RGB.every((value, channel) => Math.abs(data[i + channel]! - value) <= 30)) cells++;
  }
  return cells;
}

describe('SVG (sharp, librsvg): a drawing shows no file it names', () => {
  const job = newDir('svg-job');
  const runtime = nodeHostedRuntime(SHARP_DESCRIPTOR, 'sharp');
  const hrefs = spellings(['', posix.relative(job, outside)], [job, outside]);
  let svgPath = '';

  beforeAll(async () => {
    await writeCanaryFiles(job);
    svgPath = join(job, 'drawing.svg');
    writeFileSync(svgPath, svgReferenceSample(hrefs).bytes);
  });

  it('positive control: librsvg given the drawing by its path shows the picture beside it, by name, absolute path and file: URL', async () => {
    // librsvg's own rule keeps it below the drawing's directory: the three spellings of the canary beside it.
    expect(await canaryCells(await sharp(svgPath).png().toBuffer())).toBe(3);
  });

  it('the runtime renders every image reference as nothing: relative, absolute, file: URL, beside and outside', async () => {
    for (const to of ['png', 'webp', 'jpg']) {
      const [output] = (await convertStep(runtime, { inputPath: svgPath, from: 'svg', to }, job)) as [string];
      const meta = await sharp(output).metadata();
      expect(meta.width).toBe(64 * hrefs('canary.png').length);
      expect(await canaryCells(output)).toBe(0);
    }
  });
});
