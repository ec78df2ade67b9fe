import type { FileshiftClient } from '@fileshift/sdk';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { FileshiftContext } from '../fileshift-context.js';

/** What every tool gets: the shared context, its session's server, and a paying client for that session. */
export interface ToolDeps {
  server: McpServer;
  context: FileshiftContext;
  /** Paths are read only when the client runs the server locally (stdio). */
  allowLocalPaths: boolean;
  client(): Promise<FileshiftClient>;
}
