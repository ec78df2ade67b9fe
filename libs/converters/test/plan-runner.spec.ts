import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConversionError } from '../src/platform/conversion-error.js';
import { ConversionGraph } from '../src/platform/conversion-graph.js';
import type { EngineDescriptor } from '../src/platform/engine-descriptor.js';
import { type EngineRuntime, pageOutput, singleOutput, type StepRequest } from '../src/platform/engine-runtime.js';
import { runPlan, type StepTiming } from '../src/platform/plan-runner.js';

const dir = mkdtempSync(join(tmpdir(), 'fileshift-plan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * An engine that "converts" by writing what it read plus its name (or `writes`, the same in every file); pages: one
 * file per requested page.
 */
function fakeRuntime(id: string, pairs: EngineDescriptor['pairs'], behaviour: { fail?: ConversionError; pages?: number; writes?: string } = {}): EngineRuntime & { seen: StepRequest[] } {
  const seen: StepRequest[] = [];
  return {
    seen,
    descriptor: { id, engineClass: 'documents', description: id, cost: id === 'dear' ? 9 : 2, pairs, limits: { timeoutMs: 1000, maxOutputBytes: 1000 }, debianPackages: [] },
    probe: async () => ({ available: true }),
    async convert(request, context) {
      seen.push(request);
      if (behaviour.fail) throw behaviour.fail;
      context.onProgress?.(50);
      const content = behaviour.writes ?? `${readFileSync(request.inputPath, 'utf8')}>${id}`;
      if (behaviour.pages) {
        const files = Array.from({ length: behaviour.pages }, (_, i) => pageOutput(request.outputDir, i + 1, request.to));
        for (const file of files) writeFileSync(file, content);
        return { files };
      }
      const file = singleOutput(request.outputDir, request.to);
      writeFileSync(file, content);
      return { files: [file] };
    },
  };
}

describe('runPlan', () => {
  const input = join(dir, 'input.docx');
  writeFileSync(input, 'doc');

  it('runs the steps in order, each in its own directory, with the options each step takes and weighted progress', async () => {
    const office = fakeRuntime('office', [{ from: 'docx', to: 'pdf', options: ['pdfa'] }]);
    const raster = fakeRuntime('raster', [{ from: 'pdf', to: 'png', multipleOutputs: true, options: ['dpi'] }], { pages: 3 });
    const graph = new ConversionGraph([office.descriptor, raster.descriptor]);
    const progress: number[] = [];
    const result = await runPlan(
      { plans: graph.plans('docx', 'png'), inputPath: input, workDir: join(dir, 'a'), options: { pdfa: '2b', dpi: 300 }, signal: new AbortController().signal, onProgress: (p) => progress.push(p) },
      new Map([['office', office], ['raster', raster]]),
    );
    expect(result.files).toHaveLength(3);
    expect(readFileSync(result.files[2]!, 'utf8')).toBe('doc>office>raster');
    expect(office.seen[0]!.options).toEqual({ pdfa: '2b' });
    expect(raster.seen[0]!.options).toEqual({ dpi: 300 });
    expect(raster.seen[0]!.inputPath).toBe(join(dir, 'a', 'plan-1-step-1', 'output.pdf'));
    expect(progress).toEqual([25, 50, 75, 100]);
  });

  it('gives an option two steps honour to the last of them only: a trim is cut once', async () => {
    const media = fakeRuntime('media', [{ from: 'mkv', to: 'wav', options: ['trim'] }, { from: 'wav', to: 'mp3', options: ['trim', 'bitrate'] }]);
    const graph = new ConversionGraph([{ ...media.descriptor, pairs: media.descriptor.pairs }]);
    const twoSteps = graph.plans('mkv', 'mp3').find((plan) => plan.steps.length === 2)!;
    writeFileSync(join(dir, 'input.mkv'), 'film');
    await runPlan({ plans: [twoSteps], inputPath: join(dir, 'input.mkv'), workDir: join(dir, 'trim'), options: { trim: { start: 10 }, bitrate: '128k' }, signal: new AbortController().signal }, new Map([['media', media]]));
    expect(media.seen.map((request) => request.options)).toEqual([{}, { trim: { start: 10 }, bitrate: '128k' }]);
  });

  it('tells onStepEnd each step that ran, with its engine, pair, duration and outcome', async () => {
    const broken = fakeRuntime('cheap', [{ from: 'docx', to: 'pdf' }], { fail: new ConversionError('provider_error', 'engine crashed', true) });
    const dear = fakeRuntime('dear', [{ from: 'docx', to: 'pdf' }]);
    const graph = new ConversionGraph([broken.descriptor, dear.descriptor]);
    const steps: StepTiming[] = [];
    const run = { plans: graph.plans('docx', 'pdf'), inputPath: input, workDir: join(dir, 'timed'), options: {}, signal: new AbortController().signal, onStepEnd: (step: StepTiming) => steps.push(step) };
    await runPlan(run, new Map([['cheap', broken], ['dear', dear]]));
    expect(steps.map(({ engine, from, to, ok }) => ({ engine, from, to, ok }))).toEqual([
      { engine: 'cheap', from: 'docx', to: 'pdf', ok: false },
      { engine: 'dear', from: 'docx', to: 'pdf', ok: true },
    ]);
    for (const step of steps) expect(step.seconds).toBeGreaterThanOrEqual(0);
  });

  it('falls back to the next plan when an engine fails as unavailable, not for a bad input', async () => {
    const broken = fakeRuntime('cheap', [{ from: 'docx', to: 'pdf' }], { fail: new ConversionError('provider_error', 'engine crashed', true) });
    const dear = fakeRuntime('dear', [{ from: 'docx', to: 'pdf' }]);
    const graph = new ConversionGraph([broken.descriptor, dear.descriptor]);
    const run = { plans: graph.plans('docx', 'pdf'), inputPath: input, workDir: join(dir, 'b'), options: {}, signal: new AbortController().signal };
    const result = await runPlan(run, new Map([['cheap', broken], ['dear', dear]]));
    expect(result.plan.steps[0]!.engine).toBe('dear');
    expect(readFileSync(result.files[0]!, 'utf8')).toBe('doc>dear');

    const corrupt = fakeRuntime('cheap', [{ from: 'docx', to: 'pdf' }], { fail: new ConversionError('unsupported_or_corrupt_input', 'bad') });
    await expect(runPlan({ ...run, workDir: join(dir, 'c') }, new Map([['cheap', corrupt], ['dear', dear]]))).rejects.toMatchObject({ failureType: 'unsupported_or_corrupt_input' });
  });

  it('skips plans whose engines do not run here, and says so when none does', async () => {
    const dear = fakeRuntime('dear', [{ from: 'docx', to: 'pdf' }]);
    const graph = new ConversionGraph([fakeRuntime('cheap', [{ from: 'docx', to: 'pdf' }]).descriptor, dear.descriptor]);
    const run = { plans: graph.plans('docx', 'pdf'), inputPath: input, workDir: join(dir, 'd'), options: {}, signal: new AbortController().signal };
    expect((await runPlan(run, new Map([['dear', dear]]))).plan.steps[0]!.engine).toBe('dear');
    await expect(runPlan(run, new Map())).rejects.toMatchObject({ failureType: 'provider_error' });
    expect(existsSync(join(dir, 'e'))).toBe(false);
  });

  it('stops before the next step once aborted', async () => {
    const office = fakeRuntime('office', [{ from: 'docx', to: 'pdf' }]);
    const abort = new AbortController();
    abort.abort();
    const plans = new ConversionGraph([office.descriptor]).plans('docx', 'pdf');
    await expect(runPlan({ plans, inputPath: input, workDir: join(dir, 'f'), options: {}, signal: abort.signal }, new Map([['office', office]]))).rejects.toThrow();
    expect(office.seen).toEqual([]);
  });

  it('fails a conversion to text or Markdown that wrote only white space as the input\'s fault, trying no other plan', async () => {
    for (const to of ['txt', 'md']) {
      const blank = fakeRuntime('cheap', [{ from: 'docx', to }], { writes: ' \n\t\u00a0\u3000\u200b\r\n' });
      const dear = fakeRuntime('dear', [{ from: 'docx', to }]);
      const plans = new ConversionGraph([blank.descriptor, dear.descriptor]).plans('docx', to);
      const run = { plans, inputPath: input, workDir: join(dir, `blank-${to}`), options: {}, signal: new AbortController().signal };
      await expect(runPlan(run, new Map([['cheap', blank], ['dear', dear]])), to).rejects.toMatchObject({ failureType: 'unsupported_or_corrupt_input', message: expect.stringContaining('no text') });
      expect(dear.seen, to).toEqual([]);
    }
  });

  it('fails a conversion to text whose every page file is blank, and keeps one where any page has text', async () => {
    const blankPages = fakeRuntime('pages', [{ from: 'docx', to: 'txt', multipleOutputs: true }], { pages: 3, writes: '\n\n' });
    const plans = new ConversionGraph([blankPages.descriptor]).plans('docx', 'txt');
    const run = { plans, inputPath: input, workDir: join(dir, 'blank-pages'), options: {}, signal: new AbortController().signal };
    await expect(runPlan(run, new Map([['pages', blankPages]]))).rejects.toMatchObject({ failureType: 'unsupported_or_corrupt_input' });

    const lastPageWithText: EngineRuntime = {
      ...blankPages,
      async convert(request, context) {
        const outcome = await blankPages.convert(request, context);
        writeFileSync(outcome.files.at(-1)!, '\n  p. 3\n');
        return outcome;
      },
    };
    const result = await runPlan({ ...run, workDir: join(dir, 'last-page-text') }, new Map([['pages', lastPageWithText]]));
    expect(result.files).toHaveLength(3);
  });

  it('keeps a conversion to text that wrote text', async () => {
    const text = fakeRuntime('text', [{ from: 'docx', to: 'txt' }], { writes: '\n\n  Hello\n' });
    const plans = new ConversionGraph([text.descriptor]).plans('docx', 'txt');
    const result = await runPlan({ plans, inputPath: input, workDir: join(dir, 'text'), options: {}, signal: new AbortController().signal }, new Map([['text', text]]));
    expect(readFileSync(result.files[0]!, 'utf8')).toBe('\n\n  Hello\n');
  });

  it('does not ask for text of other targets, nor of a text step before the last (an empty PDF or HTML is the engine\'s to judge)', async () => {
    for (const to of ['pdf', 'html']) {
      const empty = fakeRuntime('empty', [{ from: 'docx', to }], { writes: '' });
      const plans = new ConversionGraph([empty.descriptor]).plans('docx', to);
      const result = await runPlan({ plans, inputPath: input, workDir: join(dir, `empty-${to}`), options: {}, signal: new AbortController().signal }, new Map([['empty', empty]]));
      expect(readFileSync(result.files[0]!, 'utf8'), to).toBe('');
    }
    const blankText = fakeRuntime('blank', [{ from: 'docx', to: 'md' }], { writes: '   ' });
    const printer = fakeRuntime('printer', [{ from: 'md', to: 'pdf' }]);
    const plans = new ConversionGraph([blankText.descriptor, printer.descriptor]).plans('docx', 'pdf');
    const result = await runPlan({ plans, inputPath: input, workDir: join(dir, 'blank-then-pdf'), options: {}, signal: new AbortController().signal }, new Map([['blank', blankText], ['printer', printer]]));
    expect(readFileSync(result.files[0]!, 'utf8')).toBe('   >printer');
  });
});
