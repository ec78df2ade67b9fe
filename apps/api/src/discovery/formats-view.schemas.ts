import { OPTION_NAMES } from '@fileshift/converters';
import { CONTENT_LOSSES, type ContentLoss, FORMAT_CATEGORIES } from '@fileshift/formats';
import { z } from 'zod';
import { apiSchema } from '../http-kit/api-schema-registry.js';

/** The schemas of the formats view (`GET formats`); their OpenAPI names (FormatCatalogue, CatalogueFormat, …) are the published contract. */

const OptionNameSchema = z.enum(OPTION_NAMES as [string, ...string[]]);

export const ContentLossSchema = apiSchema(
  'ContentLoss',
  z.strictObject({
    kind: z.enum(Object.keys(CONTENT_LOSSES) as [ContentLoss, ...ContentLoss[]]),
    description: z.string().describe('What the output lacks of the input, in a sentence.'),
  }),
  'Something this conversion cannot carry over, because the target cannot hold it or the engine does not write it.',
);

export const FormatTargetSchema = apiSchema(
  'FormatTarget',
  z.strictObject({
    format: z.string().describe('Canonical id of the target format (give it, or any of its extensions, as target_format).'),
    category: z.enum(FORMAT_CATEGORIES),
    recommended: z.boolean().describe('A target worth offering first.'),
    options: z.array(OptionNameSchema).describe('The conversion options this conversion honours (schemas under option_schemas).'),
    losses: z.array(ContentLossSchema).describe('What this conversion loses of the source (empty: the content survives). Checked for every pair by the conversion matrix.'),
  }),
);

export const CatalogueFormatSchema = apiSchema(
  'CatalogueFormat',
  z.strictObject({
    id: z.string().describe('Canonical format id.'),
    description: z.string(),
    category: z.enum(FORMAT_CATEGORIES),
    extensions: z.array(z.string()).describe('Every extension of the format (accepted as aliases), the canonical one first.'),
    mime_types: z.array(z.string()),
    targets: z.array(FormatTargetSchema).describe('What this format converts to on the running workers, by format id.'),
  }),
);

export const FormatCatalogueSchema = apiSchema(
  'FormatCatalogue',
  z.strictObject({
    pairs: z.number().int().min(0).describe('How many (source, target) conversions the running workers offer.'),
    formats: z.array(CatalogueFormatSchema).describe('Every format the running workers read, by id, with its targets.'),
    option_schemas: z.record(OptionNameSchema, z.record(z.string(), z.unknown())).describe('JSON Schema of each conversion option.'),
  }),
  'The free format catalogue: every input format the running workers read, its targets, and the options of each conversion.',
);

export type FormatCatalogue = z.infer<typeof FormatCatalogueSchema>;
