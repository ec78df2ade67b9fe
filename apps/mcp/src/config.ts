import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { WalletKeySource } from '@fileshift/agent-wallet';
import { parseUsdc } from '@fileshift/sdk';
import { z } from 'zod';
import { configuredPath } from './configured-path.js';
import { isLoopback } from './host-check.js';

/** Everything the MCP server is configured with, validated once at start. */
export interface McpConfig {
  serviceUrl: string;
  /** For the free key API calls (output formats); without it the service's no-key limits apply. */
  apiKey?: string;
  /** null: stdio (the default); a port: Streamable HTTP on `httpHost`. */
  httpPort: number | null;
  /** The HTTP bind address: loopback by default; any other address needs `bearerToken` and `allowedHosts`. */
  httpHost: string;
  /** Host header values (a remote host's public name) accepted beside the loopback names. */
  allowedHosts: string[];
  /** Origin header values accepted beside the loopback origins. */
  allowedOrigins: string[];
  /** Required as `Authorization: Bearer …` on every HTTP request when set. */
  bearerToken: string | null;
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
  /** Where Solana payments read the mint and a blockhash, and wallet_status the balance; defaults to the service's Solana dev chain, else the public cluster. */
  solanaRpcUrl?: string;
  outputDir: string;
  ledgerPath: string;
  /** Where local paths may be read from when the client declares no MCP roots; empty: nowhere. */
  allowedRoots: string[];
}

/** A token guessable in practice would hand the wallet to whoever guesses it. */
const MIN_TOKEN_LENGTH = 32;

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
  FILESHIFT_WALLET_SOLANA_KEY: z.string().optional(),
  FILESHIFT_WALLET_KEYSTORE: z.string().optional(),
  FILESHIFT_WALLET_KEYSTORE_PASSWORD: z.string().optional(),
  FILESHIFT_MAX_PAYMENT_USDC: usdc.default(parseUsdc('0.05')),
  FILESHIFT_BUDGET_USDC: usdc.default(parseUsdc('1')),
  FILESHIFT_APPROVAL_THRESHOLD_USDC: usdc.optional(),
  FILESHIFT_ALLOWED_NETWORKS: list.default([]),
  FILESHIFT_ALLOWED_ASSETS: list.default([]),
  FILESHIFT_ALLOWED_PAY_TO: list.default([]),
  FILESHIFT_RPC_URL: z.url().optional(),
  FILESHIFT_SOLANA_RPC_URL: z.url().optional(),
  FILESHIFT_OUTPUT_DIR: z.string().default(join(homedir(), 'fileshift-output')),
  FILESHIFT_LEDGER: z.string().default(join(homedir(), '.fileshift', 'spend-ledger.jsonl')),
  FILESHIFT_ALLOWED_ROOTS: z.string().transform((text) => text.split(':').map((item) => item.trim()).filter(Boolean)).default([]),
  FILESHIFT_MCP_HOST: z.string().default('127.0.0.1'),
  FILESHIFT_MCP_ALLOWED_HOSTS: list.default([]),
  FILESHIFT_MCP_ALLOWED_ORIGINS: list.default([]),
  FILESHIFT_MCP_TOKEN: z.string().min(MIN_TOKEN_LENGTH, `at least ${MIN_TOKEN_LENGTH} characters (e.g. openssl rand -hex 32)`).optional(),
});

export const USAGE = `usage: fileshift-mcp [--http <port> [--host <bind address>]] [--url <service url>] [--output-dir <dir>] [--budget <USDC>] [--max-payment <USDC>]
Environment: FILESHIFT_URL, FILESHIFT_API_KEY, FILESHIFT_WALLET_PRIVATE_KEY (EVM) and/or FILESHIFT_WALLET_SOLANA_KEY, or FILESHIFT_WALLET_KEYSTORE
(+ FILESHIFT_WALLET_KEYSTORE_PASSWORD), FILESHIFT_MAX_PAYMENT_USDC (0.05), FILESHIFT_BUDGET_USDC (1), FILESHIFT_APPROVAL_THRESHOLD_USDC,
FILESHIFT_ALLOWED_NETWORKS, FILESHIFT_ALLOWED_ASSETS, FILESHIFT_ALLOWED_PAY_TO, FILESHIFT_RPC_URL, FILESHIFT_SOLANA_RPC_URL, FILESHIFT_OUTPUT_DIR (~/fileshift-output), FILESHIFT_LEDGER,
FILESHIFT_ALLOWED_ROOTS (dir:dir, when the client declares no roots);
over HTTP: FILESHIFT_MCP_HOST (127.0.0.1), FILESHIFT_MCP_TOKEN, FILESHIFT_MCP_ALLOWED_HOSTS, FILESHIFT_MCP_ALLOWED_ORIGINS.`;

export type ConfigResult = { ok: true; config: McpConfig } | { ok: false; problems: string[] };

