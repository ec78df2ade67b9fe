export { ConversionGraph } from './conversion-graph.js';
export type { ConversionContext, ConversionPair, ConversionRequest, Converter } from './converter.js';
export { createConversionGraph, knownConverters } from './create-conversion-graph.js';
export { MAX_INPUT_PIXELS, SharpImageConverter } from './sharp-image.converter.js';
