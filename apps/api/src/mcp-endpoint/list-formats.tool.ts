import { Injectable } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { resolveFormat } from '@fileshift/formats';
import { z } from 'zod';
import { formatsView } from '../discovery/formats-view.js';
import { FormatCatalogueSchema } from '../discovery/formats-view.schemas.js';
import { validated } from '../errors/request-validation.error.js';
import { LiveConversionsService } from '../live-conversions/live-conversions.service.js';
import type { McpTool } from './mcp-tool.js';
import { toolResult } from './tool-results.js';

/** GET /api/x402/v1/formats as a tool, optionally narrowed to one source format. */
@Injectable()
export class ListFormatsTool implements McpTool {
  readonly name = 'list_formats';
  readonly title = 'List formats and options';
  readonly description =
    'The format catalogue of the running workers (free): each input format, its targets with their categories, the options each ' +
    "conversion takes and what it loses, and the options' JSON Schemas. source_format narrows it to one input format.";
  readonly paid = false;
  readonly annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  readonly inputSchema = z.object({ source_format: z.string().optional().describe('An input format id or alias (pdf, jpeg…): only its targets.') });
  readonly outputSchema = FormatCatalogueSchema;

  constructor(private readonly live: LiveConversionsService) {}

  async run(args: Record<string, unknown>): Promise<CallToolResult> {
    const { source_format: asked } = validated(this.inputSchema, args);
    const catalogue = formatsView((await this.live.current()).graph);
    const id = asked === undefined ? undefined : (resolveFormat(asked)?.id ?? asked.toLowerCase());
    const formats = id === undefined ? catalogue.formats : catalogue.formats.filter((format) => format.id === id);
    const shown = { ...catalogue, formats, pairs: formats.reduce((sum, format) => sum + format.targets.length, 0) };
    return toolResult(shown, { text: `${shown.pairs} conversions from ${formats.length} input format(s).` });
  }
}
