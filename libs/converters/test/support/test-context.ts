import type { ConversionContext, ConversionLimits } from '../../src/converter.js';
import { DEFAULT_CONVERSION_LIMITS } from '../../src/conversion-limits.js';
import { ConversionError } from '../../src/conversion-error.js';
import { expect } from 'vitest';

export const testContext = (workRoot?: string, limits: Partial<ConversionLimits> = {}): ConversionContext => ({
  signal: new AbortController().signal,
  limits: { ...DEFAULT_CONVERSION_LIMITS, ...limits },
  workRoot,
});

/** Asserts a ConversionError of this type whose message leaks no path. */
export async function expectFailure(promise: Promise<unknown>, failureType: string, secretPath: string): Promise<ConversionError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ConversionError);
  expect((error as ConversionError).failureType).toBe(failureType);
  expect((error as ConversionError).message).not.toContain(secretPath);
  return error as ConversionError;
}
