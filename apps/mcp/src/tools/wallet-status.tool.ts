import { pricesOf, type ServicePrices } from '@fileshift/sdk';
import { createPublicClient, erc20Abi, http } from 'viem';
import { z } from 'zod';
import type { FileshiftContext } from '../fileshift-context.js';
import { networkName } from '../network-names.js';
import { solanaTokenBalance } from '../solana-balance.js';
import { formatAmount } from '../usdc-amount.js';
import { describeError } from './describe-error.js';
import type { ToolDeps } from './tool-deps.js';
import { toolResult } from './tool-result.js';

const balanceShape = z.object({
  network: z.string(),
  network_name: z.string(),
  asset: z.string(),
  balance_usdc: z.string().nullable().describe('Null when no RPC for that network is known.'),
});
const pricesShape = z.object({
  detect_file_type_usdc: z.string().nullable(),
  conversion_job_fee_usdc: z.string().nullable(),
  result_usdc: z.array(z.object({ up_to_bytes: z.number().describe('Upload size up to which this price applies.'), price_usdc: z.string() })),
});

export function registerWalletStatus({ server, context }: ToolDeps): void {
  server.registerTool(
    'wallet_status',
    {
      title: 'Agent wallet status',
      description:
        "The agent wallet's addresses (EVM and/or Solana), what it spent so far over every network, the budget left and the per-payment cap " +
        "(known locally, always answered); plus, from the service, the networks and assets it pays with (in the order it prefers them: the service's), " +
        "its on-chain USDC balance on each and the service's current prices. " +
        'When the service is down those are null and service_unavailable says why. Free.',
      inputSchema: {},
      outputSchema: {
        address: z.string().describe("The wallet's address in its spend ledger: the EVM one, else the Solana one."),
        evm_address: z.string().nullable().describe('Pays on EVM networks (eip155:*); null when the wallet holds no EVM key.'),
        solana_address: z.string().nullable().describe('Pays on Solana networks (solana:*); null when the wallet holds no Solana key.'),
        spent_usdc: z.string(),
        budget_usdc: z.string(),
        budget_left_usdc: z.string(),
        max_per_payment_usdc: z.string(),
        approval_threshold_usdc: z.string().nullable().describe('Payments above it are asked of the user; null: none are.'),
        balances: z.array(balanceShape).nullable().describe('Null when the service could not be asked which networks it takes.'),
        prices: pricesShape.nullable().describe("The service's declared prices; null when the service could not be asked."),
        service_unavailable: z.string().nullable().describe('Why balances and prices are missing; null when they are there.'),
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async () => {
      const spending = context.spending();
      const threshold = context.config.approvalThreshold;
      const local = {
        address: context.address,
        evm_address: context.keys.evm?.address ?? null,
        solana_address: context.keys.solana?.address ?? null,
        spent_usdc: formatAmount(spending.spent),
        budget_usdc: formatAmount(spending.budget),
        budget_left_usdc: formatAmount(spending.budgetLeft),
        max_per_payment_usdc: formatAmount(spending.maxPerPayment),
        approval_threshold_usdc: threshold === null ? null : formatAmount(threshold),
      };
      const localText =
        `Wallet ${local.address}: spent ${local.spent_usdc} USDC of a ${local.budget_usdc} budget (${local.budget_left_usdc} left); ` +
        `at most ${local.max_per_payment_usdc} USDC per payment${threshold === null ? '' : `, the user is asked above ${local.approval_threshold_usdc}`}.`;
      // Decided: a service that is down is not an error here; the local facts are the answer and the rest is marked missing.
      const remote = await serviceSide(context).catch((error: unknown) => describeError(error, context));
      if (typeof remote === 'string') {
        return toolResult({ ...local, balances: null, prices: null, service_unavailable: remote }, `${localText} Balances and prices are unavailable: ${remote}`);
      }
      const unknown = (network: string) => `unknown (set ${network.startsWith('solana:') ? 'FILESHIFT_SOLANA_RPC_URL' : 'FILESHIFT_RPC_URL'})`;
      const balanceText = remote.balances.map((b) => `${b.balance_usdc ?? unknown(b.network)} USDC on ${b.network_name} (${b.network})`).join('; ');
      return toolResult({ ...local, ...remote, service_unavailable: null }, `${localText} On-chain: ${balanceText || 'no allowed network'}. ${describePrices(remote.prices)}`);
    },
  );
}

async function serviceSide(context: FileshiftContext) {
  const [facts, wallet] = await Promise.all([context.serviceFacts(), context.wallet()]);
  const rpcUrl = context.config.rpcUrl ?? facts.devChain?.rpcUrl;
  const chain = rpcUrl ? createPublicClient({ transport: http(rpcUrl) }) : undefined;
  const chainNetwork = chain ? await chain.getChainId().then((id) => `eip155:${id}`, () => null) : null;
  const { evm, solana } = wallet.addresses;
  // One RPC serves one chain: other networks' balances stay unknown.
  const balanceOn = async (network: string, asset: string): Promise<bigint | null> => {
    if (network.startsWith('solana:')) {
      const rpcUrl = context.config.solanaRpcUrl ?? (network === facts.solanaDevChain?.network ? facts.solanaDevChain.rpcUrl : undefined);
      return rpcUrl && solana ? solanaTokenBalance(rpcUrl, solana, asset) : null;
    }
    if (!chain || network !== chainNetwork || !evm) return null;
    return chain.readContract({ address: asset as `0x${string}`, abi: erc20Abi, functionName: 'balanceOf', args: [evm as `0x${string}`] }).catch(() => null);
  };
  const balances = await Promise.all(
    wallet.spending().limits.allow.map(async ({ network, asset }) => {
      const balance = await balanceOn(network, asset);
      return { network, network_name: networkName(network, facts), asset, balance_usdc: balance === null ? null : formatAmount(balance) };
    }),
  );
  return { balances, prices: pricesShown(pricesOf(facts)) };
}

function pricesShown(prices: ServicePrices): z.infer<typeof pricesShape> {
  const amount = (atomic: bigint | null) => (atomic === null ? null : formatAmount(atomic));
  return {
    detect_file_type_usdc: amount(prices.detection),
    conversion_job_fee_usdc: amount(prices.conversionJobFee),
    result_usdc: prices.resultTiers.map((tier) => ({ up_to_bytes: tier.maxSizeBytes, price_usdc: formatAmount(tier.price) })),
  };
}

function describePrices(prices: z.infer<typeof pricesShape>): string {
  const results = prices.result_usdc.map((tier) => `${tier.price_usdc} up to ${tier.up_to_bytes} bytes`).join(', ');
  return `Prices (USDC): detect_file_type ${prices.detect_file_type_usdc ?? 'n/a'}, job fee ${prices.conversion_job_fee_usdc ?? 'n/a'}, result ${results || 'n/a'}.`;
}
