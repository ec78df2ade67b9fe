import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { createKeyPairSignerFromBytes, getBase58Decoder } from '@solana/kit';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentWallet } from '../src/agent-wallet.js';
import { encryptKeystore, KeystoreError } from '../src/keystore.js';
import { SpendLedger } from '../src/spend-ledger.js';
import { SolanaKey } from '../src/solana-key.js';
import { loadWalletKeys } from '../src/wallet-key.js';
import { decryptWalletKeystore, encryptWalletKeystore, type WalletKeystore } from '../src/wallet-keystore.js';

describe('Solana keys in the wallet', () => {
  let dir: string | undefined;
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, content: unknown) => {
    dir ??= mkdtempSync(join(tmpdir(), 'solana-wallet-'));
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(content));
    return path;
  };

  it("reads solana-keygen's JSON byte array and base58, with the address @solana/kit derives; refuses a mismatched pair", async () => {
    const key = SolanaKey.generate();
    const bytes = key.exportSecretKey();
    expect((await createKeyPairSignerFromBytes(bytes)).address).toBe(key.address);
    expect(SolanaKey.parse(JSON.stringify([...bytes])).address).toBe(key.address);
    expect(SolanaKey.parse(` ${getBase58Decoder().decode(bytes)}\n`).address).toBe(key.address);
    expect((await key.signer()).address).toBe(key.address);

    const mismatched = Uint8Array.from([...bytes.subarray(0, 32), ...SolanaKey.generate().exportSecretKey().subarray(32)]);
    expect(() => SolanaKey.fromSecretKey(mismatched)).toThrow(/does not belong to its seed/);
    expect(() => SolanaKey.parse('[1,2,3]')).toThrow(/64 bytes, not 3/);
    expect(() => SolanaKey.parse('not base58 0OIl')).toThrow(KeystoreError);
  });

  it('never shows the secret key: JSON and inspect give the address only', () => {
    const key = SolanaKey.generate();
    const secret = getBase58Decoder().decode(key.exportSecretKey());
    const seedBytes = [...key.exportSecretKey().subarray(0, 8)].join(',');
    for (const shown of [JSON.stringify({ key }), inspect(key, { showHidden: true, depth: 5 }), String(key)]) {
      expect(shown).not.toContain(secret);
      expect(shown).not.toContain(seedBytes);
    }
    expect(JSON.stringify(key)).toBe(JSON.stringify({ address: key.address }));
  });

  it('writes a plain v3 keystore for an EVM key alone and a wallet keystore with a Solana key; reads both forms', () => {
    const evm = generatePrivateKey();
    const solana = SolanaKey.generate();
    const evmOnly = encryptWalletKeystore({ evm }, 'pw', { n: 1024 });
    expect(evmOnly).toMatchObject({ version: 3 });
    const solanaOnly = encryptWalletKeystore({ solana }, 'pw', { n: 1024 }) as WalletKeystore;
    expect(solanaOnly).toMatchObject({ fileshiftWallet: 1, solana: { address: solana.address } });
    expect(solanaOnly.evm).toBeUndefined();
    expect(JSON.stringify(solanaOnly)).not.toContain(getBase58Decoder().decode(solana.exportSecretKey()));
    const both = encryptWalletKeystore({ evm, solana }, 'pw', { n: 1024 });

    expect(decryptWalletKeystore(evmOnly, 'pw')).toEqual({ evm });
    expect(decryptWalletKeystore(solanaOnly, 'pw').solana?.address).toBe(solana.address);
    const opened = decryptWalletKeystore(both, 'pw');
    expect([opened.evm, opened.solana?.address]).toEqual([evm, solana.address]);
    expect(() => decryptWalletKeystore(both, 'wrong')).toThrow(/wrong keystore password/);
    expect(() => decryptWalletKeystore({ fileshiftWallet: 1 }, 'pw')).toThrow(/not a version 3 keystore nor a Fileshift wallet keystore/);
    expect(() => decryptWalletKeystore({ ...solanaOnly, solana: { ...solanaOnly.solana!, address: SolanaKey.generate().address } }, 'pw')).toThrow(/not the one of its address/);
  });

  it('loads raw keys and keystore files of either form; an EVM-only v3 keystore keeps working', () => {
    const evm = generatePrivateKey();
    const solana = SolanaKey.generate();
    const fromEnvironment = loadWalletKeys({ privateKey: evm, solanaKey: JSON.stringify([...solana.exportSecretKey()]) });
    expect([fromEnvironment.evm?.address, fromEnvironment.solana?.address]).toEqual([privateKeyToAddress(evm), solana.address]);
    expect(loadWalletKeys({ solanaKey: getBase58Decoder().decode(solana.exportSecretKey()) })).toMatchObject({ solana: { address: solana.address } });
    expect(loadWalletKeys({ solanaKey: getBase58Decoder().decode(solana.exportSecretKey()) }).evm).toBeUndefined();
    expect(() => loadWalletKeys({})).toThrow(/no key given/);

    const legacy = loadWalletKeys({ keystorePath: write('legacy.json', encryptKeystore(evm, 'pw', { n: 1024 })), password: 'pw' });
    expect([legacy.evm?.address, legacy.solana]).toEqual([privateKeyToAddress(evm), undefined]);
    const solanaOnly = loadWalletKeys({ keystorePath: write('solana.json', encryptWalletKeystore({ solana }, 'pw', { n: 1024 })), password: 'pw' });
    expect([solanaOnly.evm, solanaOnly.solana?.address]).toEqual([undefined, solana.address]);
  });

  it('an agent wallet with a Solana key only: named by its Solana address, refusing an EVM network it holds no key for', async () => {
    dir ??= mkdtempSync(join(tmpdir(), 'solana-wallet-'));
    const key = SolanaKey.generate();
    const signer = await key.signer();
    const ledger = new SpendLedger(join(dir, 'ledger.jsonl'), key.address);
    const limits = { allow: [{ network: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', asset: 'mint' }], maxPerPayment: 10n };
    const wallet = new AgentWallet({ solana: { signer }, ledger, limits });
    expect([wallet.address, wallet.addresses, wallet.account]).toEqual([key.address, { evm: null, solana: key.address }, undefined]);
    expect(wallet.spending()).toMatchObject({ address: key.address, spent: 0n });
    expect(() => new AgentWallet({ solana: { signer }, ledger, limits: { ...limits, allow: [...limits.allow, { network: 'eip155:8453', asset: '0x' }] } })).toThrow(
      'the wallet holds no key for eip155:8453',
    );
    expect(() => new AgentWallet({ ledger, limits })).toThrow(/needs an EVM account, a Solana signer, or both/);
  });
});
