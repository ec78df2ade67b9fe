import { canLose, isLossyFormat } from '@fileshift/formats';
import { describe, expect, it } from 'vitest';
import { ConversionGraph } from '../src/platform/conversion-graph.js';
import { type ConversionPlan, engineChoices, optionsOfPlan, plansTaking, stepWeights } from '../src/platform/conversion-plan.js';
import type { EngineDescriptor, EnginePair } from '../src/platform/engine-descriptor.js';
import { ENGINE_DESCRIPTORS } from '../src/engines/engines.js';

const engine = (id: string, cost: number, pairs: EnginePair[], engineClass: EngineDescriptor['engineClass'] = 'documents'): EngineDescriptor => ({
  id,
  engineClass,
  description: id,
  cost,
  pairs,
  limits: { timeoutMs: 1000, maxOutputBytes: 1000 },
  debianPackages: [],
});

const office = engine('office', 10, [
  { from: 'docx', to: 'pdf', recommended: true, options: ['pdfa'] },
  { from: 'docx', to: 'odt' },
  { from: 'odt', to: 'pdf' },
  { from: 'md', to: 'html' },
  { from: 'html', to: 'pdf' },
]);
const pdfTools = engine('pdftools', 3, [
  { from: 'pdf', to: 'png', recommended: true, multipleOutputs: true, options: ['dpi', 'pages'] },
  { from: 'pdf', to: 'pdf', options: ['compress'] },
]);
const images = engine('images', 1, [{ from: 'png', to: 'webp', recommended: true, options: ['quality'] }], 'images');
const cheapOffice = engine('cheap-office', 4, [{ from: 'docx', to: 'pdf' }]);
/** A plan as `engine:from>to` steps joined by spaces. */
const stepsOf = (plan: ConversionPlan) => plan.steps.map((step) => `${step.engine}:${step.from}>${step.to}`).join(' ');
const lastEngine = (plan: ConversionPlan) => plan.steps.at(-1)!.engine;
/** The real engines with the OCR engine's pairs changed, to show what one of their attributes holds back. */
const withOcrPairs = (change: (pair: EnginePair) => EnginePair) => ENGINE_DESCRIPTORS.map((descriptor) => (descriptor.id === 'ocr' ? { ...descriptor, pairs: descriptor.pairs.map(change) } : descriptor));

