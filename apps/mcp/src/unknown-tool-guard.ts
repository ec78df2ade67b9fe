import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { wrapRequestHandler } from './sdk-request-handlers.js';

/**
 * MCP (2025-11-25) makes a call to an unknown tool a protocol error (-32602, invalid params); SDK 1.32
 * answers it with an isError tool result instead, which an agent would read as a failure of a real tool.
 */
export function refuseUnknownTools(server: McpServer): void {
  const registered = () => Object.keys((server as unknown as { _registeredTools: Record<string, unknown> })._registeredTools);
  wrapRequestHandler(server, 'tools/call', (original) => async (request, extra) => {
    const name = request.params?.name;
    if (typeof name === 'string' && !registered().includes(name)) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}. The tools are: ${registered().join(', ')}.`);
    }
    return original(request, extra);
  });
}
