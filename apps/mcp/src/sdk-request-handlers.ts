import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** A request handler as the SDK's Protocol keeps it: the raw JSON-RPC request in, the result out. */
export type RawRequestHandler = (request: { method: string; params?: Record<string, unknown> }, extra: unknown) => Promise<unknown>;

/**
 * Puts `wrap` around a handler that McpServer installed itself (tools/list, tools/call). SDK 1.32 offers
 * no hook there, so this reaches into its handler map; test/protocol.e2e.spec proves through a real client
 * that the wrapped behaviour is served, so an SDK that moves the map fails a test rather than silently.
 */
export function wrapRequestHandler(server: McpServer, method: string, wrap: (original: RawRequestHandler) => RawRequestHandler): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RawRequestHandler> })._requestHandlers;
  const original = handlers?.get(method);
  if (!handlers || !original) throw new Error(`The MCP SDK has no ${method} handler to wrap (an SDK change?)`);
  handlers.set(method, wrap(original));
}
