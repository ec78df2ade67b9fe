import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { WalletKeySource } from '@fileshift/agent-wallet';
import { parseUsdc } from '@fileshift/sdk';
import { z } from 'zod';

/** Everything the MCP server is configured with, validated once at start. */
export interface McpConfig {
  serviceUrl: string;
  /** For the free key API calls (output formats); without it the service's no-key limits apply. */
  apiKey?: string;
  /** null: stdio (the default); a port: Streamable HTTP on 127.0.0.1. */
  httpPort: number | null;
  wallet: WalletKeySource;
  /** Atomic USDC units. */
  maxPerPayment: bigint;
  totalBudget: bigint;
  /** Ask the user (MCP elicitation, where the client supports it) before payments above this. */
  approvalThreshold: bigint | null;
  /** Empty: what the service's /.well-known/x402.json declares. */
  allowedNetworks: string[];
  allowedAssets: string[];
  allowedPayTo: string[];
  /** For wallet_status' on-chain balance; defaults to the dev chain's RPC the service declares. */
  rpcUrl?: string;
  outputDir: string;
  ledgerPath: string;
}

const usdc = z.string().transform((text, context) => {
  try {
    return parseUsdc(text);
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});
const list = z.string().transform((text) => text.split(',').map((item) => item.trim()).filter(Boolean));

const environment = z.object({
  FILESHIFT_URL: z.url().default('http://127.0.0.1:3000'),
  FILESHIFT_API_KEY: z.string().optional(),
  FILESHIFT_WALLET_PRIVATE_KEY: z.string().optional(),
  FILESHIFT_WALLET_KEYSTORE: z.string().optional(),
  FILESHIFT_WALLET_KEYSTORE_PASSWORD: z.string().optional(),
  FILESHIFT_MAX_PAYMENT_USDC: usdc.default(parseUsdc('0.05')),
  FILESHIFT_BUDGET_USDC: usdc.default(parseUsdc('1')),
  FILESHIFT_APPROVAL_THRESHOLD_USDC: usdc.optional(),
  FILESHIFT_ALLOWED_NETWORKS: list.default([]),
  FILESHIFT_ALLOWED_ASSETS: list.default([]),
  FILESHIFT_ALLOWED_PAY_TO: list.default([]),
  FILESHIFT_RPC_URL: z.url().optional(),
  FILESHIFT_OUTPUT_DIR: z.string().default(join(homedir(), 'fileshift-output')),
  FILESHIFT_LEDGER: z.string().default(join(homedir(), '.fileshift', 'spend-ledger.jsonl')),
});

export const USAGE = `usage: fileshift-mcp [--http <port>] [--url <service url>] [--output-dir <dir>] [--budget <USDC>] [--max-payment <USDC>]
Environment: FILESHIFT_URL, FILESHIFT_API_KEY, FILESHIFT_WALLET_PRIVATE_KEY or FILESHIFT_WALLET_KEYSTORE (+ FILESHIFT_WALLET_KEYSTORE_PASSWORD),
FILESHIFT_MAX_PAYMENT_USDC (0.05), FILESHIFT_BUDGET_USDC (1), FILESHIFT_APPROVAL_THRESHOLD_USDC, FILESHIFT_ALLOWED_NETWORKS,
FILESHIFT_ALLOWED_ASSETS, FILESHIFT_ALLOWED_PAY_TO, FILESHIFT_RPC_URL, FILESHIFT_OUTPUT_DIR (~/fileshift-output), FILESHIFT_LEDGER.`;

export type ConfigResult = { ok: true; config: McpConfig } | { ok: false; problems: string[] };

/** Flags override the environment; each problem is one line naming the variable or flag. */
export function loadMcpConfig(argv: string[], env: NodeJS.ProcessEnv): ConfigResult {
  let flags;
  try {
    flags = parseArgs({
      args: argv,
      options: {
        http: { type: 'string' },
        url: { type: 'string' },
        'output-dir': { type: 'string' },
        budget: { type: 'string' },
        'max-payment': { type: 'string' },
      },
    }).values;
  } catch (error) {
    return { ok: false, problems: [(error as Error).message] };
  }
  const merged = Object.fromEntries(
    Object.entries({
      ...env,
      FILESHIFT_URL: flags.url ?? env.FILESHIFT_URL,
      FILESHIFT_OUTPUT_DIR: flags['output-dir'] ?? env.FILESHIFT_OUTPUT_DIR,
      FILESHIFT_BUDGET_USDC: flags.budget ?? env.FILESHIFT_BUDGET_USDC,
      FILESHIFT_MAX_PAYMENT_USDC: flags['max-payment'] ?? env.FILESHIFT_MAX_PAYMENT_USDC,
    }).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = environment.safeParse(merged);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`);
  const httpPort = flags.http === undefined ? null : Number(flags.http);
  if (httpPort !== null && (!Number.isInteger(httpPort) || httpPort < 1 || httpPort > 65535)) problems.push(`--http: "${flags.http}" is not a port number`);
  // The wallet holds an EVM key only: a Solana payment would fail at signing time, after the fact.
  const solana = parsed.data?.FILESHIFT_ALLOWED_NETWORKS.filter((network) => network.startsWith('solana:')) ?? [];
  if (solana.length > 0) problems.push(`FILESHIFT_ALLOWED_NETWORKS: ${solana.join(', ')} needs a Solana signer; this server signs with an EVM key only (eip155:* networks)`);
  if (!parsed.success || problems.length > 0) return { ok: false, problems };
  const e = parsed.data;
  let wallet: WalletKeySource;
  if (e.FILESHIFT_WALLET_PRIVATE_KEY) wallet = { privateKey: e.FILESHIFT_WALLET_PRIVATE_KEY };
  else if (e.FILESHIFT_WALLET_KEYSTORE && e.FILESHIFT_WALLET_KEYSTORE_PASSWORD !== undefined) {
    wallet = { keystorePath: e.FILESHIFT_WALLET_KEYSTORE, password: e.FILESHIFT_WALLET_KEYSTORE_PASSWORD };
  } else {
    return {
      ok: false,
      problems: ['wallet: set FILESHIFT_WALLET_PRIVATE_KEY, or FILESHIFT_WALLET_KEYSTORE and FILESHIFT_WALLET_KEYSTORE_PASSWORD (an encrypted v3 keystore file)'],
    };
  }
  return {
    ok: true,
    config: {
      serviceUrl: e.FILESHIFT_URL.replace(/\/+$/, ''),
      apiKey: e.FILESHIFT_API_KEY,
      httpPort,
      wallet,
      maxPerPayment: e.FILESHIFT_MAX_PAYMENT_USDC,
      totalBudget: e.FILESHIFT_BUDGET_USDC,
      approvalThreshold: e.FILESHIFT_APPROVAL_THRESHOLD_USDC ?? null,
      allowedNetworks: e.FILESHIFT_ALLOWED_NETWORKS,
      allowedAssets: e.FILESHIFT_ALLOWED_ASSETS,
      allowedPayTo: e.FILESHIFT_ALLOWED_PAY_TO,
      rpcUrl: e.FILESHIFT_RPC_URL,
      outputDir: absolutePath(e.FILESHIFT_OUTPUT_DIR),
      ledgerPath: absolutePath(e.FILESHIFT_LEDGER),
    },
  };
}

/** Client configurations (e.g. Claude Desktop's) pass "~/…" unexpanded: no shell runs in between. */
function absolutePath(path: string): string {
  return resolve(path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path);
}
