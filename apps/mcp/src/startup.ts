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
  try {
    return { ok: true, context: new FileshiftContext(config) };
  } catch (error) {
    const variable = 'privateKey' in config.wallet ? 'FILESHIFT_WALLET_PRIVATE_KEY' : error instanceof KeystoreError ? 'FILESHIFT_WALLET_KEYSTORE' : 'FILESHIFT_LEDGER';
    return { ok: false, problems: [`${variable}: ${(error as Error).message}`] };
  }
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
