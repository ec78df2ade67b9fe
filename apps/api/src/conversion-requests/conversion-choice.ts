import { type ConversionOptions, type ConversionPlan, engineChoices, type OptionName, optionsOfPlan, plansTaking, validateOptions } from '@fileshift/converters';
import { RequestValidationError } from '../errors/request-validation.error.js';

/**
 * The plans for the options asked (see plansTaking), and the options checked against the first: a pdf → pdf asked
 * with {"ocr": true} is OCRmyPDF's, one without it Ghostscript's. When no choice takes them all, the refusal names the
 * options each choice takes.
 */
export function plansForOptions(raw: unknown, plans: readonly ConversionPlan[]): { plans: ConversionPlan[]; options: ConversionOptions } {
  const asked = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? Object.keys(raw) : [];
  const taking = plansTaking(plans, asked);
  if (taking.length > 0) return { plans: taking, options: checkedOptions(raw, optionsOfPlan(taking[0]!)) };
  const choices = engineChoices(plans).map((plan) => optionsOfPlan(plan));
  checkedOptions(raw, choices[0]!, choices.length > 1 ? choices : undefined);
  throw new Error('unreachable: options no plan takes passed their check');
}

/** The options of a conversion, checked against what its plan honours; a refusal names each option. */
export function checkedOptions(raw: unknown, allowed: readonly OptionName[], choices?: ReadonlyArray<readonly OptionName[]>): ConversionOptions {
  const result = validateOptions(raw, allowed, choices);
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
