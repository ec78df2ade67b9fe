/** What the API needs to know of the conversion graph (built from the engines present on this machine). */
export interface ConversionTargets {
  targetsOf(from: string): readonly string[];
}

export const CONVERSION_GRAPH = Symbol('CONVERSION_GRAPH');
