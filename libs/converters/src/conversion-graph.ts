import type { ConversionPair, Converter } from './converter.js';

/** Pure: which target formats each source format can reach, and through which engine. */
export class ConversionGraph {
  private readonly edges = new Map<string, Map<string, { converter: Converter; recommended: boolean }>>();

  constructor(converters: readonly Converter[]) {
    for (const converter of converters) {
      for (const pair of converter.pairs()) this.add(pair, converter);
    }
  }

  targetsOf(from: string): string[] {
    return [...(this.edges.get(from)?.keys() ?? [])];
  }

  canConvert(from: string, to: string): boolean {
    return this.edges.get(from)?.has(to) ?? false;
  }

  isRecommended(from: string, to: string): boolean {
    return this.edges.get(from)?.get(to)?.recommended ?? false;
  }

  converterFor(from: string, to: string): Converter | undefined {
    return this.edges.get(from)?.get(to)?.converter;
  }

  sourceFormats(): string[] {
    return [...this.edges.keys()];
  }

  private add(pair: ConversionPair, converter: Converter): void {
    if (pair.from === pair.to) return;
    const targets = this.edges.get(pair.from) ?? new Map();
    // The first engine registered for a pair keeps it.
    if (!targets.has(pair.to)) targets.set(pair.to, { converter, recommended: Boolean(pair.recommended) });
    this.edges.set(pair.from, targets);
  }
}
