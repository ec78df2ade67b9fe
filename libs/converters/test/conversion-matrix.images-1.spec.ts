import { describe, expect, it } from 'vitest';
import { engineChoices, plansTaking } from '../src/platform/conversion-plan.js';
import { graph, proveShard, provePair, sampleOf, setUpMatrix, textPictureOf } from './support/conversion-matrix.js';

// The images shard of the conversion matrix (support/conversion-matrix.ts says what the matrix proves and how), and the
// plans an option chooses over the cheapest: OCR of pictures (and of a PDF), whose samples this shard makes.
const choices = graph
  .sourceFormats()
  .sort()
  .flatMap((source) => graph.targetsOf(source).sort().flatMap((target) => engineChoices(graph.plans(source, target)).slice(1).map((choice) => ({ source, target, choice }))));
setUpMatrix('images-1', { extraSources: choices.map(({ source }) => source), textPictures: true });

describe('the conversion matrix, images-1: every pair of the shard, from a real sample, checked by another decoder', () => {
  it('proves every advertised pair', () => proveShard('images-1'), 1_200_000);

  it('proves the plans options choose over the cheapest (ocr: a searchable PDF of a picture or a scan)', async () => {
    const choosing: Record<string, unknown> = { ocr: true, languages: ['en'] };
    const failures: string[] = [];
    let proven = 0;
    for (const { source, target, choice } of choices) {
      const options = Object.fromEntries(choice.steps.at(-1)!.chosenBy.map((name) => [name, choosing[name]]));
      const pair = `${source} → ${target} ${JSON.stringify(options)}`;
      try {
        const plans = plansTaking(graph.plans(source, target), Object.keys(options));
        expect(plans[0]!.steps.at(-1)!.engine, pair).toBe(choice.steps.at(-1)!.engine);
        await provePair(source, target, { plans, options, name: `${source}-to-${target}-chosen`, sample: textPictureOf(source) ?? sampleOf(source)! });
        proven++;
      } catch (error) {
        failures.push(`${pair}: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    expect(failures).toEqual([]);
    // Every picture tesseract reads, those an image engine decodes for it, and pdf → pdf.
    expect(proven).toBeGreaterThanOrEqual(10);
  }, 600_000);
});
