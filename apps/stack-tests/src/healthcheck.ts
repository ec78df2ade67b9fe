import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ComposeService } from './compose-file.js';
import type { ServiceProcess } from './service-process.js';

/**
 * Runs a service's compose health check (its `CMD` form, here with `node` the running Node) in the
 * process's environment until it passes, as compose does before it starts what depends on it.
 */
export async function waitUntilHealthy(service: ComposeService, started: ServiceProcess, env: Record<string, string>, timeoutMs = 90_000): Promise<void> {
  const [form, command, ...args] = service.healthcheck?.test ?? [];
  if (form !== 'CMD' || command !== 'node') throw new Error(`${started.name}: its health check must be a CMD run by node, not ${JSON.stringify(service.healthcheck?.test)}`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!started.running) throw new Error(started.describeExit());
    if ((await exitCodeOf(process.execPath, args, env)) === 0) return;
    if (Date.now() > deadline) throw new Error(`${started.name} was not healthy within ${timeoutMs / 1000} s:\n${started.output()}`);
    await sleep(250);
  }
}

function exitCodeOf(command: string, args: readonly string[], env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, stdio: 'ignore' });
    child.once('error', () => resolve(null));
    child.once('exit', (code) => resolve(code));
  });
}
