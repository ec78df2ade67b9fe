import { createClient } from '@fileshift/sdk';
import { z } from 'zod';
import { describeError } from './describe-error.js';
import type { ToolDeps } from './tool-deps.js';
import { toolError, toolResult } from './tool-result.js';

export function registerListOutputFormats({ server, context }: ToolDeps): void {
  server.registerTool(
    'list_output_formats',
    {
      title: 'List output formats',
      description: 'Lists what a format (given by its extension, e.g. "png" or "wav") can be converted to on this service, grouped by category, recommended targets first. Free.',
      inputSchema: { format: z.string().min(1).max(20).describe('Source extension without a dot, e.g. png.') },
      outputSchema: {
        format: z.string(),
        category: z.string().describe('Category of the source format.'),
        recommended: z.array(z.string()),
        by_category: z.record(z.string(), z.array(z.string())).describe('Every target, by category.'),
        losses: z.record(z.string(), z.array(z.string())).describe('Target → what converting to it loses, in sentences; targets that keep the content are not listed.'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async ({ format }) => {
      try {
        const formats = await createClient({ baseUrl: context.config.serviceUrl, apiKey: context.config.apiKey }).listFormatsByType(format.replace(/^\./, ''));
        const byCategory = Object.fromEntries(Object.entries(formats.extensions_by_type).map(([category, targets]) => [category, Object.keys(targets)]));
        const recommended = formats.menu_popular.flatMap((entry) => Object.values(entry).flat());
        const lines = Object.entries(byCategory).map(([category, targets]) => `${category}: ${targets.join(', ')}`);
        const losses = Object.entries(formats.losses).map(([target, sentences]) => `${target} loses: ${sentences.join(' ')}`);
        return toolResult(
          { format, category: formats.type, recommended, by_category: byCategory, losses: formats.losses },
          `${format} (${formats.type}) converts to — recommended: ${recommended.join(', ') || 'none'}; all:\n${lines.join('\n') || 'nothing on this service'}` +
            (losses.length > 0 ? `\n${losses.join('\n')}` : ''),
        );
      } catch (error) {
        return toolError(describeError(error, context));
      }
    },
  );
}
