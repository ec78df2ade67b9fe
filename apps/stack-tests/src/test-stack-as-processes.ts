/**
 * What CI runs: docker-compose.yml's topology started as processes (stack-as-processes.ts), then the stack
 * suite pointed at it through `test-stack.mjs --base-url`, the command a user points at `docker compose up`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startStackAsProcesses } from './stack-as-processes.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const stack = await startStackAsProcesses(`${root}docker-compose.yml`, `${root}deploy/local.env`);
// Stopped from outside (Ctrl-C, CI's timeout): stop the stack's processes too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stack.stop().finally(() => process.exit(130)));
let status: number;
try {
  console.log(`stack as processes: gateway ${stack.baseUrl}`);
  const testStack = fileURLToPath(new URL('../bin/test-stack.mjs', import.meta.url));
  // Not spawnSync: the gateway and the S3 store run in this process and must keep answering.
  // This stack has a key and a dev chain: every test runs, none may be skipped.
  const suite = spawn(process.execPath, [testStack, '--base-url', stack.baseUrl, '--api-key', stack.apiKey, '--require-all'], { stdio: 'inherit' });
  const [code] = (await once(suite, 'exit')) as [number | null];
  status = code ?? 1;
  // The gateway spread the suite's requests over every API replica.
  const perApi = stack.requestsPerApi();
  console.log(`requests per API replica: ${perApi.join(', ')}`);
  if (perApi.some((count) => count === 0)) {
    console.error('an API replica got no request');
    status = 1;
  }
} finally {
  await stack.stop();
}
process.exit(status);
