/**
 * The real service for client-side tests (SDK, MCP server): the built apps/api/dist/main.js as a
 * child process in dev mode (its own anvil chain with real settlement), on its own PostgreSQL
 * database, BullMQ prefix and data directory, all removed by stop().
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_DIST, createApiKeyWithCli } from './api-key-cli.js';
import { createTestDatabase, dropRedisKeys, freePort, TEST_REDIS_URL, uniqueQueuePrefix } from './test-stores.js';

export interface DevChainFacts {
  rpcUrl: string;
  chainId: number;
  network: string;
  usdc: `0x${string}`;
  payTo: `0x${string}`;
  payerAddress: `0x${string}`;
  payerPrivateKey: `0x${string}`;
}

/** The service's Solana dev chain, as its /.well-known/x402.json names it. */
export interface SolanaDevChainFacts {
  rpcUrl: string;
  network: string;
  /** The test USDC mint. */
  usdc: string;
  payTo: string;
  payerAddress: string;
  /** 64 bytes: seed, then public key. */
  payerSecretKey: number[];
}

export interface LiveService {
  baseUrl: string;
  databaseUrl: string;
  devChain: DevChainFacts;
  solanaDevChain: SolanaDevChainFacts;
  output(): string;
  /** A key API key made by the real CLI (`apikey create`). */
  createApiKey(name: string): string;
  stop(): Promise<void>;
}

export async function startLiveService(env: Record<string, string> = {}): Promise<LiveService> {
  if (!existsSync(join(API_DIST, 'main.js'))) throw new Error(`${API_DIST}main.js is missing: build the api first (npx nx run api:build)`);
  const database = await createTestDatabase('fileshift_client');
  const databaseUrl = database.url;
  const dataDir = mkdtempSync(join(tmpdir(), 'fileshift-client-test-'));
  const prefix = uniqueQueuePrefix('fsclient');
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [join(API_DIST, 'main.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: prefix,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      X402_RATE_LIMIT_PER_MINUTE: '100000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await database.drop();
    await dropRedisKeys(prefix);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output}`);
      const ready = await fetch(`${baseUrl}/api/x402/v1/health/ready`).then((r) => r.ok, () => false);
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`the service did not become ready:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const wellKnown = (await (await fetch(`${baseUrl}/.well-known/x402.json`)).json()) as { devChain: DevChainFacts; solanaDevChain: SolanaDevChainFacts };
    return {
      baseUrl,
      databaseUrl,
      devChain: wellKnown.devChain,
      solanaDevChain: wellKnown.solanaDevChain,
      output: () => output,
      createApiKey: (name) => createApiKeyWithCli(databaseUrl, name),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
