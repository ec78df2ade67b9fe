import { formatUsdc } from '@fileshift/sdk';
import { createPublicClient, erc20Abi, http } from 'viem';
import { z } from 'zod';
import { describeError } from './describe-error.js';
import type { ToolDeps } from './tool-deps.js';
import { toolError, toolResult } from './tool-result.js';

export function registerWalletStatus({ server, context }: ToolDeps): void {
  server.registerTool(
    'wallet_status',
    {
      title: 'Agent wallet status',
      description: "The agent wallet's address, the networks and assets it pays with, its on-chain USDC balance, what it spent so far and the budget left. Free.",
      inputSchema: {},
      outputSchema: {
        address: z.string(),
        balances: z.array(z.object({ network: z.string(), asset: z.string(), balance_usdc: z.string().nullable() })),
        spent_usdc: z.string(),
        budget_usdc: z.string().nullable(),
        budget_left_usdc: z.string().nullable(),
        max_per_payment_usdc: z.string(),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async () => {
      try {
        const wallet = await context.wallet();
        const spending = wallet.spending();
        const rpcUrl = context.config.rpcUrl ?? (await context.serviceFacts()).devChain?.rpcUrl;
        const chain = rpcUrl ? createPublicClient({ transport: http(rpcUrl) }) : undefined;
        const balances = await Promise.all(
          spending.limits.allow.map(async ({ network, asset }) => {
            const balance = chain
              ? await chain.readContract({ address: asset as `0x${string}`, abi: erc20Abi, functionName: 'balanceOf', args: [wallet.account.address] }).catch(() => null)
              : null;
            return { network, asset, balance_usdc: balance === null ? null : formatUsdc(balance) };
          }),
        );
        const result = {
          address: spending.address,
          balances,
          spent_usdc: formatUsdc(spending.spent),
          budget_usdc: spending.limits.budget === undefined ? null : formatUsdc(spending.limits.budget),
          budget_left_usdc: spending.budgetLeft === null ? null : formatUsdc(spending.budgetLeft),
          max_per_payment_usdc: formatUsdc(spending.limits.maxPerPayment),
        };
        const balanceText = balances.map((b) => `${b.balance_usdc ?? 'unknown (set FILESHIFT_RPC_URL)'} USDC on ${b.network}`).join('; ');
        return toolResult(
          result,
          `Wallet ${result.address}: ${balanceText}. Spent ${result.spent_usdc} USDC of a ${result.budget_usdc ?? 'unlimited'} budget ` +
            `(${result.budget_left_usdc ?? 'unlimited'} left); at most ${result.max_per_payment_usdc} USDC per payment.`,
        );
      } catch (error) {
        return toolError(await describeError(error, context));
      }
    },
  );
}
