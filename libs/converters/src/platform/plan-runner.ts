import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConversionError } from './conversion-error.js';
import type { ConversionOptions } from './conversion-options.js';
import { type ConversionPlan, stepWeights } from './conversion-plan.js';
import type { EngineRuntime } from './engine-runtime.js';
import { assertHoldsText } from './text-output.check.js';

export interface PlanRun {
  /** The candidates, cheapest first (the job's recorded plan, then the fallbacks). */
  plans: readonly ConversionPlan[];
  inputPath: string;
  /** The job's scratch directory: each step gets a directory of its own inside it. */
  workDir: string;
  options: ConversionOptions;
  signal: AbortSignal;
  /** 0..100 over the whole plan, each step weighted by its cost. */
  onProgress?: (percent: number) => void;
  /** Hears each step that ran, how long it took and whether it succeeded (metrics); must not throw. */
  onStepEnd?: (step: StepTiming) => void;
}

/** One step's run, as `onStepEnd` hears it. */
export interface StepTiming {
  engine: string;
  from: string;
  to: string;
  seconds: number;
  ok: boolean;
}

export interface PlanResult {
  plan: ConversionPlan;
  /** The last step's files, in order. */
  files: string[];
  /** What the steps said they did (see StepOutcome.notes), in order. */
  notes: string[];
}

/**
 * Runs the first plan whose engines all run here; when an engine of it fails as unavailable
 * (`provider_error`: it would not start, or crashed), the next plan is tried. Each step reads the
 * previous step's one output file and writes into a directory of its own in the job's scratch directory.
 */
export async function runPlan(run: PlanRun, runtimes: ReadonlyMap<string, EngineRuntime>): Promise<PlanResult> {
  const runnable = run.plans.filter((plan) => plan.steps.every((step) => runtimes.has(step.engine)));
  if (runnable.length === 0) throw new ConversionError('provider_error', 'No engine for this conversion runs on this worker.', true);
  for (const [index, plan] of runnable.entries()) {
    try {
      return { plan, ...(await runSteps(plan, run, runtimes, index)) };
    } catch (error) {
      const last = index === runnable.length - 1;
      if (last || !(error instanceof ConversionError) || error.failureType !== 'provider_error' || run.signal.aborted) throw error;
    }
  }
  throw new Error('unreachable');
}

async function runSteps(plan: ConversionPlan, run: PlanRun, runtimes: ReadonlyMap<string, EngineRuntime>, attempt: number): Promise<Omit<PlanResult, 'plan'>> {
  const weights = stepWeights(plan);
  let done = 0;
  let input = run.inputPath;
  let files: string[] = [];
  const notes: string[] = [];
  for (const [index, step] of plan.steps.entries()) {
    run.signal.throwIfAborted();
    const runtime = runtimes.get(step.engine)!;
    const outputDir = join(run.workDir, `plan-${attempt + 1}-step-${index + 1}`);
    mkdirSync(outputDir, { recursive: true }); // a few µs; through the thread pool ten times that
    const options = Object.fromEntries(Object.entries(run.options).filter(([name]) => lastTaking(plan, name) === index));
    const weight = weights[index]!;
    const startedAt = performance.now();
    const timed = (ok: boolean) => run.onStepEnd?.({ engine: step.engine, from: step.from, to: step.to, seconds: (performance.now() - startedAt) / 1000, ok });
    let outcome;
    try {
      outcome = await runtime.convert(
        { inputPath: input, outputDir, from: step.from, to: step.to, options },
        {
          signal: run.signal,
          limits: runtime.descriptor.limits,
          workDir: run.workDir,
          onProgress: (percent) => run.onProgress?.(Math.round((done + (weight * Math.max(0, Math.min(100, percent))) / 100) * 100)),
        },
      );
    } catch (error) {
      timed(false);
      throw error;
    }
    timed(true);
    done += weight;
    run.onProgress?.(Math.round(done * 100));
    files = outcome.files;
    notes.push(...(outcome.notes ?? []));
    if (files.length === 0) throw new ConversionError('unsupported_or_corrupt_input', 'The conversion produced no output.');
    if (index < plan.steps.length - 1) {
      if (files.length !== 1) throw new ConversionError('unknown', 'An intermediate step produced several files.');
      input = files[0]!;
    }
  }
  await assertHoldsText(plan.steps.at(-1)!.to, files);
  return { files, notes };
}

/**
 * The step an option is given to: the last that honours it, so an option is applied once (a trim cut twice, or a
 * picture turned twice, would be another result than the one asked for).
 */
function lastTaking(plan: ConversionPlan, option: string): number {
  return plan.steps.findLastIndex((step) => (step.options as readonly string[]).includes(option));
}
