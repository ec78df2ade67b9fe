import { type ChildProcess, spawn } from 'node:child_process';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

const ENTRY = new URL(`./solana-dev-chain.process${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/** How to run the entry: the built module as it is, or (under the tests' TypeScript sources) through tsx, as they are. */
function entryArguments(): string[] {
  const entry = fileURLToPath(ENTRY);
  return entry.endsWith('.ts') ? ['--import', import.meta.resolve('tsx'), entry] : [entry];
}

/**
 * The Solana dev chain in a Node process of its own (solana-dev-chain.process.ts), so that several API processes
 * can share it and its execution stays off their event loops. Killed with its process group by stop() or when
 * this process exits; it also ends by itself when this process's end closes its stdin. It keeps no process alive.
 */
export class SolanaChainProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly rpcUrl: string,
  ) {}

  static async start(timeoutMs = 15_000): Promise<SolanaChainProcess> {
    const child = spawn(process.execPath, entryArguments(), { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const kill = () => killGroup(child);
    process.once('exit', kill);
    child.once('exit', () => process.removeListener('exit', kill));
    try {
      const rpcUrl = await firstAnnouncedUrl(child, timeoutMs);
      for (const stream of [child.stdin, child.stdout, child.stderr] as unknown as { unref?(): void }[]) stream.unref?.();
      child.unref();
      return new SolanaChainProcess(child, rpcUrl);
    } catch (error) {
      kill();
      throw error;
    }
  }

  get pid(): number {
    return this.child.pid!;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    // Held until it has gone, so that a caller awaiting stop() is not left with an empty event loop.
    this.child.ref();
    killGroup(this.child);
    await exited;
  }
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

function firstAnnouncedUrl(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`the Solana dev chain did not start: ${why}${stderr ? ` — ${stderr.trim()}` : ''}`));
    };
    const timer = setTimeout(() => fail(`no answer within ${timeoutMs} ms`), timeoutMs);
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + String(chunk)).slice(-2000)));
    child.once('error', (error) => fail(error.message));
    const exited = (code: number | null, signal: string | null) => fail(`exited with ${signal ?? `code ${code}`}`);
    child.once('exit', exited);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += String(chunk);
      const line = stdout.split('\n', 2);
      if (line.length < 2) return;
      clearTimeout(timer);
      child.removeListener('exit', exited);
      try {
        resolve((JSON.parse(line[0]!) as { rpcUrl: string }).rpcUrl);
      } catch {
        reject(new Error(`the Solana dev chain announced ${line[0]} instead of its URL`));
      }
    });
  });
}
