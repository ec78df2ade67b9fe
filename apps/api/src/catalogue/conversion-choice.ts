import { type ConversionOptions, type ConversionPlan, optionsOfPlan, validateOptions } from '@fileshift/converters';
import { RequestValidationError } from '../errors/request-validation.error.js';

/** The options of a conversion, checked against what its plan honours; a refusal names each option. */
export function checkedOptions(raw: unknown, plan: ConversionPlan): ConversionOptions {
  const result = validateOptions(raw, optionsOfPlan(plan));
  if (result.ok) return result.options;
  throw new RequestValidationError(result.problems.map((problem) => ({ field: problem.option === '(options)' ? 'options' : `options.${problem.option}`, message: problem.message })));
}

/** The `options` multipart part: JSON text of an object, or nothing. */
export function parsedOptionsField(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw RequestValidationError.of('options', 'must be a JSON object, e.g. {"quality": 80}');
  }
}

/** Options in one canonical spelling (sorted keys), for fingerprints and de-duplication. */
export function canonicalOptions(options: ConversionOptions): string {
  return JSON.stringify(Object.fromEntries(Object.entries(options).sort(([a], [b]) => a.localeCompare(b))));
}