/** Flags override the environment; each problem is one line naming the variable or flag. */
export function loadMcpConfig(argv: string[], env: NodeJS.ProcessEnv): ConfigResult {
  let flags;
  try {
    flags = parseArgs({
      args: argv,
      options: {
        http: { type: 'string' },
        host: { type: 'string' },
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
      FILESHIFT_MCP_HOST: flags.host ?? env.FILESHIFT_MCP_HOST,
      FILESHIFT_OUTPUT_DIR: flags['output-dir'] ?? env.FILESHIFT_OUTPUT_DIR,
      FILESHIFT_BUDGET_USDC: flags.budget ?? env.FILESHIFT_BUDGET_USDC,
      FILESHIFT_MAX_PAYMENT_USDC: flags['max-payment'] ?? env.FILESHIFT_MAX_PAYMENT_USDC,
    }).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = environment.safeParse(merged);
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `${String(issue.path[0])}: ${issue.message}`);
  const httpPort = flags.http === undefined ? null : Number(flags.http);
  if (httpPort !== null && (!Number.isInteger(httpPort) || httpPort < 1 || httpPort > 65535)) problems.push(`--http: "${flags.http}" is not a port number`);
  // Which keys the wallet holds is known once they are read (openContext checks the networks against them).
  const families = parsed.data?.FILESHIFT_ALLOWED_NETWORKS.filter((network) => !/^(eip155|solana):/.test(network)) ?? [];
  if (families.length > 0) problems.push(`FILESHIFT_ALLOWED_NETWORKS: ${families.join(', ')} is neither an EVM (eip155:*) nor a Solana (solana:*) network`);
  if (parsed.data && httpPort !== null) problems.push(...remoteHostProblems(parsed.data));
  if (!parsed.success || problems.length > 0) return { ok: false, problems };
  const e = parsed.data;
  const outputDir = configuredPath('FILESHIFT_OUTPUT_DIR', e.FILESHIFT_OUTPUT_DIR);
  const ledgerPath = configuredPath('FILESHIFT_LEDGER', e.FILESHIFT_LEDGER);
  const keystorePath = e.FILESHIFT_WALLET_KEYSTORE === undefined ? null : configuredPath('FILESHIFT_WALLET_KEYSTORE', e.FILESHIFT_WALLET_KEYSTORE);
  const roots = e.FILESHIFT_ALLOWED_ROOTS.map((root) => configuredPath('FILESHIFT_ALLOWED_ROOTS', root));
  const pathProblems = [outputDir, ledgerPath, keystorePath, ...roots].flatMap((path) => (path && !path.ok ? [path.problem] : []));
  if (!outputDir.ok || !ledgerPath.ok || (keystorePath && !keystorePath.ok) || pathProblems.length > 0) return { ok: false, problems: pathProblems };
  let wallet: WalletKeySource;
  if (e.FILESHIFT_WALLET_PRIVATE_KEY || e.FILESHIFT_WALLET_SOLANA_KEY) wallet = { privateKey: e.FILESHIFT_WALLET_PRIVATE_KEY, solanaKey: e.FILESHIFT_WALLET_SOLANA_KEY };
  else if (e.FILESHIFT_WALLET_KEYSTORE && e.FILESHIFT_WALLET_KEYSTORE_PASSWORD !== undefined) {
    wallet = { keystorePath: keystorePath?.path ?? e.FILESHIFT_WALLET_KEYSTORE, password: e.FILESHIFT_WALLET_KEYSTORE_PASSWORD };
  } else {
    return {
      ok: false,
      problems: [
        'wallet: set FILESHIFT_WALLET_PRIVATE_KEY (EVM) and/or FILESHIFT_WALLET_SOLANA_KEY, or FILESHIFT_WALLET_KEYSTORE and FILESHIFT_WALLET_KEYSTORE_PASSWORD (an encrypted keystore file)',
      ],
    };
  }
  return {
    ok: true,
    config: {
      serviceUrl: e.FILESHIFT_URL.replace(/\/+$/, ''),
      apiKey: e.FILESHIFT_API_KEY,
      httpPort,
      httpHost: e.FILESHIFT_MCP_HOST,
      allowedHosts: e.FILESHIFT_MCP_ALLOWED_HOSTS,
      allowedOrigins: e.FILESHIFT_MCP_ALLOWED_ORIGINS,
      bearerToken: e.FILESHIFT_MCP_TOKEN ?? null,
      wallet,
      maxPerPayment: e.FILESHIFT_MAX_PAYMENT_USDC,
      totalBudget: e.FILESHIFT_BUDGET_USDC,
      approvalThreshold: e.FILESHIFT_APPROVAL_THRESHOLD_USDC ?? null,
      allowedNetworks: e.FILESHIFT_ALLOWED_NETWORKS,
      allowedAssets: e.FILESHIFT_ALLOWED_ASSETS,
      allowedPayTo: e.FILESHIFT_ALLOWED_PAY_TO,
      rpcUrl: e.FILESHIFT_RPC_URL,
      solanaRpcUrl: e.FILESHIFT_SOLANA_RPC_URL,
      outputDir: outputDir.path,
      ledgerPath: ledgerPath.path,
      allowedRoots: roots.flatMap((root) => (root.ok ? [root.path] : [])),
    },
  };
}

/**
 * Anyone who reaches the HTTP transport spends from the wallet: off loopback it needs a bearer token,
 * and the names clients use must be listed (the Host check refuses every other name).
 */
function remoteHostProblems(e: { FILESHIFT_MCP_HOST: string; FILESHIFT_MCP_TOKEN?: string; FILESHIFT_MCP_ALLOWED_HOSTS: string[] }): string[] {
  if (isLoopback(e.FILESHIFT_MCP_HOST)) return [];
  const problems: string[] = [];
  if (!e.FILESHIFT_MCP_TOKEN) problems.push(`FILESHIFT_MCP_TOKEN: required when binding to ${e.FILESHIFT_MCP_HOST} (not loopback): anyone who reaches the server would spend from the wallet`);
  if (e.FILESHIFT_MCP_ALLOWED_HOSTS.length === 0) problems.push(`FILESHIFT_MCP_ALLOWED_HOSTS: required when binding to ${e.FILESHIFT_MCP_HOST}: the host names clients use, e.g. mcp.example.com`);
  return problems;
}
