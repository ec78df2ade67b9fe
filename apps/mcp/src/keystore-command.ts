import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { encryptKeystore } from '@fileshift/agent-wallet';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { PASSWORD_VARIABLE, type PasswordSources, readNewPassword } from './read-password.js';

export const KEYSTORE_USAGE = `usage: fileshift-mcp keystore create <file> [--import]
Writes an encrypted wallet keystore (Web3 Secret Storage v3, scrypt) for a new key, or with --import for the key in
FILESHIFT_WALLET_PRIVATE_KEY. The password comes from ${PASSWORD_VARIABLE}, else it is asked at the terminal (not echoed),
else read from the first line of stdin. An existing file is never overwritten.`;

const MIN_PASSWORD_LENGTH = 8;

export interface CommandIo extends PasswordSources {
  stdout: NodeJS.WritableStream;
}

/** `fileshift-mcp keystore …`; returns the exit code. */
export async function runKeystoreCommand(args: string[], io: CommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { import: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    return fail(io, (error as Error).message);
  }
  const [subcommand, file, ...rest] = parsed.positionals;
  if (parsed.values.help) {
    io.stdout.write(`${KEYSTORE_USAGE}\n`);
    return 0;
  }
  if (subcommand !== 'create' || !file || rest.length > 0) return fail(io, 'expected: keystore create <file>');
  const key = parsed.values.import ? io.env.FILESHIFT_WALLET_PRIVATE_KEY : generatePrivateKey();
  if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) return fail(io, '--import: FILESHIFT_WALLET_PRIVATE_KEY must be a 0x-prefixed 32-byte hex key');
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
    writeFileSync(path, `${JSON.stringify(encryptKeystore(key as Hex, password), null, 2)}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(io, code === 'EEXIST' ? `${path} exists; it is not overwritten` : `cannot write ${path} (${code ?? (error as Error).message})`);
  }
  const address = privateKeyToAddress(key as Hex);
  io.stdout.write(
    `Created ${path} for wallet ${address}.\n` +
      `Start the server with FILESHIFT_WALLET_KEYSTORE=${path} and ${PASSWORD_VARIABLE} set; fund ${address} with USDC on the network you pay on.\n`,
  );
  return 0;
}

function fail(io: CommandIo, message: string): number {
  io.prompt.write(`fileshift-mcp keystore: ${message}\n${KEYSTORE_USAGE}\n`);
  return 2;
}
