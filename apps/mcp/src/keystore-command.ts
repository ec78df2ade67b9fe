import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { encryptWalletKeystore, KeystoreError, SolanaKey, type WalletSecrets } from '@fileshift/agent-wallet';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { PASSWORD_VARIABLE, type PasswordSources, readNewPassword } from './read-password.js';

export const KEYSTORE_USAGE = `usage: fileshift-mcp keystore create <file> [--evm] [--solana] [--import]
Writes an encrypted wallet keystore (scrypt) for a new EVM key (the default; a Web3 Secret Storage v3 file), a new Solana key
(--solana), or both (--evm --solana); with --import, for the keys in FILESHIFT_WALLET_PRIVATE_KEY (EVM) and
FILESHIFT_WALLET_SOLANA_KEY (Solana: solana-keygen's JSON byte array, or base58) instead (without --evm/--solana: those set).
The password comes from ${PASSWORD_VARIABLE}, else it is asked at the terminal (not echoed), else read from the first line of
stdin. An existing file is never overwritten. Only addresses are printed, never a key.`;

const MIN_PASSWORD_LENGTH = 8;

export interface CommandIo extends PasswordSources {
  stdout: NodeJS.WritableStream;
}

/** `fileshift-mcp keystore …`; returns the exit code. */
export async function runKeystoreCommand(args: string[], io: CommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        import: { type: 'boolean', default: false },
        evm: { type: 'boolean', default: false },
        solana: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return fail(io, (error as Error).message);
  }
  const [subcommand, file, ...rest] = parsed.positionals;
  if (parsed.values.help) {
    io.stdout.write(`${KEYSTORE_USAGE}\n`);
    return 0;
  }
  if (subcommand !== 'create' || !file || rest.length > 0) return fail(io, 'expected: keystore create <file>');
  const keys = walletKeys(parsed.values, io.env);
  if (typeof keys === 'string') return fail(io, keys);
  // A shell user names the file, so relative to where they are; the server gets the absolute path printed below.
  const path = resolve(file);
  // Checked before the password is asked for; the exclusive write below still guards against a race.
  if (existsSync(path)) return fail(io, `${path} exists; it is not overwritten`);
  let password: string;
  try {
    password = await readNewPassword(io);
  } catch (error) {
    return fail(io, `password: ${(error as Error).message}`);
  }
  if (password.length < MIN_PASSWORD_LENGTH) return fail(io, `the password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  try {
    // Owner-only, like the file: e.g. ~/.fileshift on a first run.
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, `${JSON.stringify(encryptWalletKeystore(keys, password), null, 2)}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(io, code === 'EEXIST' ? `${path} exists; it is not overwritten` : `cannot write ${path} (${code ?? (error as Error).message})`);
  }
  // An EVM-only wallet is named as before Solana keys existed; a wallet with a Solana key names each address's chain.
  const addresses = keys.solana ? [keys.evm && `EVM ${privateKeyToAddress(keys.evm)}`, `Solana ${keys.solana.address}`].filter(Boolean).join(', ') : privateKeyToAddress(keys.evm!);
  io.stdout.write(
    `Created ${path} for wallet ${addresses}.\n` +
      `Start the server with FILESHIFT_WALLET_KEYSTORE=${path} and ${PASSWORD_VARIABLE} set; fund ${keys.solana ? 'the wallet' : addresses} with USDC on the network you pay on.\n`,
  );
  return 0;
}

/** The keys to write, generated or imported; a string says what is wrong. */
function walletKeys(flags: { import: boolean; evm: boolean; solana: boolean }, env: NodeJS.ProcessEnv): WalletSecrets | string {
  const imported = { evm: env.FILESHIFT_WALLET_PRIVATE_KEY, solana: env.FILESHIFT_WALLET_SOLANA_KEY };
  const chosen = flags.evm || flags.solana;
  // Without a flag: an EVM key (as before Solana keys existed), or on import the keys the environment holds.
  const evm = chosen ? flags.evm : !flags.import || Boolean(imported.evm) || !imported.solana;
  const solana = chosen ? flags.solana : flags.import && Boolean(imported.solana);
  if (!flags.import) return { ...(evm ? { evm: generatePrivateKey() } : {}), ...(solana ? { solana: SolanaKey.generate() } : {}) };
  const keys: WalletSecrets = {};
  if (evm) {
    if (!imported.evm || !/^0x[0-9a-fA-F]{64}$/.test(imported.evm)) return '--import: FILESHIFT_WALLET_PRIVATE_KEY must be a 0x-prefixed 32-byte hex key';
    keys.evm = imported.evm as Hex;
  }
  if (solana) {
    if (!imported.solana) return '--import: FILESHIFT_WALLET_SOLANA_KEY must hold the Solana key (a JSON array of 64 bytes, or base58)';
    try {
      keys.solana = SolanaKey.parse(imported.solana);
    } catch (error) {
      return `--import: FILESHIFT_WALLET_SOLANA_KEY: ${error instanceof KeystoreError ? error.message : 'not a Solana key'}`;
    }
  }
  return keys;
}

function fail(io: CommandIo, message: string): number {
  io.prompt.write(`fileshift-mcp keystore: ${message}\n${KEYSTORE_USAGE}\n`);
  return 2;
}
