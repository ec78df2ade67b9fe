import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMcpConfig } from '../src/config.js';

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

describe('MCP server configuration', () => {
  it('has working defaults once a wallet is given', () => {
    const result = loadMcpConfig([], { FILESHIFT_WALLET_PRIVATE_KEY: KEY });
    expect(result).toMatchObject({
      ok: true,
      config: {
        serviceUrl: 'http://127.0.0.1:3000',
        httpPort: null,
        maxPerPayment: 50_000n,
        totalBudget: 1_000_000n,
        approvalThreshold: null,
        allowedNetworks: [],
        outputDir: join(homedir(), 'fileshift-output'),
        ledgerPath: join(homedir(), '.fileshift', 'spend-ledger.jsonl'),
      },
    });
  });

  it('expands a leading ~ in paths (client configurations pass it unexpanded)', () => {
    const result = loadMcpConfig([], { FILESHIFT_WALLET_PRIVATE_KEY: KEY, FILESHIFT_OUTPUT_DIR: '~/converted', FILESHIFT_LEDGER: '~/ledger.jsonl' });
    expect(result).toMatchObject({ ok: true, config: { outputDir: join(homedir(), 'converted'), ledgerPath: join(homedir(), 'ledger.jsonl') } });
  });

  it('refuses a Solana network: the wallet has no Solana signer', () => {
    expect(loadMcpConfig([], { FILESHIFT_WALLET_PRIVATE_KEY: KEY, FILESHIFT_ALLOWED_NETWORKS: 'eip155:8453,solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' })).toEqual({
      ok: false,
      problems: ['FILESHIFT_ALLOWED_NETWORKS: solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp needs a Solana signer; this server signs with an EVM key only (eip155:* networks)'],
    });
  });

  it('lets flags override the environment', () => {
    const result = loadMcpConfig(['--http', '8808', '--url', 'http://svc:3000/', '--budget', '0.5', '--max-payment', '0.02', '--output-dir', '/tmp/out'], {
      FILESHIFT_WALLET_PRIVATE_KEY: KEY,
      FILESHIFT_BUDGET_USDC: '9',
      FILESHIFT_ALLOWED_NETWORKS: 'eip155:8453, eip155:31337',
    });
    expect(result).toMatchObject({
      ok: true,
      config: { httpPort: 8808, serviceUrl: 'http://svc:3000', totalBudget: 500_000n, maxPerPayment: 20_000n, outputDir: '/tmp/out', allowedNetworks: ['eip155:8453', 'eip155:31337'] },
    });
  });

  it('names every problem', () => {
    expect(loadMcpConfig([], {})).toEqual({ ok: false, problems: [expect.stringContaining('FILESHIFT_WALLET_PRIVATE_KEY, or FILESHIFT_WALLET_KEYSTORE')] });
    const bad = loadMcpConfig(['--http', 'eighty'], { FILESHIFT_WALLET_PRIVATE_KEY: KEY, FILESHIFT_BUDGET_USDC: 'lots', FILESHIFT_URL: 'nope' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/^FILESHIFT_URL:/), expect.stringMatching(/^FILESHIFT_BUDGET_USDC: "lots" is not a USDC amount/), '--http: "eighty" is not a port number']),
    );
    expect(loadMcpConfig(['--nope'], {})).toMatchObject({ ok: false, problems: [expect.stringContaining("Unknown option '--nope'")] });
  });
});