describe('ConversionGraph', () => {
  it('plans up to three steps, cheapest first: docx → pdf → png, md → html → pdf', () => {
    const graph = new ConversionGraph([office, pdfTools, images]);
    expect(graph.plan('docx', 'png')!.steps.map((s) => `${s.engine}:${s.from}>${s.to}`)).toEqual(['office:docx>pdf', 'pdftools:pdf>png']);
    expect(graph.plan('md', 'pdf')!.steps.map((s) => s.to)).toEqual(['html', 'pdf']);
    expect(graph.plan('md', 'png')!.steps).toHaveLength(3);
    expect(graph.targetsOf('md').sort()).toEqual(['html', 'pdf', 'png']);
    expect(graph.canConvert('png', 'docx')).toBe(false);
  });

  it('never goes past a step that writes several files, nor past three steps', () => {
    const graph = new ConversionGraph([office, pdfTools, images]);
    // pdf → png writes a file per page: png → webp cannot follow it.
    expect(graph.canConvert('docx', 'webp')).toBe(false);
    expect(graph.targetsOf('docx')).not.toContain('webp');
    const chain = engine('chain', 1, [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'd' }, { from: 'd', to: 'e' }]);
    const chained = new ConversionGraph([chain]);
    expect(chained.plan('a', 'd')!.steps).toHaveLength(3);
    expect(chained.canConvert('a', 'e')).toBe(false);
  });

  it('never passes through a lossy format, even where that plan is cheaper; it may start or end at one', () => {
    const raster = engine('raster', 1, [{ from: 'svg', to: 'jpg' }, { from: 'svg', to: 'png' }, { from: 'jpg', to: 'bmp' }, { from: 'png', to: 'bmp' }, { from: 'gif', to: 'bmp' }], 'images');
    const cheapViaJpeg = engine('cheap', 0.1, [{ from: 'svg', to: 'jpg' }, { from: 'jpg', to: 'bmp' }, { from: 'svg', to: 'gif' }], 'images');
    const graph = new ConversionGraph([raster, cheapViaJpeg]);
    expect(graph.plans('svg', 'bmp').map((plan) => plan.steps.map((step) => step.to).join('>'))).toEqual(['png>bmp']);
    expect(graph.plan('svg', 'jpg')!.steps).toHaveLength(1);
    expect(graph.plan('jpg', 'bmp')!.steps).toHaveLength(1);
    // A lossy source is not a licence for a second generation of loss.
    const lossyChain = new ConversionGraph([engine('audio', 1, [{ from: 'mp4', to: 'mp3' }, { from: 'mp3', to: 'wav' }])]);
    expect(lossyChain.canConvert('mp4', 'wav')).toBe(false);
  });

  it('no advertised plan passes through a lossy format', () => {
    const graph = new ConversionGraph(ENGINE_DESCRIPTORS);
    for (const source of graph.sourceFormats()) {
      for (const target of graph.targetsOf(source)) {
        for (const plan of graph.plans(source, target)) {
          const detours = plan.steps.slice(0, -1).map((step) => step.to).filter((format) => isLossyFormat(format));
          expect(detours, `${source} → ${target}`).toEqual([]);
        }
      }
    }
  });

  it('uses a last-step-only pair only to end a plan', () => {
    const markup = engine('markup', 1, [{ from: 'epub', to: 'html', lastStepOnly: true }, { from: 'epub', to: 'odt' }]);
    const browser = engine('browser', 1, [{ from: 'html', to: 'pdf' }]);
    const office = engine('office', 5, [{ from: 'odt', to: 'pdf' }]);
    const graph = new ConversionGraph([markup, browser, office]);
    expect(graph.plan('epub', 'html')!.steps).toHaveLength(1);
    expect(graph.plans('epub', 'pdf').map((plan) => plan.steps.map((step) => step.to).join('>'))).toEqual(['odt>pdf']);
  });

  it('uses a first-step-only pair only to start a plan', () => {
    const text = engine('text', 1, [{ from: 'pdf', to: 'txt', firstStepOnly: true }]);
    const toPdf = engine('topdf', 1, [{ from: 'png', to: 'pdf' }]);
    const graph = new ConversionGraph([text, toPdf]);
    expect(graph.canConvert('pdf', 'txt')).toBe(true);
    expect(graph.canConvert('png', 'txt')).toBe(false);
    expect(graph.targetsOf('png')).toEqual(['pdf']);
  });

  it('lets cost decide between two engines for one pair, the other being the fallback', () => {
    const graph = new ConversionGraph([office, cheapOffice, pdfTools]);
    expect(graph.plans('docx', 'pdf').map((plan) => plan.steps.map((s) => s.engine).join('+'))).toEqual(['cheap-office', 'office', 'office+office']);
    expect(graph.plan('docx', 'png')!.steps[0]!.engine).toBe('cheap-office');
  });

  it('of two plans that cost the same, takes the one that loses no content (xls → xlsx → json keeps the cell types, → csv → json does not)', () => {
    const sheets = engine('sheets', 10, [
      { from: 'xls', to: 'csv' },
      { from: 'xls', to: 'xlsx' },
    ]);
    const records = engine('records', 1, [
      { from: 'csv', to: 'json', losses: ['cell-types'] },
      { from: 'xlsx', to: 'json' },
    ]);
    const graph = new ConversionGraph([sheets, records]);
    expect(graph.plan('xls', 'json')?.steps.map((step) => step.to)).toEqual(['xlsx', 'json']);
    expect(graph.lossesOf('xls', 'json')).toEqual([]);
    expect(new ConversionGraph([sheets, { ...records, pairs: records.pairs.slice(0, 1) }]).lossesOf('xls', 'json')).toEqual(['cell-types']);
  });

  it('offers a format to itself only as a plan of its own (pdf → pdf: compression)', () => {
    const graph = new ConversionGraph([office, pdfTools]);
    expect(graph.plan('pdf', 'pdf')!.steps.map((s) => s.engine)).toEqual(['pdftools']);
    expect(graph.targetsOf('pdf').sort()).toEqual(['pdf', 'png']);
    expect(graph.plan('docx', 'pdf')!.steps).toHaveLength(1);
  });

  it('says which options a plan takes, its queue, the weight of each step and whether it is recommended', () => {
    const graph = new ConversionGraph([office, pdfTools, images]);
    const plan = graph.plan('docx', 'png')!;
    expect(optionsOfPlan(plan).sort()).toEqual(['dpi', 'pages', 'pdfa']);
    expect(plan.engineClass).toBe('documents');
    expect(stepWeights(plan)).toEqual([10 / 13, 3 / 13]);
    expect(graph.plan('png', 'webp')!.engineClass).toBe('images');
    expect(graph.isRecommended('docx', 'pdf')).toBe(true);
    expect(graph.isRecommended('docx', 'png')).toBe(true);
    expect(graph.isRecommended('docx', 'odt')).toBe(false);
    expect(graph.isRecommended('md', 'pdf')).toBe(false);
  });

  it('holds nothing for engines that are not there', () => {
    const graph = new ConversionGraph([]);
    expect(graph.targetsOf('png')).toEqual([]);
    expect(graph.plan('png', 'webp')).toBeUndefined();
    expect(graph.engines()).toEqual([]);
  });

  it('with every engine of this build: the pairs the issues ask for', () => {
    const graph = new ConversionGraph(ENGINE_DESCRIPTORS);
    for (const from of ['docx', 'doc', 'odt', 'rtf', 'txt', 'html']) for (const to of ['pdf', 'docx', 'odt', 'rtf', 'txt', 'html', 'png', 'jpg']) if (from !== to) expect(graph.canConvert(from, to), `${from}→${to}`).toBe(true);
    for (const from of ['xlsx', 'xls', 'ods', 'csv']) for (const to of ['pdf', 'xlsx', 'ods', 'csv', 'html', 'png']) if (from !== to) expect(graph.canConvert(from, to), `${from}→${to}`).toBe(true);
    for (const from of ['pptx', 'ppt', 'odp']) for (const to of ['pdf', 'pptx', 'odp', 'jpg']) if (from !== to) expect(graph.canConvert(from, to), `${from}→${to}`).toBe(true);
    for (const to of ['png', 'jpg', 'txt', 'html']) expect(graph.canConvert('pdf', to), `pdf→${to}`).toBe(true);
    for (const from of ['jpg', 'png', 'webp', 'gif', 'avif', 'tiff']) expect(graph.canConvert(from, 'pdf'), `${from}→pdf`).toBe(true);
    expect(graph.plan('webp', 'pdf')!.steps.map((s) => s.engine)).toEqual(['sharp', 'img2pdf']);
    expect(graph.plan('mp3', 'wav')!.engineClass).toBe('media');
  });
});

