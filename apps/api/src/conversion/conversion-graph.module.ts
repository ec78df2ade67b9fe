import { Logger, Module } from '@nestjs/common';
import { createConversionGraph } from '@fileshift/converters';
import { CONVERSION_GRAPH } from './conversion-graph.token.js';

/** The conversion graph of the engines present on this machine, probed once at start-up. */
@Module({
  providers: [
    {
      provide: CONVERSION_GRAPH,
      useFactory: async () => {
        const { graph, missing } = await createConversionGraph();
        if (missing.length > 0) new Logger('converters').warn(`engines not available here: ${missing.join(', ')}`);
        return graph;
      },
    },
  ],
  exports: [CONVERSION_GRAPH],
})
export class ConversionGraphModule {}
