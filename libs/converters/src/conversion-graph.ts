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
    return [...(this.edges.get(from.toLowerCase())?.keys() ?? [])];
  }

  canConvert(from: string, to: string): boolean {
    return this.edge(from, to) !== undefined;
  }

  isRecommended(from: string, to: string): boolean {
    return this.edge(from, to)?.recommended ?? false;
  }

  converterFor(from: string, to: string): Converter | undefined {
    return this.edge(from, to)?.converter;
  }

  sourceFormats(): string[] {
    return [...this.edges.keys()];
  }

  private edge(from: string, to: string) {
    return this.edges.get(from.toLowerCase())?.get(to.toLowerCase());
  }

  private add(pair: ConversionPair, converter: Converter): void {
    const from = pair.from.toLowerCase();
    const to = pair.to.toLowerCase();
    if (from === to) return;
    const targets = this.edges.get(from) ?? new Map();
    // The first engine registered for a pair keeps it: the registry lists engines by preference.
    if (!targets.has(to)) targets.set(to, { converter, recommended: Boolean(pair.recommended) });
    this.edges.set(from, targets);
  }
}
