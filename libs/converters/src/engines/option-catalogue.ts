import { optionCatalogue, type OptionName, type OptionSchemas, type OptionsValidation } from '../platform/conversion-options.js';
import { ENGINE_DESCRIPTORS } from './engines.js';

/** The options catalogue of this build: the platform's options and those its registered engines declare. */
const CATALOGUE = optionCatalogue(ENGINE_DESCRIPTORS);

/** Every option a conversion may carry, with its schema: the one catalogue. */
export const OPTION_SCHEMAS: OptionSchemas = CATALOGUE.schemas;
export const OPTION_NAMES: OptionName[] = CATALOGUE.names;
/** The options whose values are secrets (see OptionCatalogue.secretNames). */
export const SECRET_OPTION_NAMES: OptionName[] = CATALOGUE.secretNames;

/** Pure: checks `raw` against the options `allowed` for a plan (see OptionCatalogue.validate). */
export function validateOptions(raw: unknown, allowed: readonly OptionName[], choices?: ReadonlyArray<readonly OptionName[]>): OptionsValidation {
  return CATALOGUE.validate(raw, allowed, choices);
}

/** The allowed values of an option, in words. */
export function describeAllowed(name: OptionName): string {
  return CATALOGUE.describeAllowed(name);
}
