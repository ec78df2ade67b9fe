import { isLossyFormat } from '@fileshift/formats';
import { describe, expect, it } from 'vitest';
import { ConversionGraph } from '../src/platform/conversion-graph.js';
import { optionsOfPlan, stepWeights } from '../src/platform/conversion-plan.js';
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
