import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect } from 'vitest';
import { ConversionError } from '../../src/platform/conversion-error.js';
import type { ConversionOptions } from '../../src/platform/conversion-options.js';
import type { EngineLimits } from '../../src/platform/engine-descriptor.js';
import type { EngineRuntime, StepContext } from '../../src/platform/engine-runtime.js';

// The work directory is the job's scratch directory: the one place bound into the engine's sandbox, so it must
// hold the step's input and output. Tests pass the directory their files are in.
export const testContext = (runtime: EngineRuntime, workDir: string, limits: Partial<EngineLimits> = {}): StepContext => ({
  signal: new AbortController().signal,
  limits: { ...runtime.descriptor.limits, ...limits },
  workDir,
});

let steps = 0;

/** Runs one step of `runtime` into a fresh output directory under `dir`; the files it wrote. */
export async function convertStep(
  runtime: EngineRuntime,
  step: { inputPath: string; from: string; to: string; options?: ConversionOptions },
  dir: string,
  context: Partial<StepContext> = {},
): Promise<string[]> {
  const outputDir = join(dir, `step-${++steps}-${step.from}-to-${step.to}`);
  mkdirSync(outputDir, { recursive: true });
  // The scratch directory is the caller's directory, where its input is, unless it brings one.
  const outcome = await runtime.convert({ ...step, outputDir, options: step.options ?? {} }, { ...testContext(runtime, context.workDir ?? dir), ...context });
  return outcome.files;
}

/** Asserts a ConversionError of this type whose message leaks no path. */
export async function expectFailure(promise: Promise<unknown>, failureType: string, secretPath: string): Promise<ConversionError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ConversionError);
  expect((error as ConversionError).failureType).toBe(failureType);
  expect((error as ConversionError).message).not.toContain(secretPath);
  return error as ConversionError;
}

/** What an engine left in its scratch directory: every entry but the test's own files (`kept`). */
export const leftovers = (scratchDir: string, ...kept: string[]) => readdirSync(scratchDir).filter((entry) => !kept.some((path) => basename(path) === entry));

/** A job's scratch directory with its input in it, as the worker makes one: the input the plan reads. */
export function scratchWithInput(workDir: string, source: string): string {
  mkdirSync(workDir, { recursive: true });
  const input = join(workDir, 'input');
  copyFileSync(source, input);
  return input;
}
