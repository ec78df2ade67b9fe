import type { FileshiftClient, SpendPlan } from '@fileshift/sdk';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallPayments } from '../call-payments.js';
import type { FileSources } from '../file-input.js';
import type { FileshiftContext } from '../fileshift-context.js';
import type { ResultResources } from '../results/result-resources.js';

/** A client paying from the wallet for one tool call, and what that call paid. */
export interface PayingClient {
  client: FileshiftClient;
  payments: CallPayments;
}

/** What every tool gets: the shared context, its session's server, and a paying client per call. */
export interface ToolDeps {
  server: McpServer;
  context: FileshiftContext;
  /** Where this session's file inputs may come from (local paths only over stdio, inside the allowed roots). */
  fileSources: FileSources;
  /** This session's bought results, as MCP resources. */
  results: ResultResources;
  /** With a plan (a whole conversion), it is checked against the limits and approved once before anything is paid. */
  payingClient(plan?: SpendPlan): Promise<PayingClient>;
  /** Whether this session's client can ask its user to approve a payment (MCP elicitation). */
  canAskUser(): boolean;
}
