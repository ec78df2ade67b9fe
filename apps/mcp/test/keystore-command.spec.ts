import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decryptKeystore, decryptWalletKeystore, type KeystoreV3, SolanaKey } from '@fileshift/agent-wallet';
import { privateKeyToAddress } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMcpConfig } from '../src/config.js';
import { openContext } from '../src/startup.js';

// The first well-known anvil test key.
const ANVIL_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const main = fileURLToPath(new URL('../dist/main.js', import.meta.url));

describe('fileshift-mcp keystore create (the built bin)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-keystore-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (args: string[], { env = {}, input }: { env?: Record<string, string>; input?: string } = {}) =>
    spawnSync(process.execPath, [main, 'keystore', ...args], { env: { PATH: process.env.PATH, ...env }, input, encoding: 'utf8', cwd: dir });

  it('writes a new key encrypted with the password piped on stdin (scrypt, owner-only), never printing it; the server opens it', () => {
    const password = 'piped password 1';
    const created = run(['create', 'wallet.json'], { input: `${password}\n` });
    expect(created.status, created.stderr).toBe(0);
    const path = join(dir, 'wallet.json');
    const keystore = JSON.parse(readFileSync(path, 'utf8')) as KeystoreV3;
    expect(keystore).toMatchObject({ version: 3, crypto: { kdf: 'scrypt', cipher: 'aes-128-ctr' } });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const address = privateKeyToAddress(decryptKeystore(keystore, password));
    expect(created.stdout).toContain(`Created ${path} for wallet ${address}.`);
    expect(created.stdout + created.stderr).not.toContain(password);

    const loaded = loadMcpConfig([], { FILESHIFT_WALLET_KEYSTORE: path, FILESHIFT_WALLET_KEYSTORE_PASSWORD: password, FILESHIFT_OUTPUT_DIR: join(dir, 'out'), FILESHIFT_LEDGER: join(dir, 'ledger.jsonl') });
    const opened = loaded.ok ? openContext(loaded.config) : loaded;
    expect(opened.ok && opened.context.address).toBe(address);
  });

  it('--import encrypts the key from FILESHIFT_WALLET_PRIVATE_KEY with the password from the environment, creating the directory', () => {
    const password = 'environment password';
    const created = run(['create', join(dir, 'new-dir', 'imported.json'), '--import'], { env: { FILESHIFT_WALLET_PRIVATE_KEY: ANVIL_KEY, FILESHIFT_WALLET_KEYSTORE_PASSWORD: password } });
    expect(created.status, created.stderr).toBe(0);
    expect(decryptKeystore(JSON.parse(readFileSync(join(dir, 'new-dir', 'imported.json'), 'utf8')) as KeystoreV3, password)).toBe(ANVIL_KEY);
    expect(created.stdout).toContain(privateKeyToAddress(ANVIL_KEY));
    expect(created.stdout + created.stderr).not.toContain(password);
    expect(created.stdout + created.stderr).not.toContain(ANVIL_KEY.slice(2));
  });

  it('--solana writes a Solana key (with --evm, both) that the server opens; --import takes FILESHIFT_WALLET_SOLANA_KEY; no key is printed', () => {
    const password = 'solana password';
    const created = run(['create', 'solana.json', '--solana'], { env: { FILESHIFT_WALLET_KEYSTORE_PASSWORD: password } });
    expect(created.status, created.stderr).toBe(0);
    const path = join(dir, 'solana.json');
    const opened = decryptWalletKeystore(JSON.parse(readFileSync(path, 'utf8')), password);
    expect(opened.evm).toBeUndefined();
    expect(created.stdout).toContain(`Created ${path} for wallet Solana ${opened.solana!.address}.`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const loaded = loadMcpConfig([], { FILESHIFT_WALLET_KEYSTORE: path, FILESHIFT_WALLET_KEYSTORE_PASSWORD: password, FILESHIFT_OUTPUT_DIR: join(dir, 'out'), FILESHIFT_LEDGER: join(dir, 'ledger.jsonl') });
    const context = loaded.ok ? openContext(loaded.config) : loaded;
    expect(context.ok && context.context.address).toBe(opened.solana!.address);

    const solana = SolanaKey.generate();
    const secret = JSON.stringify([...solana.exportSecretKey()]);
    const imported = run(['create', 'both.json', '--import'], { env: { FILESHIFT_WALLET_PRIVATE_KEY: ANVIL_KEY, FILESHIFT_WALLET_SOLANA_KEY: secret, FILESHIFT_WALLET_KEYSTORE_PASSWORD: password } });
    expect(imported.status, imported.stderr).toBe(0);
    const both = decryptWalletKeystore(JSON.parse(readFileSync(join(dir, 'both.json'), 'utf8')), password);
    expect([both.evm, both.solana?.address]).toEqual([ANVIL_KEY, solana.address]);
    expect(imported.stdout).toContain(`for wallet EVM ${privateKeyToAddress(ANVIL_KEY)}, Solana ${solana.address}.`);
    expect(imported.stdout + imported.stderr).not.toContain(secret.slice(1, 30));
    expect(imported.stdout + imported.stderr).not.toContain(ANVIL_KEY.slice(2));
  });

  it('never overwrites a file, and refuses a short password or a missing key to import', () => {
    writeFileSync(join(dir, 'taken.json'), 'mine');
    const taken = run(['create', 'taken.json'], { input: 'long enough password\n' });
    expect(taken.status).toBe(2);
    expect(taken.stderr).toMatch(/taken\.json exists; it is not overwritten/);
    expect(readFileSync(join(dir, 'taken.json'), 'utf8')).toBe('mine');

    const short = run(['create', 'short.json'], { input: 'short\n' });
    expect(short.status).toBe(2);
    expect(short.stderr).toMatch(/at least 8 characters/);
    expect(() => statSync(join(dir, 'short.json'))).toThrow();

    const noKey = run(['create', 'none.json', '--import'], { input: 'long enough password\n' });
    expect(noKey.status).toBe(2);
    expect(noKey.stderr).toMatch(/FILESHIFT_WALLET_PRIVATE_KEY must be/);
  });
});
