import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describePlan, type PaymentRequest, type SpendPlan } from '@fileshift/sdk';
import { formatAmount } from './usdc-amount.js';

/** Whether the session's client can ask its user (MCP elicitation). */
export function canAskUser(server: McpServer): boolean {
  return Boolean(server.server.getClientCapabilities()?.elicitation);
}

/**
 * Asks the user to approve a payment above the owner's threshold through MCP elicitation. Decided:
 * a client that cannot ask (no elicitation capability) gets a no, since the threshold is the owner's
 * rule that nobody spends above it unasked.
 */
export async function askUserToApprove(server: McpServer, request: PaymentRequest & { resource?: string }, networkName: string): Promise<boolean> {
  if (!canAskUser(server)) return false;
  const result = await server.server.elicitInput({
    mode: 'form',
    message: `Pay ${formatAmount(request.amount)} USDC on ${networkName} (${request.network}) to ${request.payTo}${request.resource ? ` for ${request.resource}` : ''}?`,
    requestedSchema: {
      type: 'object',
      properties: { approve: { type: 'boolean', title: 'Approve this payment', default: false } },
      required: ['approve'],
    },
  });
  return result.action === 'accept' && result.content?.approve === true;
}

/**
 * Asks the user once for a whole conversion (job fee and result), in words: what is converted and
 * what each payment costs at most. Decided as for single payments: no elicitation, no approval.
 */
export async function askUserToApprovePlan(server: McpServer, plan: SpendPlan): Promise<boolean> {
  if (!canAskUser(server)) return false;
  const result = await server.server.elicitInput({
    mode: 'form',
    message: `${describePlan(plan)} (the result is priced by the size of the upload). Pay from the agent wallet?`,
    requestedSchema: {
      type: 'object',
      properties: { approve: { type: 'boolean', title: 'Approve these payments', default: false } },
      required: ['approve'],
    },
  });
  return result.action === 'accept' && result.content?.approve === true;
}
