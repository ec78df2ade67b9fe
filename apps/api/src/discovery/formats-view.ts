import { type ConversionGraph, OPTION_NAMES, OPTION_SCHEMAS } from '@fileshift/converters';
import { CONTENT_LOSSES, getFormat } from '@fileshift/formats';
import { z } from 'zod';
import type { FormatCatalogue } from './formats-view.schemas.js';

/** The options' JSON Schemas: the same zod schemas that validate them. */
const OPTION_JSON_SCHEMAS = Object.fromEntries(OPTION_NAMES.map((name) => [name, z.toJSONSchema(OPTION_SCHEMAS[name], { target: 'draft-2020-12' })]));

/**
 * Pure: the formats view `GET formats` publishes (its schema is named FormatCatalogue in the OpenAPI document): the
 * formats of a graph (the live workers' engines), each source format with its targets and their options.
 */
export function formatsView(graph: ConversionGraph): FormatCatalogue {
  const formats: FormatCatalogue['formats'] = [];
  for (const source of [...graph.sourceFormats()].sort()) {
    const format = getFormat(source);
    if (!format) continue;
    const targets = [...graph.targetsOf(source)]
      .sort()
      .flatMap((target) => {
        const targetFormat = getFormat(target);
        const plan = graph.plan(source, target);
        if (!targetFormat || !plan) return [];
        const losses = graph.lossesOf(source, target).map((kind) => ({ kind, description: CONTENT_LOSSES[kind] }));
        return [{ format: target, category: targetFormat.category, recommended: graph.isRecommended(source, target), options: graph.optionsOf(source, target), losses }];
      });
    if (targets.length === 0) continue;
    formats.push({ id: format.id, description: format.description, category: format.category, extensions: [...format.extensions], mime_types: [...format.mimeTypes], targets });
  }
  return { pairs: formats.reduce((sum, format) => sum + format.targets.length, 0), formats, option_schemas: OPTION_JSON_SCHEMAS };
}
