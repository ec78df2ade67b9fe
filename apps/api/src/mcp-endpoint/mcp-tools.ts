import { Injectable } from '@nestjs/common';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpTool } from './mcp-tool.js';
import { listedTool } from './tool-schemas.js';
import { ConvertFileTool } from './convert-file.tool.js';
import { DeleteJobTool } from './delete-job.tool.js';
import { DetectFileTypeTool } from './detect-file-type.tool.js';
import { GetConversionStatusTool } from './get-conversion-status.tool.js';
import { ListFormatsTool } from './list-formats.tool.js';
import { PurchaseResultTool } from './purchase-result.tool.js';

/** The tools of the hosted endpoint, and their listing (built once: it depends on nothing a request carries). */
@Injectable()
export class McpTools {
  private readonly byName: ReadonlyMap<string, McpTool>;
  readonly listed: Tool[];

  constructor(detect: DetectFileTypeTool, convert: ConvertFileTool, status: GetConversionStatusTool, purchase: PurchaseResultTool, formats: ListFormatsTool, remove: DeleteJobTool) {
    const tools: McpTool[] = [detect, convert, status, purchase, formats, remove];
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
    this.listed = tools.map(listedTool);
  }

  find(name: string): McpTool | undefined {
    return this.byName.get(name);
  }
}
