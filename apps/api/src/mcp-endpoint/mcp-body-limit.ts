import type { RouteOptions } from 'fastify';
import { MCP_BODY_LIMIT_BYTES } from './content-input.js';
import { MCP_PATH } from './mcp-endpoint.controller.js';

/**
 * An onRoute hook: the MCP endpoint's POST takes a file's base64 content (content-input.ts), past the API's JSON body
 * limit; every other route keeps JSON_BODY_LIMIT_BYTES.
 */
export function allowMcpContent(route: RouteOptions): void {
  if (route.url === MCP_PATH && route.method === 'POST') route.bodyLimit = Math.max(route.bodyLimit ?? 0, MCP_BODY_LIMIT_BYTES);
}
