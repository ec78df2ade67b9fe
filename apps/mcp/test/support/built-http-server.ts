import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
