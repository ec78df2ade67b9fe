import type { SpendLimitError } from '@fileshift/sdk';
import type { FileshiftContext } from '../fileshift-context.js';
import { formatAmount } from '../usdc-amount.js';

/** A wallet refusal with the limit, the amounts (6 decimals) and what is left, for the agent to act on. */
export function describeRefusal(error: SpendLimitError, context: FileshiftContext, canAskUser: boolean): string {
  const { spent, budget, budgetLeft, maxPerPayment } = context.spending();
  const amount = error.payment ? `${formatAmount(error.payment.amount)} USDC` : 'the payment';
  const left = `Budget left: ${formatAmount(budgetLeft)} of ${formatAmount(budget)} USDC (spent ${formatAmount(spent)}).`;
  // A refused plan (a whole conversion) says in its message what it would cost and which limit it breaks.
  if (!error.payment && error.limit !== 'network_or_asset') return `${error.message} Nothing was signed or paid. ${left}`;
  switch (error.limit) {
    case 'budget':
      return `Payment refused (budget): ${amount} is over the budget left: ${formatAmount(budgetLeft)} of ${formatAmount(budget)} USDC.`;
    case 'per_payment_cap':
      return `Payment refused (per_payment_cap): ${amount} is over the per-payment cap of ${formatAmount(maxPerPayment)} USDC. ${left}`;
    case 'approval': {
      const threshold = context.config.approvalThreshold;
      const why = canAskUser
        ? 'the user did not approve it'
        : 'this MCP client cannot ask the user (it has no elicitation support); raise FILESHIFT_APPROVAL_THRESHOLD_USDC or use a client that supports elicitation';
      return `Payment refused (approval): ${amount} is above the approval threshold${threshold === null ? '' : ` of ${formatAmount(threshold)} USDC`} and ${why}. ${left}`;
    }
    default:
      return (
        `${error.message} The networks, assets and payTo addresses the wallet pays are set by FILESHIFT_ALLOWED_NETWORKS, ` +
        `FILESHIFT_ALLOWED_ASSETS and FILESHIFT_ALLOWED_PAY_TO (by default, what the service declares). ${left}`
      );
  }
}
