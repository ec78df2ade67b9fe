import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ConversionError } from '../../src/conversion-error.js';
import type { ConversionOptions } from '../../src/conversion-options.js';
import type { EngineLimits } from '../../src/engine-descriptor.js';
import type { EngineRuntime, StepContext } from '../../src/engine-runtime.js';

// The default work directory is the OS temp dir itself: a fresh directory per call was never removed (one per
// conversion step of every run). Tests that check what an engine leaves behind pass a directory of their own.
export const testContext = (runtime: EngineRuntime, workDir = tmpdir(), limits: Partial<EngineLimits> = {}): StepContext => ({
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
  // A scratch directory of its own only when the caller brings none (each would be left behind empty).
  const outcome = await runtime.convert({ ...step, outputDir, options: step.options ?? {} }, { ...testContext(runtime, context.workDir), ...context });
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
