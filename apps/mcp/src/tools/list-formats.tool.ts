import { createClient, type FormatCatalogue } from '@fileshift/sdk';
import { z } from 'zod';
import { describeError } from './describe-error.js';
import type { ToolDeps } from './tool-deps.js';
import { toolError, toolResult } from './tool-result.js';

const targetShape = z.object({
  format: z.string(),
  category: z.string(),
  recommended: z.boolean(),
  options: z.array(z.string()),
  losses: z.array(z.object({ kind: z.string(), description: z.string() })).describe('What this conversion loses of the source; empty when the content survives.'),
});

export function registerListFormats({ server, context }: ToolDeps): void {
  server.registerTool(
    'list_formats',
    {
      title: 'List formats and conversion options',
      description:
        'The format catalogue (free): every format the service reads, what it converts to, and which conversion options (quality, width, pages…) ' +
        'each conversion takes, with their allowed values, and what each conversion loses (a table made plain text, transparency made white…). ' +
        'Give source_format for one format only. Free; no API key needed.',
      inputSchema: { source_format: z.string().min(1).max(20).optional().describe('A format id or extension without a dot, e.g. png; all formats when absent.') },
      outputSchema: {
        pairs: z.number().int().describe('How many conversions the whole service offers.'),
        formats: z.array(z.object({ id: z.string(), category: z.string(), extensions: z.array(z.string()), targets: z.array(targetShape) })),
        option_schemas: z.record(z.string(), z.unknown()).describe('JSON Schema of each option.'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async ({ source_format }, extra) => {
      try {
        const catalogue = await createClient({ baseUrl: context.config.serviceUrl }).getFormats(extra.signal);
        const formats = source_format === undefined ? catalogue.formats : catalogue.formats.filter((format) => names(format).includes(source_format.replace(/^\./, '').toLowerCase()));
        if (source_format !== undefined && formats.length === 0) {
          return toolError(`The service reads no format named "${source_format}". It reads: ${catalogue.formats.map((format) => format.id).join(', ')}.`);
        }
        const structured = {
          pairs: catalogue.pairs,
          formats: formats.map(({ id, category, extensions, targets }) => ({ id, category, extensions, targets })),
          option_schemas: catalogue.option_schemas,
        };
        return toolResult(structured, formats.map(describeFormat).join('\n'));
      } catch (error) {
        return toolError(describeError(error, context));
      }
    },
  );
}

function names(format: FormatCatalogue['formats'][number]): string[] {
  return [format.id, ...format.extensions.map((extension) => extension.toLowerCase())];
}

/** One line per format: its targets, each with the options it takes and what it loses. */
function describeFormat(format: FormatCatalogue['formats'][number]): string {
  const targets = format.targets.map((target) => {
    const options = target.options.length > 0 ? ` [${target.options.join(', ')}]` : '';
    const losses = target.losses.length > 0 ? ` (loses: ${target.losses.map((loss) => loss.kind).join(', ')})` : '';
    return `${target.format}${options}${losses}`;
  });
  return `${format.id} (${format.category}) → ${targets.join(', ')}`;
}
