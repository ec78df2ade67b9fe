import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '@fileshift/testing';

export const BUILT_SERVER = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** A wallet key for servers that never pay (anvil's second account; never funded on a real chain). */
export const UNFUNDED_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

export interface BuiltHttpServer {
  child: ChildProcess;
  /** What the server wrote on stderr so far. */
  stderr: () => string;
  stop: () => Promise<void>;
}

/** Spawns the built server with `args` (which should include --http) and waits until it listens. */
export async function startBuiltHttpServer(args: string[], env: Record<string, string>): Promise<BuiltHttpServer> {
  const child = spawn(process.execPath, [BUILT_SERVER, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('Streamable HTTP on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${stderr}`)));
  });
  return {
    child,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The built server over Streamable HTTP on a free port, with no service behind it and a wallet that never
 * pays: for protocol tests that call no tool. `stop` also removes its output directory and ledger.
 */
export async function startIdleHttpServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-idle-server-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  const port = await freePort();
  const server = await startBuiltHttpServer(['--http', String(port)], {
    FILESHIFT_URL: 'http://127.0.0.1:9',
    FILESHIFT_WALLET_PRIVATE_KEY: UNFUNDED_KEY,
    FILESHIFT_OUTPUT_DIR: join(dir, 'out'),
    FILESHIFT_LEDGER: join(dir, 'ledger.jsonl'),
  }).catch((error: unknown) => {
    removeDir();
    throw error;
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: async () => {
      await server.stop();
      removeDir();
    },
  };
}
