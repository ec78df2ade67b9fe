import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export { freePort } from '@fileshift/testing';

export const BUILT_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts the built service (what `npm start` runs) as a child process with the given environment (as another user:
 * `as`; in another working directory: `cwd`).
 */
export function spawnService(env: Record<string, string>, as?: { uid: number; gid: number }, options: { cwd?: string } = {}): ServiceProcess {
  if (!existsSync(BUILT_MAIN)) throw new Error(`${BUILT_MAIN} is missing: build the api first (npx nx run api:build)`);
  const child = spawn(process.execPath, [BUILT_MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: options.cwd,
    ...as,
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Polls until `probe` resolves true or the time is up. */
export async function waitFor(probe: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}
