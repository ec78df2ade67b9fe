import type { ConversionGraph } from '@fileshift/converters';

/** What the live workers convert now: each source format with its targets (all sorted). */
export interface AvailableConversions {
  engines: string[];
  pairs: number;
  from: Record<string, string[]>;
}

/** Pure: the conversions of a graph, for the discovery documents. */
export function availableConversions(graph: ConversionGraph): AvailableConversions {
  const from: Record<string, string[]> = {};
  for (const source of [...graph.sourceFormats()].sort()) {
    const targets = [...graph.targetsOf(source)].sort();
    if (targets.length > 0) from[source] = targets;
  }
  return { engines: [...graph.engines()].sort(), pairs: Object.values(from).reduce((sum, targets) => sum + targets.length, 0), from };
}
