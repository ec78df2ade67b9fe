import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConversionError } from '../../src/platform/conversion-error.js';
import type { EngineRuntime } from '../../src/platform/engine-runtime.js';
import { canaryTraces, describeTraces } from '../../testing/canary-files.js';
import { SAMPLE_HEADING } from '../../testing/office-samples.js';
import type { Hrefs, ReferenceSample } from '../../testing/reference-samples.js';
import { convertStep } from './test-context.js';

/**
 * Every spelling of a reference to a canary: relative to the document (one per prefix, '' for beside it), then,
 * for each directory, its absolute path and its file: URL.
 */
export const spellings =
  (relativePrefixes: readonly string[], directories: readonly string[]): Hrefs =>
  (file) => [...relativePrefixes.map((prefix) => (prefix ? `${prefix}/${file}` : file)), ...directories.flatMap((dir) => [join(dir, file), pathToFileURL(join(dir, file)).href])];

/** What a test makes of one conversion that failed: a refusal of what the document names (fine), or a problem. */
export type FailureVerdict = (error: ConversionError, sample: ReferenceSample, to: string) => boolean;

export interface ReferenceRun {
  runtime: EngineRuntime;
  samples: readonly ReferenceSample[];
  targets: (format: string) => readonly string[];
  /** The job's scratch directory: the inputs are written here and the steps run in it. */
  workDir: string;
  /** Before each conversion (put canaries where the engine is about to look). */
  beforeEach?: () => Promise<void>;
  /** Failures that are the engine refusing a reference (only these may stand in for an output). */
  refusal?: FailureVerdict;
  /** Samples every conversion of which may be refused; any other must reach at least one output. */
  refusedWhole?: (sample: ReferenceSample) => boolean;
}

/**
 * Converts every sample to every target and lists what is wrong: an output that carries a canary (its text, its
 * picture, its colour), an output without the document's own text (a conversion that lost the document proves
 * nothing), a failure that is not a refusal, a sample none of whose conversions produced an output (unless it may
 * be refused whole). Empty when the engine read none of the files the documents name.
 */
export async function referenceProblems(run: ReferenceRun): Promise<string[]> {
  const problems: string[] = [];
  for (const sample of run.samples) {
    const inputPath = join(run.workDir, `${sample.name}.${sample.format}`);
    writeFileSync(inputPath, sample.bytes);
    const targets = run.targets(sample.format);
    if (targets.length === 0) problems.push(`${sample.name}: no target to convert it to`);
    let outputs = 0;
    for (const to of targets) {
      await run.beforeEach?.();
      const what = `${sample.name} → ${to}`;
      let output: string;
      try {
        [output] = (await convertStep(run.runtime, { inputPath, from: sample.format, to }, run.workDir)) as [string];
      } catch (error) {
        if (error instanceof ConversionError && run.refusal?.(error, sample, to)) continue;
        problems.push(`${what}: failed (${(error as Error).message} ${(error as ConversionError).diagnostics ?? ''})`);
        continue;
      }
      outputs++;
      const traces = await canaryTraces(output, to, SAMPLE_HEADING);
      if (!traces.ownText) problems.push(`${what}: the document's own text is missing`);
      const found = describeTraces(traces);
      if (found) problems.push(`${what}: carries ${found}`);
    }
    if (outputs === 0 && targets.length > 0 && !run.refusedWhole?.(sample)) problems.push(`${sample.name}: every conversion was refused`);
  }
  return problems;
}

/** The outputs of a positive control (an engine run without our defences) that carry a canary, by sample name. */
export async function samplesFollowed(outputs: ReadonlyArray<{ sample: string; format: string; path: string }>): Promise<string[]> {
  const followed = new Set<string>();
  for (const output of outputs) {
    const traces = await canaryTraces(output.path, output.format, SAMPLE_HEADING);
    if (describeTraces(traces)) followed.add(output.sample);
  }
  return [...followed].sort();
}