describe('ConversionGraph: the plan that loses less wins, of those the cheapest', () => {
  // A PDF reader that writes HTML as the page lays it out (no tables) or Markdown with tables, and the ways on from each.
  const reader = engine('reader', 3, [
    { from: 'pdf', to: 'html', firstStepOnly: true, losses: ['table-layout'] },
    { from: 'pdf', to: 'md', firstStepOnly: true },
    { from: 'pdf', to: 'txt', firstStepOnly: true },
  ]);
  const markup = engine('markup', 6, [{ from: 'md', to: 'odt' }, { from: 'md', to: 'fb2', passesOnOnlyToLoseLess: true }, { from: 'md', to: 'txt' }, { from: 'json', to: 'md' }]);
  const suite = engine('suite', 10, [{ from: 'html', to: 'docx' }, { from: 'odt', to: 'docx' }]);
  const books = engine('books', 8, [{ from: 'docx', to: 'epub' }, { from: 'fb2', to: 'epub' }]);
  const graph = new ConversionGraph([reader, markup, suite, books]);

  it('takes a dearer plan that keeps the tables over a cheaper one that loses them, which stays the fallback', () => {
    expect(graph.plans('pdf', 'docx').map(stepsOf)).toEqual(['reader:pdf>md markup:md>odt suite:odt>docx', 'reader:pdf>html suite:html>docx']);
    expect(graph.plans('pdf', 'docx')[0]!.cost).toBeGreaterThan(graph.plans('pdf', 'docx')[1]!.cost);
    expect(graph.lossesOf('pdf', 'docx')).toEqual([]);
    // With no plan that keeps them, the one that loses them is the plan, and says so.
    const withoutMarkdown = new ConversionGraph([{ ...reader, pairs: reader.pairs.filter((pair) => pair.to !== 'md') }, markup, suite]);
    expect(withoutMarkdown.plans('pdf', 'docx').map(stepsOf)).toEqual(['reader:pdf>html suite:html>docx']);
    expect(withoutMarkdown.lossesOf('pdf', 'docx')).toEqual(['table-layout']);
  });

  it('lets cost decide where every plan loses the same: what the target cannot hold, or a loss the source has nothing of', () => {
    // Plain text holds no table, whichever plan writes it.
    expect(graph.plans('pdf', 'txt').map(stepsOf)).toEqual(['reader:pdf>txt', 'reader:pdf>md markup:md>txt']);
    expect(graph.lossesOf('pdf', 'txt')).toEqual(['table-layout']);
    // A picture has no table to lose: the cheaper engine wins although its pair loses tables.
    const cheap = engine('cheap', 1, [{ from: 'png', to: 'html', losses: ['table-layout'] }]);
    const dear = engine('dear', 5, [{ from: 'png', to: 'html' }]);
    expect(new ConversionGraph([dear, cheap]).plans('png', 'html').map(stepsOf)).toEqual(['cheap:png>html', 'dear:png>html']);
  });

  it('passes a step that passes on only to lose less on where every other plan loses more, and nowhere else', () => {
    // pdf → epub: only FB2 carries the tables in three steps (DOCX would be a fourth).
    expect(graph.plans('pdf', 'epub').map(stepsOf)).toEqual(['reader:pdf>md markup:md>fb2 books:fb2>epub', 'reader:pdf>html suite:html>docx books:docx>epub']);
    // md → epub: through DOCX, which loses nothing either, although through FB2 is cheaper.
    expect(graph.plans('md', 'epub').map(stepsOf)).toEqual(['markup:md>odt suite:odt>docx books:docx>epub']);
    // json → epub: FB2 makes no pair of its own.
    expect(graph.canConvert('json', 'epub')).toBe(false);
    expect(graph.targetsOf('json').sort()).toEqual(['docx', 'fb2', 'md', 'odt', 'txt']);
    // It still ends a plan like any other pair.
    expect(graph.plans('md', 'fb2').map(stepsOf)).toEqual(['markup:md>fb2']);
    // Held back by the attribute alone: without it FB2 is the cheaper way everywhere.
    const loose = new ConversionGraph([reader, { ...markup, pairs: markup.pairs.map(({ passesOnOnlyToLoseLess: _passes, ...pair }) => pair) }, suite, books]);
    expect(stepsOf(loose.plan('md', 'epub')!)).toBe('markup:md>fb2 books:fb2>epub');
    expect(loose.canConvert('json', 'epub')).toBe(true);
  });

  it('with every engine of this build: a PDF\'s tables reach every target that holds tables, through the Markdown reader', () => {
    const real = new ConversionGraph(ENGINE_DESCRIPTORS);
    const pdftohtml = ENGINE_DESCRIPTORS.find((descriptor) => descriptor.id === 'poppler')!.pairs.find((pair) => pair.to === 'html')!;
    expect(pdftohtml.losses).toEqual(['table-layout']);
    const holdingTables = real.targetsOf('pdf').filter((target) => target !== 'pdf' && canLose(target, 'table-layout'));
    expect(holdingTables.sort()).toEqual(['azw3', 'docx', 'epub', 'fb2', 'html', 'ipynb', 'md', 'mobi', 'odt', 'org', 'rst', 'rtf', 'tex']);
    for (const target of holdingTables) {
      expect(real.lossesOf('pdf', target), `pdf → ${target}`).toEqual([]);
      expect(real.plan('pdf', target)!.steps[0], `pdf → ${target}`).toMatchObject({ engine: 'poppler', to: 'md' });
    }
    expect(stepsOf(real.plan('pdf', 'epub')!)).toBe('poppler:pdf>md pandoc:md>fb2 calibre:fb2>epub');
    expect(real.lossesOf('pdf', 'txt')).toEqual(['table-layout']);
    // pdftohtml's layout is still there, as pdf → html's fallback.
    expect(real.plans('pdf', 'html').map(stepsOf)).toContain('poppler:pdf>html');
  });

  it('with every engine of this build: a table is lost only where the target cannot hold one, and FB2 goes on only for a PDF', () => {
    const real = new ConversionGraph(ENGINE_DESCRIPTORS);
    for (const source of real.sourceFormats()) {
      for (const target of real.targetsOf(source)) {
        if (real.lossesOf(source, target).includes('table-layout')) expect(canLose(target, 'table-layout'), `${source} → ${target}`).toBe(false);
        const detours = real.plan(source, target)!.steps.slice(0, -1).filter((step) => step.to === 'fb2');
        if (source !== 'pdf') expect(detours, `${source} → ${target}`).toEqual([]);
      }
    }
    // What FB2 passes on to makes no pair: a plan is there exactly where the target is advertised.
    for (const source of real.sourceFormats()) for (const target of ['epub', 'mobi', 'azw3', 'docx']) expect(real.canConvert(source, target), `${source} → ${target}`).toBe(real.targetsOf(source).includes(target));
    // An e-book to FB2 through pandoc, whose FB2 keeps the tables calibre's writes a cell per line.
    for (const source of ['mobi', 'azw3', 'epub', 'docx']) expect(lastEngine(real.plan(source, 'fb2')!), `${source} → fb2`).toBe('pandoc');
  });
});

