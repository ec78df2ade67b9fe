import { Logger, Module } from '@nestjs/common';
import { ConversionError, type ConversionGraph, createDefaultRegistry, DEFAULT_CONVERSION_LIMITS } from '@fileshift/converters';
import { CONVERSION_ENGINES, CONVERSION_GRAPH, type ConversionEngines } from './conversion-graph.token.js';

const REGISTRY = Symbol('CONVERTER_REGISTRY');

/** The engines present on this machine, probed once at start-up, and the graph they make. */
@Module({
  providers: [
    {
      provide: REGISTRY,
      useFactory: async () => {
        const registry = await createDefaultRegistry();
        if (registry.missing.length > 0) new Logger('converters').warn(`engines not available here: ${registry.missing.join(', ')}`);
        return registry;
      },
    },
    { provide: CONVERSION_GRAPH, inject: [REGISTRY], useFactory: (registry: { graph: ConversionGraph }) => registry.graph },
    {
      provide: CONVERSION_ENGINES,
      inject: [REGISTRY],
      useFactory: ({ graph }: { graph: ConversionGraph }): ConversionEngines => ({
        async convert({ inputPath, outputPath, from, to, workDir, signal, onProgress }) {
          const converter = graph.converterFor(from, to);
          if (!converter) throw new ConversionError('unsupported_output_format', `No engine converts ${from} to ${to} here.`);
          await converter.convert({ inputPath, outputPath, from, to }, { signal, onProgress, limits: DEFAULT_CONVERSION_LIMITS, workRoot: workDir });
        },
      }),
    },
  ],
  exports: [CONVERSION_GRAPH, CONVERSION_ENGINES],
})
export class ConversionGraphModule {}
