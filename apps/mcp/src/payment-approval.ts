import { formatUsdc, type PaymentRequest } from '@fileshift/sdk';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/**
 * Asks the user to approve a payment through MCP elicitation. Where the client cannot ask (no
 * elicitation capability), the wallet's limits alone decide: the cap and the budget still hold.
 */
export async function askUserToApprove(server: McpServer, request: PaymentRequest & { resource?: string }): Promise<boolean> {
  if (!server.server.getClientCapabilities()?.elicitation) return true;
  const result = await server.server.elicitInput({
    mode: 'form',
    message: `Pay ${formatUsdc(request.amount)} USDC on ${request.network} to ${request.payTo}${request.resource ? ` for ${request.resource}` : ''}?`,
    requestedSchema: {
      type: 'object',
      properties: { approve: { type: 'boolean', title: 'Approve this payment', default: false } },
      required: ['approve'],
    },
  });
  return result.action === 'accept' && result.content?.approve === true;
}