describe('ConversionGraph: a pair only after steps of one engine class (onlyAfter)', () => {
  const decoder = engine('decoder', 1, [{ from: 'heic', to: 'png' }, { from: 'png', to: 'tiff' }], 'images');
  const video = engine('video', 1, [{ from: 'mp4', to: 'png' }], 'media');
  const browser = engine('browser', 1, [{ from: 'html', to: 'png' }]);
  const reader = engine('reader', 5, [{ from: 'png', to: 'txt', onlyAfter: 'images' }, { from: 'tiff', to: 'txt', onlyAfter: 'images' }]);
  const graph = new ConversionGraph([decoder, video, browser, reader]);

  it('starts a plan, or follows steps that are all of that class', () => {
    expect(graph.plans('png', 'txt').map(stepsOf)).toEqual(['reader:png>txt', 'decoder:png>tiff reader:tiff>txt']);
    expect(graph.plans('heic', 'txt').map(stepsOf)).toEqual(['decoder:heic>png reader:png>txt', 'decoder:heic>png decoder:png>tiff reader:tiff>txt']);
    expect(graph.targetsOf('heic')).toContain('txt');
  });

  it('never follows a step of another class, not even with a step of its class between', () => {
    expect(graph.plans('mp4', 'txt')).toEqual([]);
    expect(graph.plans('html', 'txt')).toEqual([]);
    expect(graph.targetsOf('mp4').sort()).toEqual(['png', 'tiff']);
    expect(graph.targetsOf('html').sort()).toEqual(['png', 'tiff']);
    // Without the attribute the same engines read a video's frame and a browser's screenshot.
    const loose = new ConversionGraph([decoder, video, browser, { ...reader, pairs: reader.pairs.map(({ onlyAfter: _onlyAfter, ...pair }) => pair) }]);
    expect(loose.plans('mp4', 'txt').map(stepsOf)[0]).toBe('video:mp4>png reader:png>txt');
    expect(loose.canConvert('html', 'txt')).toBe(true);
  });

  it('with every engine of this build: OCR reads a picture an image engine decoded, never a video\'s frame or an office suite\'s page', () => {
    const real = new ConversionGraph(ENGINE_DESCRIPTORS);
    const heicToText = real.plans('heic', 'txt');
    expect(stepsOf(heicToText[0]!)).toBe('imagemagick:heic>png ocr:png>txt');
    for (const plan of heicToText) expect(plan.steps.slice(0, -1).map((step) => step.engine).every((id) => ['imagemagick', 'sharp'].includes(id)), stepsOf(plan)).toBe(true);
    for (const [from, to] of [['mp4', 'txt'], ['mp4', 'md'], ['mov', 'txt'], ['html', 'txt'], ['html', 'md'], ['docx', 'txt'], ['docx', 'md'], ['pptx', 'txt']]) {
      for (const plan of real.plans(from!, to!)) expect(plan.steps.map((step) => step.engine), `${from} → ${to}: ${stepsOf(plan)}`).not.toContain('ocr');
    }
    expect(real.canConvert('mp4', 'txt')).toBe(false);
    expect(real.canConvert('docx', 'txt')).toBe(true);
    // Held back by onlyAfter alone: without it a video's frame would be read.
    const loose = new ConversionGraph(withOcrPairs(({ onlyAfter: _onlyAfter, ...pair }) => pair));
    expect(loose.plans('mp4', 'txt').map(stepsOf)).toContain('ffmpeg-video:mp4>png ocr:png>txt');
    expect(loose.plans('html', 'txt').map(stepsOf)).toContain('chromium:html>png ocr:png>txt');
  });

  it('with every engine of this build: what OCR reads is never a step on (png → md → docx)', () => {
    const real = new ConversionGraph(ENGINE_DESCRIPTORS);
    for (const to of ['docx', 'odt', 'html', 'epub', 'rtf']) expect(real.plans('png', to), `png → ${to}`).toEqual([]);
    for (const from of ['png', 'jpg', 'heic']) for (const to of ['txt', 'md', 'pdf']) for (const plan of real.plans(from, to)) expect(plan.steps.slice(0, -1).map((step) => step.engine), stepsOf(plan)).not.toContain('ocr');
    // Held back by lastStepOnly alone: without it a guess at a picture's text would become a document.
    const loose = new ConversionGraph(withOcrPairs(({ lastStepOnly: _lastStepOnly, ...pair }) => pair));
    expect(loose.plans('png', 'docx').map(stepsOf)).toContainEqual(expect.stringMatching(/^ocr:png>md /));
  });
});

