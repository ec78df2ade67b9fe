import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encryptKeystore, encryptWalletKeystore, SolanaKey } from '@fileshift/agent-wallet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadMcpConfig } from '../src/config.js';
import { openContext } from '../src/startup.js';

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

describe('startup checks (before serving)', () => {
  let dir: string;
  beforeEach(() => void (dir = mkdtempSync(join(tmpdir(), 'mcp-startup-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const open = (env: Record<string, string>) => {
    const loaded = loadMcpConfig([], { FILESHIFT_OUTPUT_DIR: join(dir, 'out'), FILESHIFT_LEDGER: join(dir, 'ledger', 'spend.jsonl'), ...env });
    if (!loaded.ok) throw new Error(loaded.problems.join('; '));
    return openContext(loaded.config);
  };

  it('creates the output and ledger directories and opens the wallet', () => {
    const opened = open({ FILESHIFT_WALLET_PRIVATE_KEY: KEY });
    expect(opened.ok && opened.context.address).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
  });

  it('names an output directory that cannot be created', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    expect(open({ FILESHIFT_WALLET_PRIVATE_KEY: KEY, FILESHIFT_OUTPUT_DIR: join(file, 'out') })).toEqual({
      ok: false,
      problems: [expect.stringMatching(/^FILESHIFT_OUTPUT_DIR: cannot create or write the directory .*a-file\/out \(ENOTDIR\)$/)],
    });
  });

  it('names an allowed root that is not a directory', () => {
    writeFileSync(join(dir, 'a-file'), '');
    expect(open({ FILESHIFT_WALLET_PRIVATE_KEY: KEY, FILESHIFT_ALLOWED_ROOTS: `${dir}:${join(dir, 'missing')}:${join(dir, 'a-file')}` })).toEqual({
      ok: false,
      problems: [`FILESHIFT_ALLOWED_ROOTS: ${join(dir, 'missing')} is not a directory`, `FILESHIFT_ALLOWED_ROOTS: ${join(dir, 'a-file')} is not a directory`],
    });
  });

  it('names a wrong keystore password in one line', () => {
    const keystore = join(dir, 'wallet.json');
    writeFileSync(keystore, JSON.stringify(encryptKeystore(KEY, 'right', { n: 1024 })));
    expect(open({ FILESHIFT_WALLET_KEYSTORE: keystore, FILESHIFT_WALLET_KEYSTORE_PASSWORD: 'wrong' })).toEqual({
      ok: false,
      problems: ['FILESHIFT_WALLET_KEYSTORE: wrong keystore password (or a damaged keystore)'],
    });
  });

  it('opens a Solana-only keystore, and refuses networks the wallet holds no key for, naming the variable', () => {
    const solana = SolanaKey.generate();
    const keystore = join(dir, 'solana.json');
    writeFileSync(keystore, JSON.stringify(encryptWalletKeystore({ solana }, 'right', { n: 1024 })));
    const opened = open({ FILESHIFT_WALLET_KEYSTORE: keystore, FILESHIFT_WALLET_KEYSTORE_PASSWORD: 'right' });
    expect(opened.ok && [opened.context.address, opened.context.keys.evm]).toEqual([solana.address, undefined]);
    expect(open({ FILESHIFT_WALLET_KEYSTORE: keystore, FILESHIFT_WALLET_KEYSTORE_PASSWORD: 'right', FILESHIFT_ALLOWED_NETWORKS: 'eip155:8453' })).toEqual({
      ok: false,
      problems: ['FILESHIFT_ALLOWED_NETWORKS: eip155:8453 needs an EVM key (FILESHIFT_WALLET_PRIVATE_KEY, or a keystore with one); the wallet holds none'],
    });
    expect(open({ FILESHIFT_WALLET_PRIVATE_KEY: KEY, FILESHIFT_ALLOWED_NETWORKS: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' })).toEqual({
      ok: false,
      problems: ['FILESHIFT_ALLOWED_NETWORKS: solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp needs a Solana key (FILESHIFT_WALLET_SOLANA_KEY, or a keystore with one); the wallet holds none'],
    });
    expect(open({ FILESHIFT_WALLET_SOLANA_KEY: '[1,2,3]' })).toEqual({ ok: false, problems: ['FILESHIFT_WALLET_SOLANA_KEY: a Solana secret key has 64 bytes, not 3'] });
  });
});
