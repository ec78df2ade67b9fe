import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { KeystoreError } from '@fileshift/agent-wallet';
import type { McpConfig } from './config.js';
import { FileshiftContext } from './fileshift-context.js';

export type StartupResult = { ok: true; context: FileshiftContext } | { ok: false; problems: string[] };

/**
 * What the configuration points at, checked before serving so that the server does not fail later,
 * e.g. after a payment: the directories it writes and reads, and the wallet key. One line per problem.
 */
export function openContext(config: McpConfig): StartupResult {
  const problems = [
    writableDirectory('FILESHIFT_OUTPUT_DIR', config.outputDir),
    writableDirectory('FILESHIFT_LEDGER', dirname(config.ledgerPath)),
    // A mistyped root would otherwise only show up as "outside the allowed roots" on every path.
    ...config.allowedRoots.map((root) => (statSync(root, { throwIfNoEntry: false })?.isDirectory() ? null : `FILESHIFT_ALLOWED_ROOTS: ${root} is not a directory`)),
  ].filter((problem): problem is string => problem !== null);
  if (problems.length > 0) return { ok: false, problems };
  let context: FileshiftContext;
  try {
    context = new FileshiftContext(config);
  } catch (error) {
    return { ok: false, problems: [`${keyVariable(config, error)}: ${(error as Error).message}`] };
  }
  // A network without its key would only fail when paying: say so now.
  const unsigned = config.allowedNetworks.filter((network) => !context.signsFor(network));
  if (unsigned.length > 0) {
    const needs = unsigned.some((network) => network.startsWith('solana:')) ? 'a Solana key (FILESHIFT_WALLET_SOLANA_KEY, or a keystore with one)' : 'an EVM key (FILESHIFT_WALLET_PRIVATE_KEY, or a keystore with one)';
    return { ok: false, problems: [`FILESHIFT_ALLOWED_NETWORKS: ${unsigned.join(', ')} needs ${needs}; the wallet holds none`] };
  }
  return { ok: true, context };
}

function keyVariable(config: McpConfig, error: unknown): string {
  if ('keystorePath' in config.wallet) return error instanceof KeystoreError ? 'FILESHIFT_WALLET_KEYSTORE' : 'FILESHIFT_LEDGER';
  if (!(error instanceof KeystoreError)) return 'FILESHIFT_LEDGER';
  // The Solana key's errors name it; the EVM key's name "the private key".
  return /Solana/.test(error.message) ? 'FILESHIFT_WALLET_SOLANA_KEY' : 'FILESHIFT_WALLET_PRIVATE_KEY';
}

function writableDirectory(variable: string, directory: string): string | null {
  try {
    mkdirSync(directory, { recursive: true });
    accessSync(directory, constants.W_OK);
    return null;
  } catch (error) {
    return `${variable}: cannot create or write the directory ${directory} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
}
