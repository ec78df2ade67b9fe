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
        allowedRoots: [],
      },
    });
  });

  it('reads the allowed roots as a colon-separated list of directories (~ expanded)', () => {
    const result = loadMcpConfig([], { FILESHIFT_WALLET_PRIVATE_KEY: KEY, FILESHIFT_ALLOWED_ROOTS: '~/Documents:/srv/files/' });
    expect(result).toMatchObject({ ok: true, config: { allowedRoots: [join(homedir(), 'Documents'), '/srv/files'] } });
  });

  it('expands a leading ~ in paths (client configurations pass it unexpanded)', () => {
    const result = loadMcpConfig([], { FILESHIFT_WALLET_PRIVATE_KEY: KEY, FILESHIFT_OUTPUT_DIR: '~/converted', FILESHIFT_LEDGER: '~/ledger.jsonl' });
    expect(result).toMatchObject({ ok: true, config: { outputDir: join(homedir(), 'converted'), ledgerPath: join(homedir(), 'ledger.jsonl') } });
  });

  it('refuses relative paths, which would depend on the working directory the MCP client happened to start the server in', () => {
    const result = loadMcpConfig(['--output-dir', 'out'], {
      FILESHIFT_WALLET_KEYSTORE: './wallet.json',
      FILESHIFT_WALLET_KEYSTORE_PASSWORD: 'pw',
      FILESHIFT_LEDGER: 'ledger.jsonl',
    });
    expect(result).toEqual({
      ok: false,
      problems: [
        expect.stringMatching(/^FILESHIFT_OUTPUT_DIR: "out" is a relative path; give an absolute one/),
        expect.stringMatching(/^FILESHIFT_LEDGER: "ledger.jsonl" is a relative path/),
        expect.stringMatching(/^FILESHIFT_WALLET_KEYSTORE: ".\/wallet.json" is a relative path/),
      ],
    });
    expect(loadMcpConfig([], { FILESHIFT_WALLET_KEYSTORE: '/keys/wallet.json', FILESHIFT_WALLET_KEYSTORE_PASSWORD: 'pw' })).toMatchObject({
      ok: true,
      config: { wallet: { keystorePath: '/keys/wallet.json' } },
    });
  });

  it('takes a Solana key beside (or instead of) the EVM one, and refuses a network of neither family', () => {
    const SOLANA = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp';
    expect(loadMcpConfig([], { FILESHIFT_WALLET_SOLANA_KEY: '[1,2]', FILESHIFT_ALLOWED_NETWORKS: SOLANA, FILESHIFT_SOLANA_RPC_URL: 'http://127.0.0.1:8899' })).toMatchObject({
      ok: true,
      config: { wallet: { solanaKey: '[1,2]' }, allowedNetworks: [SOLANA], solanaRpcUrl: 'http://127.0.0.1:8899' },
    });
    expect(loadMcpConfig([], { FILESHIFT_WALLET_PRIVATE_KEY: KEY, FILESHIFT_WALLET_SOLANA_KEY: '[1,2]' })).toMatchObject({ ok: true, config: { wallet: { privateKey: KEY, solanaKey: '[1,2]' } } });
    expect(loadMcpConfig([], { FILESHIFT_WALLET_PRIVATE_KEY: KEY, FILESHIFT_ALLOWED_NETWORKS: 'eip155:8453,bip122:000000000019d6689c085ae165831e93' })).toEqual({
      ok: false,
      problems: ['FILESHIFT_ALLOWED_NETWORKS: bip122:000000000019d6689c085ae165831e93 is neither an EVM (eip155:*) nor a Solana (solana:*) network'],
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
    expect(loadMcpConfig([], {})).toEqual({ ok: false, problems: [expect.stringContaining('FILESHIFT_WALLET_PRIVATE_KEY (EVM) and/or FILESHIFT_WALLET_SOLANA_KEY, or FILESHIFT_WALLET_KEYSTORE')] });
    const bad = loadMcpConfig(['--http', 'eighty'], { FILESHIFT_WALLET_PRIVATE_KEY: KEY, FILESHIFT_BUDGET_USDC: 'lots', FILESHIFT_URL: 'nope' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/^FILESHIFT_URL:/), expect.stringMatching(/^FILESHIFT_BUDGET_USDC: "lots" is not a USDC amount/), '--http: "eighty" is not a port number']),
    );
    expect(loadMcpConfig(['--nope'], {})).toMatchObject({ ok: false, problems: [expect.stringContaining("Unknown option '--nope'")] });
  });

  it('serves HTTP on loopback without a token by default', () => {
    expect(loadMcpConfig(['--http', '8808'], { FILESHIFT_WALLET_PRIVATE_KEY: KEY })).toMatchObject({
      ok: true,
      config: { httpPort: 8808, httpHost: '127.0.0.1', bearerToken: null, allowedHosts: [], allowedOrigins: [] },
    });
  });

  it('refuses to bind off loopback without a bearer token and the host names clients use', () => {
    expect(loadMcpConfig(['--http', '8808', '--host', '0.0.0.0'], { FILESHIFT_WALLET_PRIVATE_KEY: KEY })).toEqual({
      ok: false,
      problems: [
        'FILESHIFT_MCP_TOKEN: required when binding to 0.0.0.0 (not loopback): anyone who reaches the server would spend from the wallet',
        'FILESHIFT_MCP_ALLOWED_HOSTS: required when binding to 0.0.0.0: the host names clients use, e.g. mcp.example.com',
      ],
    });
    expect(loadMcpConfig(['--http', '8808'], { FILESHIFT_WALLET_PRIVATE_KEY: KEY, FILESHIFT_MCP_HOST: '127.0.0.2' })).toMatchObject({ ok: true });
  });

  it('takes a remote host configuration: bind address, token, allowed hosts and origins', () => {
    const token = 'a'.repeat(64);
    const result = loadMcpConfig(['--http', '8808', '--host', '0.0.0.0'], {
      FILESHIFT_WALLET_PRIVATE_KEY: KEY,
      FILESHIFT_MCP_TOKEN: token,
      FILESHIFT_MCP_ALLOWED_HOSTS: 'mcp.example.com, mcp.example.com:8808',
      FILESHIFT_MCP_ALLOWED_ORIGINS: 'https://mcp.example.com',
    });
    expect(result).toMatchObject({
      ok: true,
      config: { httpHost: '0.0.0.0', bearerToken: token, allowedHosts: ['mcp.example.com', 'mcp.example.com:8808'], allowedOrigins: ['https://mcp.example.com'] },
    });
  });

  it('refuses a short bearer token', () => {
    expect(loadMcpConfig(['--http', '8808'], { FILESHIFT_WALLET_PRIVATE_KEY: KEY, FILESHIFT_MCP_TOKEN: 'secret' })).toEqual({
      ok: false,
      problems: ['FILESHIFT_MCP_TOKEN: at least 32 characters (e.g. openssl rand -hex 32)'],
    });
  });
});
