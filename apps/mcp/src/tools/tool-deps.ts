import type { FileshiftClient } from '@fileshift/sdk';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallPayments } from '../call-payments.js';
import type { FileshiftContext } from '../fileshift-context.js';

/** A client paying from the wallet for one tool call, and what that call paid. */
export interface PayingClient {
  client: FileshiftClient;
  payments: CallPayments;
}

/** What every tool gets: the shared context, its session's server, and a paying client per call. */
export interface ToolDeps {
  server: McpServer;
  context: FileshiftContext;
  /** Paths are read only when the client runs the server locally (stdio). */
  allowLocalPaths: boolean;
  payingClient(): Promise<PayingClient>;
  /** Whether this session's client can ask its user to approve a payment (MCP elicitation). */
  canAskUser(): boolean;
}