describe('engineChoices and plansTaking: options that choose a dearer engine (chosenBy)', () => {
  const real = new ConversionGraph(ENGINE_DESCRIPTORS);

  it('offers the cheapest plan and the first plan of each engine options choose, once each', () => {
    const cheap = engine('cheap', 1, [{ from: 'png', to: 'pdf', options: ['dpi'] }]);
    const dear = engine('dear', 9, [{ from: 'png', to: 'pdf', options: ['ocr'], chosenBy: ['ocr'] }, { from: 'png', to: 'tiff' }, { from: 'tiff', to: 'pdf', options: ['ocr'], chosenBy: ['ocr'] }]);
    const other = engine('other', 5, [{ from: 'png', to: 'pdf' }]);
    const plans = new ConversionGraph([cheap, dear, other]).plans('png', 'pdf');
    expect(plans.map(stepsOf)).toEqual(['cheap:png>pdf', 'other:png>pdf', 'dear:png>pdf', 'dear:png>tiff dear:tiff>pdf']);
    expect(engineChoices(plans).map(stepsOf)).toEqual(['cheap:png>pdf', 'dear:png>pdf']);
    expect(plansTaking(plans, ['ocr']).map(stepsOf)).toEqual(['dear:png>pdf', 'dear:png>tiff dear:tiff>pdf']);
    expect(plansTaking(plans, ['dpi']).map(stepsOf)).toEqual(['cheap:png>pdf']);
    expect(plansTaking(plans, ['dpi', 'ocr'])).toEqual([]);
  });

  it('keeps the plans of other engines that no option chooses as fallbacks of a conversion asked without options (html → pdf: LibreOffice after Chromium)', () => {
    // runPlan falls back to the next plan when an engine does not run here or fails as unavailable.
    const cheap = engine('cheap', 1, [{ from: 'docx', to: 'pdf' }]);
    const dear = engine('dear', 9, [{ from: 'docx', to: 'pdf' }]);
    const plans = new ConversionGraph([cheap, dear]).plans('docx', 'pdf');
    expect(plansTaking(plans, []).map(stepsOf)).toEqual(['cheap:docx>pdf', 'dear:docx>pdf']);
    const htmlToPdf = plansTaking(real.plans('html', 'pdf'), []);
    expect(lastEngine(htmlToPdf[0]!)).toBe('chromium');
    expect(htmlToPdf.map(lastEngine)).toContain('libreoffice');
  });

  it('with every engine of this build: png → pdf is img2pdf\'s, OCR\'s when ocr or languages is asked', () => {
    const plans = real.plans('png', 'pdf');
    expect(lastEngine(plansTaking(plans, [])[0]!)).toBe('img2pdf');
    expect(plansTaking(plans, []).map(lastEngine)).not.toContain('ocr');
    expect(new Set(plansTaking(plans, ['ocr']).map(lastEngine))).toEqual(new Set(['ocr']));
    expect(stepsOf(plansTaking(plans, ['ocr'])[0]!)).toBe('ocr:png>pdf');
    expect(new Set(plansTaking(plans, ['languages']).map(lastEngine))).toEqual(new Set(['ocr']));
    expect(new Set(plansTaking(plans, ['ocr', 'languages']).map(lastEngine))).toEqual(new Set(['ocr']));
    expect(engineChoices(plans).map(lastEngine)).toEqual(['img2pdf', 'ocr']);
  });

  it('with every engine of this build: an option of a fallback\'s step chooses nothing (png → jpg with dpi is not img2pdf then poppler)', () => {
    const plans = real.plans('png', 'jpg');
    expect(plans.map(stepsOf)).toContain('img2pdf:png>pdf poppler:pdf>jpg');
    expect(plansTaking(plans, ['dpi'])).toEqual([]);
    expect(stepsOf(plansTaking(plans, ['quality'])[0]!)).toBe('sharp:png>jpg');
  });

  it('with every engine of this build: pdf → pdf is Ghostscript\'s (compress, pdfa) or OCRmyPDF\'s (ocr), never both', () => {
    const plans = real.plans('pdf', 'pdf');
    expect(plansTaking(plans, []).map(stepsOf)).toEqual(['ghostscript:pdf>pdf']);
    expect(plansTaking(plans, ['ocr']).map(stepsOf)).toEqual(['ocr:pdf>pdf']);
    expect(plansTaking(plans, ['languages']).map(stepsOf)).toEqual(['ocr:pdf>pdf']);
    expect(plansTaking(plans, ['compress']).map(stepsOf)).toEqual(['ghostscript:pdf>pdf']);
    expect(plansTaking(plans, ['pdfa']).map(stepsOf)).toEqual(['ghostscript:pdf>pdf']);
    expect(plansTaking(plans, ['ocr', 'compress'])).toEqual([]);
    expect(plansTaking(plans, ['ocr', 'pdfa'])).toEqual([]);
  });

  it('with every engine of this build: a conversion\'s options are those of each engine choice', () => {
    expect(real.optionsOf('png', 'txt')).toEqual(['languages']);
    expect(real.optionsOf('png', 'pdf')).toEqual(expect.arrayContaining(['ocr', 'languages']));
    expect(real.optionsOf('pdf', 'pdf')).toEqual(expect.arrayContaining(['compress', 'pdfa', 'ocr', 'languages']));
    // Not a fallback's: png → jpg's poppler plan takes dpi, which png → jpg does not.
    expect(real.optionsOf('png', 'jpg')).not.toContain('dpi');
    expect(real.optionsOf('pdf', 'txt')).toEqual(['languages', 'pages']);
  });
});
