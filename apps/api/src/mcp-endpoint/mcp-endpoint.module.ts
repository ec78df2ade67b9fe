import { Module } from '@nestjs/common';
import { ConversionJobsModule } from '../conversion-jobs/conversion-jobs.module.js';
import { LiveConversionsModule } from '../live-conversions/live-conversions.module.js';
import { X402ApiModule } from '../x402-api/x402-api.module.js';
import { ContentInputs } from './content-input.js';
import { McpEndpointController } from './mcp-endpoint.controller.js';
import { McpTools } from './mcp-tools.js';
import { ToolPayments } from './tool-payments.js';
import { ConvertFileTool } from './convert-file.tool.js';
import { DeleteJobTool } from './delete-job.tool.js';
import { DetectFileTypeTool } from './detect-file-type.tool.js';
import { GetConversionStatusTool } from './get-conversion-status.tool.js';
import { ListFormatsTool } from './list-formats.tool.js';
import { PurchaseResultTool } from './purchase-result.tool.js';

/** The hosted MCP endpoint (/mcp): the x402 API's operations as tools, paid through the same gate (HTTP role). */
@Module({
  imports: [X402ApiModule, ConversionJobsModule, LiveConversionsModule],
  controllers: [McpEndpointController],
  providers: [McpTools, ToolPayments, ContentInputs, DetectFileTypeTool, ConvertFileTool, GetConversionStatusTool, PurchaseResultTool, ListFormatsTool, DeleteJobTool],
})
export class McpEndpointModule {}
