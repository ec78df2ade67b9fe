import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolCall } from './mcp-tool.js';
import type { McpTools } from './mcp-tools.js';
import { errorResult } from './tool-results.js';

const INSTRUCTIONS =
  'Fileshift converts and inspects files. detect_file_type, convert_file and purchase_result are paid per call over x402: ' +
  'called without payment they answer the challenge (isError, PaymentRequired in structuredContent); pay by calling again ' +
  'with the PaymentPayload in _meta["x402/payment"]; the settlement and its signed receipt come back in _meta["x402/payment-response"]. ' +
  'get_conversion_status, list_formats and delete_job are free.';

/**
 * One MCP server for one HTTP request (stateless Streamable HTTP): tools/list from the built listing, tools/call
 * running the tool with the request's context. Whatever a tool throws is its `isError` result, never a JSON-RPC
 * error: only an unknown tool is one.
 */
export function createMcpServer(tools: McpTools, version: string, call: Omit<ToolCall, 'meta'>, onFault: (error: unknown) => void): Server {
  const server = new Server({ name: 'fileshift', title: 'Fileshift', version }, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    try {
      return await tool.run(request.params.arguments ?? {}, { ...call, meta: request.params._meta as Record<string, unknown> | undefined });
    } catch (error) {
      const result = errorResult(error);
      // Ours, not the caller's (the result says only "internal error"): the log keeps what happened.
      if ((result.structuredContent as { error?: { status?: number } }).error?.status === 500) onFault(error);
      return result;
    }
  });
  return server;
}
