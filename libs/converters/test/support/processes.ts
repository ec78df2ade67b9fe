import { execFileSync } from 'node:child_process';

/** The processes whose command line holds `text` (ps itself left out). */
export function processesWith(text: string): string[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(text) && !/\bps -eo\b/.test(line));
}

/** Resolves once `condition` holds, checking every 20 ms; throws after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('the condition did not come true');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
