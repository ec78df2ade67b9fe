import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { DEV_CHAIN_ID } from './anvil-accounts.js';

/** An anvil node started from the npm package, on loopback; killed with its process group. */
export class AnvilProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly rpcUrl: string,
  ) {}

  static binaryPath(): string {
    return createRequire(import.meta.url).resolve('@foundry-rs/anvil-linux-amd64/bin/anvil');
  }

  static async start(timeoutMs = 15_000): Promise<AnvilProcess> {
    const port = await freePort();
    const child = spawn(
      AnvilProcess.binaryPath(),
      ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(DEV_CHAIN_ID), '--accounts', '10', '--silent'],
      { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
    );
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
    const anvil = new AnvilProcess(child, `http://127.0.0.1:${port}`);
    const exitOnParentExit = () => anvil.kill();
    process.once('exit', exitOnParentExit);
    child.once('exit', () => process.removeListener('exit', exitOnParentExit));
    try {
      await anvil.waitUntilAnswering(timeoutMs);
    } catch (error) {
      anvil.kill();
      throw new Error(`anvil did not start: ${(error as Error).message}${stderr ? ` — ${stderr.trim()}` : ''}`);
    }
    return anvil;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.kill();
    await exited;
  }

  private kill(): void {
    try {
      process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }

  private async waitUntilAnswering(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`exited with code ${this.child.exitCode}`);
      try {
        const response = await fetch(this.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
        });
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no answer on ${this.rpcUrl} within ${timeoutMs} ms`);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
