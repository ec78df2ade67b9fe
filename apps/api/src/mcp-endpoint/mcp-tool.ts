import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

/** What a tool call knows of the HTTP request that carried it. */
export interface ToolCall {
  /** The call's `params._meta`: a paid tool's payment travels there (`x402/payment`). */
  meta: Record<string, unknown> | undefined;
  /** The service's base URL as the caller reached it (PUBLIC_BASE_URL behind a proxy). */
  baseUrl: string;
  userAgent: string | undefined;
  /** Aborts when the client goes away: a waiting call stops waiting for nobody. */
  signal: AbortSignal;
}

/**
 * One tool of the hosted MCP endpoint. Its schemas are published in tools/list; `run` gets the arguments as sent
 * (checked by the same validation as the HTTP operation's, so a refusal carries the same error) and answers a
 * result, or throws a domain error that becomes an `isError` result.
 */
export interface McpTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: z.ZodObject;
  readonly outputSchema: z.ZodObject;
  readonly annotations: ToolAnnotations;
  /** Paid per call over x402 (its challenge answers a call without payment). */
  readonly paid: boolean;
  run(args: Record<string, unknown>, call: ToolCall): Promise<CallToolResult>;
}
