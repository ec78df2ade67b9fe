import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterEach, describe, expect, it } from 'vitest';
import { encryptKeystore } from '../src/keystore.js';
import { loadWalletAccount } from '../src/wallet-key.js';

describe('loadWalletAccount', () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('takes a private key with or without 0x', () => {
    const key = generatePrivateKey();
    expect(loadWalletAccount({ privateKey: key }).address).toBe(privateKeyToAddress(key));
    expect(loadWalletAccount({ privateKey: ` ${key.slice(2)}\n` }).address).toBe(privateKeyToAddress(key));
    expect(() => loadWalletAccount({ privateKey: '0x1234' })).toThrow(/64 hexadecimal characters/);
  });

  it('opens an encrypted keystore file', () => {
    const folder = (dir = mkdtempSync(join(tmpdir(), 'wallet-')));
    const key = generatePrivateKey();
    const path = join(folder, 'wallet.json');
    writeFileSync(path, JSON.stringify(encryptKeystore(key, 'pw', { n: 1024 })));
    expect(loadWalletAccount({ keystorePath: path, password: 'pw' }).address).toBe(privateKeyToAddress(key));
    expect(() => loadWalletAccount({ keystorePath: path, password: 'nope' })).toThrow(/wrong keystore password/);
    expect(() => loadWalletAccount({ keystorePath: join(folder, 'missing.json'), password: 'pw' })).toThrow(/cannot read the keystore/);
  });
});
